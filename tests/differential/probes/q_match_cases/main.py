"""Structural pattern matching that binds a callable which is then awaited: class patterns (a dataclass's
__match_args__, a hand-written one in another order, keywords, a builtin class), mapping patterns with
**rest, sequence patterns with *rest, or-patterns, as-patterns, guards, value patterns on an enum, nested
patterns, and an event dispatcher helper that matches and calls a step."""
import enum
from dataclasses import dataclass

from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


async def plain(label: str) -> str:
    return "plain:" + label


@dataclass
class Route:
    name: str
    handler: object


class Command:
    __match_args__ = ("verb", "runner")

    def __init__(self, verb: str, runner) -> None:  # noqa: ANN001
        self.verb = verb
        self.runner = runner


class Pair:
    __match_args__ = ("second", "first")  # positional sub-patterns read second, then first

    def __init__(self, first, second) -> None:  # noqa: ANN001
        self.first = first
        self.second = second


class Mode(enum.Enum):
    FAST = "fast"
    SLOW = "slow"


@dataclass
class Refund:
    order: str


@dataclass
class Ping:
    source: str


async def dispatch(event: object) -> str:
    match event:
        case Refund(order=order):
            return await fetch(order)
        case Ping(source=source):
            return await plain(source)
    return ""


async def run_command(verb: str, label: str) -> str:
    match verb:
        case "refund":
            return await fetch(label)
        case "ping":
            return await plain(label)
    return ""


@step
async def by_dataclass_positional(label: str) -> str:
    match Route("r", fetch):
        case Route(_, handler):
            return await handler(label)  # expect: STP001
    return label


@step
async def by_keyword_class_pattern(label: str) -> str:
    match Route("r", fetch):
        case Route(name="r", handler=handler):
            return await handler(label)  # expect: STP001
    return label


@step
async def by_custom_match_args(label: str) -> str:
    match Command("go", fetch):
        case Command("go", runner):
            return await runner(label)  # expect: STP001
    return label


@step
async def by_match_args_order(label: str) -> str:
    match Pair(plain, fetch):
        case Pair(second, first):
            return await second(label)  # expect: STP001
    return label


@step
async def near_miss_match_args_order(label: str) -> str:
    match Pair(plain, fetch):
        case Pair(second, first):
            return await first(label)
    return label


@step
async def by_mapping_rest(label: str) -> str:
    match {"kind": "refund", "run": fetch, "log": plain}:
        case {"kind": "refund", **rest}:
            return await rest["run"](label)  # expect: STP001
    return label


@step
async def near_miss_mapping_rest(label: str) -> str:
    match {"kind": "refund", "run": fetch, "log": plain}:
        case {"kind": "refund", **rest}:
            return await rest["log"](label)
    return label


@step
async def near_miss_mapping_rest_drops_matched(label: str) -> str:
    match {"run": fetch, "log": plain}:
        case {"run": _, **rest}:
            return await rest.get("run", plain)(label)
    return label


@step
async def by_sequence_rest(label: str) -> str:
    match [plain, fetch, plain]:
        case [first, *middle, last]:
            return await middle[0](label)  # expect: STP001
    return label


@step
async def near_miss_sequence_rest(label: str) -> str:
    match [plain, fetch, plain]:
        case [first, *middle, last]:
            return await last(label)
    return label


@step
async def by_or_pattern_first(label: str) -> str:
    match (fetch,):
        case (runner,) | (runner, _):
            return await runner(label)  # expect: STP001
    return label


@step
async def by_or_pattern_second(label: str) -> str:
    match (fetch, "extra"):
        case (runner,) | (runner, _):
            return await runner(label)  # expect: STP001
    return label


@step
async def by_or_pattern_mixed(label: str) -> str:
    match {"run": fetch}:
        case [runner] | {"run": runner}:
            return await runner(label)  # expect: STP001
    return label


@step
async def by_as_pattern(label: str) -> str:
    match Route("r", fetch):
        case Route(name="r") as route:
            return await route.handler(label)  # expect: STP001
    return label


@step
async def by_guard(label: str) -> str:
    match Route("r", fetch):
        case Route(handler=handler) if handler is plain:
            return await handler(label)
        case Route(handler=handler):
            return await handler(label)  # expect: STP001
    return label


@step
async def by_value_pattern(label: str) -> str:
    runner = plain
    match Mode.FAST:
        case Mode.SLOW:
            runner = plain
        case Mode.FAST:
            runner = fetch
    return await runner(label)  # expect: STP001


@step
async def near_miss_value_pattern(label: str) -> str:
    runner = plain
    match Mode.SLOW:
        case Mode.FAST:
            runner = fetch
        case _:
            runner = plain
    return await runner(label)


@step
async def near_miss_literal_selects(label: str) -> str:
    match ("slow", fetch):
        case ("fast", candidate):
            chosen = candidate
        case _:
            chosen = plain
    return await chosen(label)


@step
async def by_nested_pattern(label: str) -> str:
    match {"routes": [Route("a", plain), Route("b", fetch)]}:
        case {"routes": [Route(handler=_), Route(handler=second)]}:
            return await second(label)  # expect: STP001
    return label


@step
async def near_miss_nested_pattern(label: str) -> str:
    match {"routes": [Route("a", plain), Route("b", fetch)]}:
        case {"routes": [Route(handler=first), _]}:
            return await first(label)
    return label


@step
async def by_builtin_class_pattern(label: str) -> str:
    match [fetch]:
        case list([runner]):
            return await runner(label)  # expect: STP001
    return label


@step
async def by_dispatcher(label: str) -> str:
    return await dispatch(Refund(label))  # expect: STP002


@step
async def near_miss_dispatcher(label: str) -> str:
    return await dispatch(Ping(label))


@step
async def by_literal_dispatcher(label: str) -> str:
    return await run_command("refund", label)  # expect: STP002


@step
async def near_miss_literal_dispatcher(label: str) -> str:
    return await run_command("ping", label)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_dataclass_positional(mode), await by_keyword_class_pattern(mode), await by_custom_match_args(mode),
        await by_match_args_order(mode), await near_miss_match_args_order(mode), await by_mapping_rest(mode),
        await near_miss_mapping_rest(mode), await near_miss_mapping_rest_drops_matched(mode),
        await by_sequence_rest(mode), await near_miss_sequence_rest(mode), await by_or_pattern_first(mode),
        await by_or_pattern_second(mode), await by_or_pattern_mixed(mode), await by_as_pattern(mode),
        await by_guard(mode), await by_value_pattern(mode), await near_miss_value_pattern(mode),
        await near_miss_literal_selects(mode), await by_nested_pattern(mode), await near_miss_nested_pattern(mode),
        await by_builtin_class_pattern(mode), await by_dispatcher(mode), await near_miss_dispatcher(mode),
        await by_literal_dispatcher(mode), await near_miss_literal_dispatcher(mode),
    ]
    return "|".join(parts)
