"""Control flow and handler data in application code: retry loops with continue and a fallback after the loop,
try/except fallbacks (EAFP lookups), try/finally, contextlib.suppress of a missing key, while/else and for/else with
and without break, chained comparisons and membership tests on module constants, conditional expressions,
short-circuit and/or, NamedTuple defaults, _make and _replace, namedtuple(defaults=), TypedDict made by call,
enum members holding (label, runner) tuples unpacked by __init__, dict.get with a step default, sorted(...)[0]
with an itemgetter key, enumerate with an index test, a loop that breaks at the step."""
import collections
import contextlib
import enum
import operator
from typing import Callable, NamedTuple, TypedDict

from agent_framework import step, workflow


@step
async def summarize(text: str) -> str:
    return "summary:" + text


@step
async def translate(text: str) -> str:
    return "translated:" + text


async def tokenize(text: str) -> str:
    return "tok:" + text


async def flaky(text: str, attempt: int) -> str:
    if attempt < 2:
        raise RuntimeError("try again")
    return "flaky:" + text


async def missing(text: str) -> str:
    raise LookupError(text)


LIMIT = 5
BATCH = 2
MODES = ("draft", "final")
DRY_RUN = False
VERBOSE = False
TABLE = {"tokenize": tokenize, "translate": translate}


class Stage(NamedTuple):
    name: str
    run: Callable = summarize


Hook = collections.namedtuple("Hook", "name run", defaults=[translate])


class Settings(TypedDict):
    name: str
    run: Callable


class Action(enum.Enum):
    SUMMARIZE = ("summarize", summarize)
    TOKENIZE = ("tokenize", tokenize)

    def __init__(self, label: str, runner) -> None:  # noqa: ANN001
        self.label = label
        self.runner = runner


class Redirect(Exception):
    def __init__(self, handler) -> None:  # noqa: ANN001
        super().__init__("redirect")
        self.handler = handler


async def guarded(text: str) -> str:
    if text:
        raise Redirect(translate)
    return text


async def guarded_quietly(text: str) -> str:
    if text:
        raise Redirect(tokenize)
    return text


def chooser(loud: bool):  # noqa: ANN201
    def pick():  # noqa: ANN202
        return summarize if loud else tokenize
    return pick


KEY = "translate"


PRIORITIES = [(2, tokenize), (1, summarize), (3, tokenize)]




@step
async def by_retry_exhausted(text: str) -> str:
    for attempt in range(2):
        try:
            return await flaky(text, attempt)
        except RuntimeError:
            continue
    return await summarize(text)  # expect: STP001


@step
async def by_except_fallback(text: str) -> str:
    try:
        return await missing(text)
    except LookupError:
        return await translate(text)  # expect: STP001


@step
async def by_eafp_lookup(text: str) -> str:
    try:
        handler = TABLE["summarize"]
    except KeyError:
        handler = summarize
    return await handler(text)  # expect: STP001




@step
async def by_finally(text: str) -> str:
    try:
        return await tokenize(text)
    finally:
        await translate(text)  # expect: STP001




@step
async def by_suppress(text: str) -> str:
    with contextlib.suppress(KeyError):
        handler = TABLE["translate"]
        return await handler(text)  # expect: STP001
    return text


@step
async def by_while_else(text: str) -> str:
    attempts = 0
    while attempts < BATCH:
        attempts += 1
    else:
        return await summarize(text)  # expect: STP001
    return text






@step
async def by_for_else(text: str) -> str:
    for mode in MODES:
        if mode == "archived":
            break
    else:
        return await translate(text)  # expect: STP001
    return await tokenize(text)


@step
async def by_chained_comparison(text: str) -> str:
    if 0 < BATCH <= 3 < LIMIT:
        return await summarize(text)  # expect: STP001
    return text


@step
async def near_miss_chained_comparison(text: str) -> str:
    if 0 < LIMIT <= 3:
        return await summarize(text)
    return text


@step
async def by_membership(text: str) -> str:
    runner = translate if "final" in MODES else tokenize
    return await runner(text)  # expect: STP001


@step
async def near_miss_membership(text: str) -> str:
    runner = translate if "archived" in MODES else tokenize
    return await runner(text)


@step
async def by_short_circuit_or(text: str) -> str:
    return DRY_RUN or await summarize(text)  # expect: STP001


@step
async def near_miss_short_circuit_and(text: str) -> str:
    return VERBOSE and await summarize(text) or text


@step
async def by_named_tuple_default(text: str) -> str:
    return await Stage("default").run(text)  # expect: STP001


@step
async def near_miss_named_tuple_default(text: str) -> str:
    return await Stage("given", tokenize).run(text)


