"""Handlers picked out of data structures: a ChainMap whose default for a key is a step (and one whose test
override is plain), a MappingProxyType over an OrderedDict pipeline with a stage that calls a step, an Enum of
functools.partial values called through the Enum's own __call__, itertools.chain.from_iterable over the preview
phases only (the step lives in the post phase), itertools.groupby over records none of the step's kind,
zip(strict=True) where the step is the unpaired extra handler (ValueError before it is reached), a dict
comprehension building a dispatch table of helpers (one calling a step), operator.methodcaller over plugins (one
calling a step), sorted rules by priority where a plain catch-all wins first, bisect on sorted (threshold, handler)
tiers landing on a step, a heapq of (priority, counter, handler) drained in order, getattr(self, f"handle_{kind}")
dispatch to the plain kind, and match statements: a class pattern on a dataclass selecting a step, and a mapping
pattern selecting a plain refund before the step's case."""
import bisect
import heapq
import itertools
import operator

from agent_framework import step, workflow

from r8b_data import actions, steps, tables
from r8b_data.actions import Order


@step
async def by_chainmap_default(text: str) -> str:
    handlers = tables.handlers({"fmt": actions.passthrough})
    return await handlers["geo"](text)  # expect: STP001


@step
async def near_miss_chainmap_override(text: str) -> str:
    handlers = tables.handlers(tables.TEST_OVERRIDES)
    return await handlers["geo"](text)  # imprecise: STP001


@step
async def by_readonly_ordered_stages(text: str) -> str:
    for name, stage in tables.STAGES.items():
        text = await stage(text)  # expect: STP002
    return text


@step
async def by_enum_member_call(text: str) -> str:
    channel = tables.Channel["EMAIL"]
    return await channel(text)  # expect: STP002


@step
async def near_miss_chain_preview_phases(text: str) -> str:
    selected = (tables.PHASES[phase] for phase in tables.PREVIEW_PHASES)
    for handler in itertools.chain.from_iterable(selected):
        text = await handler(text)
    return text


@step
async def near_miss_groupby_kinds(text: str) -> str:
    records = [("text", text), ("csv", text + ";1"), ("text", text + "2")]
    out = []
    for kind, group in itertools.groupby(sorted(records), key=operator.itemgetter(0)):
        handler = tables.KIND_HANDLERS[kind]
        out.append(await handler(",".join(value for _, value in group)))
    return "|".join(out)


@step
async def near_miss_zip_strict(text: str) -> str:
    out = []
    try:
        for name, handler in zip([text], [actions.trim, steps.publish], strict=True):
            out.append(await handler(name))  # imprecise: STP001
    except ValueError:
        out.append("mismatch")
    return ",".join(out)


@step
async def by_dispatch_comprehension(text: str) -> str:
    table = {func.__name__.removeprefix("do_"): func for func in (actions.do_resize, actions.do_tag)}
    return await table["tag"](text)  # expect: STP002


@step
async def by_methodcaller_plugins(text: str) -> str:
    call = operator.methodcaller("handle", text)
    results = [await call(plugin) for plugin in (actions.SpellPlugin(), actions.TagPlugin())]  # expect: STP002
    return ",".join(results)


@step
async def near_miss_sorted_priority(text: str) -> str:
    for _, matches, handler in sorted(tables.RULES, key=operator.itemgetter(0)):
        if matches(text):
            return await handler(text)  # imprecise: STP001
    return text


@step
async def by_bisect_tier(text: str) -> str:
    thresholds = [limit for limit, _ in tables.TIERS]
    size = len(text) * 300
    _, handler = tables.TIERS[bisect.bisect_left(thresholds, size)]
    return await handler(text)  # expect: STP001


@step
async def by_heap_queue(text: str) -> str:
    queue: list = []
    counter = itertools.count()
    for priority, handler in ((2, actions.notify_later), (1, actions.index_stage)):
        heapq.heappush(queue, (priority, next(counter), handler))
    out = []
    while queue:
        _, _, handler = heapq.heappop(queue)
        out.append(await handler(text))  # expect: STP002
    return ",".join(out)


@step
async def near_miss_getattr_dispatch(text: str) -> str:
    return await actions.Router().dispatch("text", text)


@step
async def by_match_dataclass(text: str) -> str:
    order = Order(id=text, status="paid", items=("book",))
    match order:
        case Order(status="cancelled"):
            return await actions.refund(order.id)
        case Order(status="paid", items=[_, *_]):
            return await steps.ship(order.id)  # expect: STP001
        case _:
            return "ignored"


@step
async def near_miss_match_mapping(text: str) -> str:
    event = {"type": "refund", "id": text}
    match event:
        case {"type": "ship", "id": str(ident)}:
            return await steps.ship(ident)
        case {"type": "refund", "id": ident}:
            return await actions.refund(ident)
        case [first, *_]:
            return await steps.ship(str(first))
    return "unknown"


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_chainmap_default(mode), await near_miss_chainmap_override(mode), await by_readonly_ordered_stages(mode),
        await by_enum_member_call(mode), await near_miss_chain_preview_phases(mode), await near_miss_groupby_kinds(mode),
        await near_miss_zip_strict(mode), await by_dispatch_comprehension(mode), await by_methodcaller_plugins(mode),
        await near_miss_sorted_priority(mode), await by_bisect_tier(mode), await by_heap_queue(mode),
        await near_miss_getattr_dispatch(mode), await by_match_dataclass(mode), await near_miss_match_mapping(mode),
    ]
    return "|".join(parts)
