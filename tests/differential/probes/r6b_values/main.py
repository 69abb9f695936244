"""Values that decide which function runs: enum members whose value is a step (a plain function in an Enum body
is a method, not a member), Enum lookups by value and by name, callable instances, *args/**kwargs forwarding,
operator.methodcaller/attrgetter, getattr with a literal, dicts built by a comprehension and ** merges with
overriding keys, match statements binding a callable, and singledispatch whose registration calls a step.
An enum.member(step) looked up by name (unknown until the ninth round). Left out as known imprecisions: a key repeated in dict(zip(...))
whose last value is plain, a ** merge whose later dict overrides a step with a plain function."""
import enum
import functools
import operator
from dataclasses import dataclass

from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


@step
async def store(label: str) -> str:
    return "store:" + label


async def plain(label: str) -> str:
    return "plain:" + label


class Action(enum.Enum):
    FETCH = fetch  # a StepWrapper is no descriptor: a member
    PLAIN = plain  # a function is a descriptor: a method of the enum, not a member
    STORE = enum.member(store)


class Route(enum.Enum):
    QUIET = "quiet"
    LOUD = "loud"

    async def go(self, label: str) -> str:
        return await (fetch if self is Route.LOUD else plain)(label)


class Invoker:
    def __init__(self, function) -> None:  # noqa: ANN001
        self.function = function

    async def __call__(self, label: str) -> str:
        return await self.function(label)


class Tools:
    def __init__(self) -> None:
        self.primary = fetch
        self.secondary = plain

    async def fetch_one(self, label: str) -> str:
        return await fetch(label)

    async def plain_one(self, label: str) -> str:
        return await plain(label)


async def forward(*args, **kwargs) -> str:  # noqa: ANN002, ANN003
    function, *rest = args
    return await function(*rest, **kwargs)


async def forward_kw(**kwargs) -> str:  # noqa: ANN003
    return await kwargs["call"](kwargs["label"])


BY_NAME = {function.__name__: function for function in (plain, fetch)}
BASE = {"read": fetch, "write": store}
OVERRIDE = {"read": plain}
MERGED = {**BASE, **OVERRIDE}
REVERSED = {**OVERRIDE, **BASE}


@dataclass
class Job:
    runner: object
    label: str


@dataclass
class Batch:
    label: str


@functools.singledispatch
async def handle(item: object, label: str) -> str:
    return await plain(label)


@handle.register
async def _(item: Batch, label: str) -> str:
    return await fetch(label)


@handle.register
async def _(item: int, label: str) -> str:
    return await plain(label)


@step
async def by_enum_member_value(label: str) -> str:
    return await Action.FETCH.value(label)  # expect: STP001


@step
async def near_miss_enum_function_is_method(label: str) -> str:
    return await Action.PLAIN(label)


@step
async def by_enum_lookup_by_name(label: str) -> str:
    return await Action["STORE"].value(label)  # expect: STP001


@step
async def by_enum_iteration(label: str) -> str:
    members = [member.value for member in Action]
    return await members[-1](label)  # expect: STP001


@step
async def by_enum_call_lookup(label: str) -> str:
    return await Route("loud").go(label)  # expect: STP002


@step
async def near_miss_enum_call_lookup(label: str) -> str:
    return await Route("quiet").go(label)


@step
async def by_callable_instance(label: str) -> str:
    return await Invoker(fetch)(label)  # expect: STP002


@step
async def near_miss_callable_instance(label: str) -> str:
    return await Invoker(plain)(label)


@step
async def by_star_args(label: str) -> str:
    return await forward(store, label)  # expect: STP002


@step
async def near_miss_star_args(label: str) -> str:
    return await forward(plain, label)


@step
async def by_double_star(label: str) -> str:
    options = {"call": fetch, "label": label}
    return await forward_kw(**options)  # expect: STP002


@step
async def near_miss_double_star(label: str) -> str:
    return await forward_kw(**{"call": fetch, "label": label, "call": plain})  # noqa: F601, PIE804


@step
async def by_methodcaller(label: str) -> str:
    return await operator.methodcaller("fetch_one", label)(Tools())  # expect: STP002


@step
async def near_miss_methodcaller(label: str) -> str:
    return await operator.methodcaller("plain_one", label)(Tools())


@step
async def by_attrgetter(label: str) -> str:
    return await operator.attrgetter("primary")(Tools())(label)  # expect: STP001


@step
async def near_miss_attrgetter(label: str) -> str:
    return await operator.attrgetter("secondary")(Tools())(label)


@step
async def by_getattr_literal(label: str) -> str:
    return await getattr(Tools(), "fetch_one")(label)  # expect: STP002


@step
async def near_miss_getattr_default(label: str) -> str:
    return await getattr(Tools(), "missing", plain)(label)


@step
async def by_name_comprehension(label: str) -> str:
    return await BY_NAME["fetch"](label)  # expect: STP001


@step
async def by_merge_kept(label: str) -> str:
    return await MERGED["write"](label)  # expect: STP001


@step
async def by_merge_reversed(label: str) -> str:
    return await REVERSED["read"](label)  # expect: STP001


@step
async def by_match_class_pattern(label: str) -> str:
    match Job(fetch, label):
        case Job(runner=function, label=text):
            return await function(text)  # expect: STP001
    return label


@step
async def near_miss_match_mapping(label: str) -> str:
    match {"kind": "quiet", "run": plain}:
        case {"kind": "loud", "run": function}:
            return await function(label)
        case {"run": function}:
            return await function(label)
    return label


@step
async def by_match_mapping(label: str) -> str:
    match {"kind": "loud", "run": store}:
        case {"kind": "quiet"}:
            return label
        case {"kind": "loud", "run": function}:
            return await function(label)  # expect: STP001
    return label


@step
async def by_singledispatch(label: str) -> str:
    return await handle(Batch(label), label)  # expect: STP002


@step
async def near_miss_singledispatch(label: str) -> str:
    return await handle(3, label)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_enum_member_value(mode), await near_miss_enum_function_is_method(mode),
        await by_enum_lookup_by_name(mode), await by_enum_iteration(mode), await by_enum_call_lookup(mode),
        await near_miss_enum_call_lookup(mode), await by_callable_instance(mode),
        await near_miss_callable_instance(mode), await by_star_args(mode), await near_miss_star_args(mode),
        await by_double_star(mode), await near_miss_double_star(mode), await by_methodcaller(mode),
        await near_miss_methodcaller(mode), await by_attrgetter(mode), await near_miss_attrgetter(mode),
        await by_getattr_literal(mode), await near_miss_getattr_default(mode),
        await by_name_comprehension(mode), await by_merge_kept(mode), await by_merge_reversed(mode),
        await by_match_class_pattern(mode), await near_miss_match_mapping(mode), await by_match_mapping(mode),
        await by_singledispatch(mode), await near_miss_singledispatch(mode),
    ]
    return "|".join(parts)