@step
async def by_named_tuple_make(text: str) -> str:
    return await Stage._make(["made", translate]).run(text)  # expect: STP001


@step
async def near_miss_named_tuple_replace(text: str) -> str:
    return await Stage("replaced")._replace(run=tokenize).run(text)


@step
async def by_namedtuple_defaults(text: str) -> str:
    return await Hook("hook").run(text)  # unknown: STP001


@step
async def near_miss_namedtuple_defaults(text: str) -> str:
    return await Hook("hook", tokenize).run(text)


@step
async def by_typed_dict_call(text: str) -> str:
    settings = Settings(name="s", run=summarize)
    return await settings["run"](text)  # expect: STP001


@step
async def near_miss_typed_dict_call(text: str) -> str:
    settings = Settings(name="s", run=tokenize)
    return await settings["run"](text)


@step
async def by_enum_tuple_member(text: str) -> str:
    return await Action["SUMMARIZE"].runner(text)  # expect: STP001


@step
async def near_miss_enum_tuple_member(text: str) -> str:
    return await Action.TOKENIZE.runner(text) + Action.SUMMARIZE.label


@step
async def by_enum_value_index(text: str) -> str:
    return await Action.SUMMARIZE.value[1](text)  # expect: STP001


@step
async def by_get_default(text: str) -> str:
    return await TABLE.get("summarize", summarize)(text)  # expect: STP001




@step
async def by_sorted_first(text: str) -> str:
    return await sorted(PRIORITIES, key=operator.itemgetter(0))[0][1](text)  # expect: STP001




@step
async def by_enumerate_index(text: str) -> str:
    out = []
    for index, runner in enumerate([tokenize, translate]):
        if index == 1:
            out.append(await runner(text))  # expect: STP001
    return "|".join(out)




@step
async def by_loop_break(text: str) -> str:
    for runner in (tokenize, translate, summarize):
        if runner is translate:
            return await runner(text)  # expect: STP001
    return text


@step
async def near_miss_loop_break(text: str) -> str:
    for runner in (tokenize, translate, summarize):
        if runner is tokenize:
            return await runner(text)
    return text


@step
async def by_exception_attribute(text: str) -> str:
    try:
        return await guarded(text)
    except Redirect as redirect:
        return await redirect.handler(text)  # expect: STP001


@step
async def near_miss_exception_attribute(text: str) -> str:
    try:
        return await guarded_quietly(text)
    except Redirect as redirect:
        return await redirect.handler(text)


@step
async def by_closure_factory(text: str) -> str:
    return await chooser(True)()(text)  # expect: STP001


@step
async def near_miss_closure_factory(text: str) -> str:
    return await chooser(False)()(text)


@step
async def by_swap(text: str) -> str:
    first, second = tokenize, summarize
    first, second = second, first
    return await first(text)  # expect: STP001


@step
async def near_miss_swap(text: str) -> str:
    first, second = tokenize, summarize
    first, second = second, first
    return await second(text)


@step
async def by_insert_front(text: str) -> str:
    runners = [tokenize]
    runners.insert(0, translate)
    return await runners[0](text)  # expect: STP001




@step
async def by_constant_key(text: str) -> str:
    return await TABLE[KEY](text)  # expect: STP001




@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_retry_exhausted(mode), await by_except_fallback(mode),
        await by_eafp_lookup(mode), await by_finally(mode),
        await by_suppress(mode), await by_while_else(mode),
        await by_for_else(mode),
        await by_chained_comparison(mode), await near_miss_chained_comparison(mode), await by_membership(mode),
        await near_miss_membership(mode), str(await by_short_circuit_or(mode)),
        str(await near_miss_short_circuit_and(mode)), await by_named_tuple_default(mode),
        await near_miss_named_tuple_default(mode), await by_named_tuple_make(mode),
        await near_miss_named_tuple_replace(mode), await by_namedtuple_defaults(mode),
        await near_miss_namedtuple_defaults(mode), await by_typed_dict_call(mode),
        await near_miss_typed_dict_call(mode), await by_enum_tuple_member(mode),
        await near_miss_enum_tuple_member(mode), await by_enum_value_index(mode), await by_get_default(mode),
        await by_sorted_first(mode), await by_enumerate_index(mode), await by_loop_break(mode),
        await near_miss_loop_break(mode), await by_exception_attribute(mode),
        await near_miss_exception_attribute(mode), await by_closure_factory(mode),
        await near_miss_closure_factory(mode), await by_swap(mode), await near_miss_swap(mode),
        await by_insert_front(mode), await by_constant_key(mode),
        ]
    return "|".join(parts)
