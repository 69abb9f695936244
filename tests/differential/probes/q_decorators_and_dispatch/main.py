"""Idioms, third batch: decorators with arguments, loop-made closures, class registries by __init_subclass__,
abstract bases, properties, __call__ objects, async generators, tuple-returning factories, nested config dicts,
enum-keyed dicts (plain, aliased and auto() members). A near miss is left out (README: a function defined in a
loop keeps every iteration's defaults)."""
import enum
import functools
from abc import ABC, abstractmethod

from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


async def plain(label: str) -> str:
    return "plain:" + label


def retry(times: int):  # noqa: ANN201
    def decorate(function):  # noqa: ANN001, ANN202
        @functools.wraps(function)
        async def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            for _ in range(times):
                return await function(*args, **kwargs)
        return wrapper
    return decorate


retried_fetch = retry(2)(fetch)


@retry(3)
async def retried_helper(label: str) -> str:
    return await fetch(label)


CALLERS = []
for target in (plain, fetch):
    async def caller(label: str, _target=target) -> str:  # noqa: ANN001
        return await _target(label)
    CALLERS.append(caller)


class Handler(ABC):
    registry: dict = {}

    def __init_subclass__(cls, kind: str = "", **kwargs) -> None:  # noqa: ANN003
        super().__init_subclass__(**kwargs)
        Handler.registry[kind] = cls

    @abstractmethod
    async def handle(self, label: str) -> str: ...


class FetchHandler(Handler, kind="fetch"):
    async def handle(self, label: str) -> str:
        return await fetch(label)


class PlainHandler(Handler, kind="plain"):
    async def handle(self, label: str) -> str:
        return await plain(label)


class Service:
    def __init__(self, runner) -> None:  # noqa: ANN001
        self._runner = runner

    @property
    def runner(self):  # noqa: ANN201
        return self._runner

    async def __call__(self, label: str) -> str:
        return await self._runner(label)


async def produce(label: str):  # noqa: ANN201
    yield await fetch(label)


def make_pair():  # noqa: ANN201
    return plain, fetch


CONFIG = {"stages": {"first": {"run": plain}, "second": {"run": fetch}}}


class Mode(enum.Enum):
    FAST = "fast"
    SLOW = "slow"
    QUICK = "fast"  # an alias: Mode.QUICK is Mode.FAST


class Tier(enum.Enum):
    GOLD = enum.auto()
    BASIC = enum.auto()


class Label(str, enum.Enum):  # a str mix-in: Label.GOLD == "gold", one key with the string
    GOLD = "gold"
    BASIC = "basic"


class Level(enum.Enum):
    _LOW = 1  # a member: only _sunder_, __dunder__ and private names are not
    LOW = 1  # an alias of _LOW
    HIGH = 2


class Rank(enum.Enum):
    TOP = enum.auto()
    BOTTOM = enum.auto()
    BEST = TOP  # an alias of TOP: the body reads TOP's value


RUNNERS = {Mode.FAST: fetch, Mode.SLOW: plain}
BY_LEVEL = {Level._LOW: fetch, Level.HIGH: plain}
BY_RANK = {Rank.TOP: fetch, Rank.BOTTOM: plain}
BY_TIER: dict = {}
BY_TIER[Tier.GOLD] = plain
BY_TIER[Tier.BASIC] = fetch
BY_LABEL = {Label.GOLD: plain, "basic": fetch}


@step
async def by_decorator_with_arguments(label: str) -> str:
    return await retried_fetch(label)  # expect: STP002


@step
async def by_decorated_with_arguments(label: str) -> str:
    return await retried_helper(label)  # expect: STP002


@step
async def by_loop_default_capture(label: str) -> str:
    return await CALLERS[1](label)  # expect: STP002


@step
async def by_subclass_registry(label: str) -> str:
    return await Handler.registry["fetch"]().handle(label)  # expect: STP002


@step
async def near_miss_subclass_registry(label: str) -> str:
    return await Handler.registry["plain"]().handle(label)


@step
async def by_property(label: str) -> str:
    return await Service(fetch).runner(label)  # expect: STP001


@step
async def by_call_object(label: str) -> str:
    return await Service(fetch)(label)  # expect: STP002


@step
async def near_miss_call_object(label: str) -> str:
    return await Service(plain)(label)


@step
async def by_async_generator(label: str) -> str:
    async for item in produce(label):  # expect: STP002
        return item
    return label


@step
async def by_tuple_factory(label: str) -> str:
    _, second = make_pair()
    return await second(label)  # expect: STP001


@step
async def near_miss_tuple_factory(label: str) -> str:
    first, _ = make_pair()
    return await first(label)


@step
async def by_nested_config(label: str) -> str:
    return await CONFIG["stages"]["second"]["run"](label)  # expect: STP001


@step
async def near_miss_nested_config(label: str) -> str:
    return await CONFIG["stages"]["first"]["run"](label)


@step
async def by_enum_key(label: str) -> str:
    return await RUNNERS[Mode("fast")](label)  # expect: STP001


@step
async def near_miss_enum_key(label: str) -> str:
    return await RUNNERS[Mode.SLOW](label)


@step
async def by_enum_alias(label: str) -> str:
    return await RUNNERS[Mode.QUICK](label)  # expect: STP001


@step
async def near_miss_auto_enum_key(label: str) -> str:
    return await BY_TIER[Tier.GOLD](label)


@step
async def by_auto_enum_key(label: str) -> str:
    return await BY_TIER[Tier.BASIC](label)  # expect: STP001


@step
async def by_str_enum_key(label: str) -> str:
    return await BY_LABEL[Label.BASIC](label)  # expect: STP001


@step
async def by_underscore_member_alias(label: str) -> str:
    return await BY_LEVEL[Level.LOW](label)  # expect: STP001


@step
async def by_name_alias(label: str) -> str:
    return await BY_RANK[Rank.BEST](label)  # expect: STP001


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_decorator_with_arguments(mode), await by_decorated_with_arguments(mode),
        await by_loop_default_capture(mode),
        await by_subclass_registry(mode), await near_miss_subclass_registry(mode), await by_property(mode),
        await by_call_object(mode), await near_miss_call_object(mode), await by_async_generator(mode),
        await by_tuple_factory(mode), await near_miss_tuple_factory(mode), await by_nested_config(mode),
        await near_miss_nested_config(mode), await by_enum_key(mode), await near_miss_enum_key(mode),
        await by_enum_alias(mode), await near_miss_auto_enum_key(mode), await by_auto_enum_key(mode),
        await by_str_enum_key(mode), await by_underscore_member_alias(mode), await by_name_alias(mode),
    ]
    return "|".join(parts)
