"""operator.methodcaller, functools.partialmethod, a defaultdict's factory and functools.singledispatch
(two dispatchers in one module, a class from outside, registration by type(None), singledispatchmethod over
a classmethod)."""
import abc
import collections
import functools
import operator

from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


async def plain(label: str) -> str:
    return "plain:" + label


class Team:
    def __init__(self, label: str) -> None:
        self.label = label

    async def run(self, suffix: str) -> str:
        return await fetch(self.label + suffix)

    async def quiet(self, suffix: str) -> str:
        return self.label + suffix


class Client:
    async def _send(self, kind: str, label: str) -> str:
        return await fetch(kind + label)

    async def _log(self, kind: str, label: str) -> str:
        return kind + label

    send_fast = functools.partialmethod(_send, "fast:")
    log_fast = functools.partialmethod(_log, "fast:")


@functools.singledispatch
async def handle(item: object, label: str) -> str:
    return "default:" + label


@handle.register
async def _(item: int, label: str) -> str:
    return await fetch(label)


@handle.register(str)
async def _(item: str, label: str) -> str:  # noqa: F811 - each registered implementation is its own function
    return "text:" + label


@functools.singledispatch
async def render(item: object, label: str) -> str:
    return "render:" + label


@handle.register(type(None))
async def _(item: None, label: str) -> str:  # noqa: F811
    return await fetch(label)


class Shape(abc.ABC):  # noqa: B024
    pass


class Square(Shape):
    pass


class Router:
    @functools.singledispatchmethod
    @classmethod
    async def route(cls, item: object, label: str) -> str:
        return "route:" + label

    @route.register
    @classmethod
    async def _(cls, item: int, label: str) -> str:
        return await fetch(label)


async def fallback_handler(label: str) -> str:
    return "fallback:" + label


def fallback():  # noqa: ANN201
    return fallback_handler


@step
async def by_methodcaller(label: str) -> str:
    return await operator.methodcaller("run", "!")(Team(label))  # expect: STP002


@step
async def near_miss_methodcaller(label: str) -> str:
    return await operator.methodcaller("quiet", "!")(Team(label))


@step
async def by_partialmethod(label: str) -> str:
    return await Client().send_fast(label)  # expect: STP002


@step
async def near_miss_partialmethod(label: str) -> str:
    return await Client().log_fast(label)


@step
async def by_defaultdict_factory(label: str) -> str:
    handlers = collections.defaultdict(lambda: fetch)
    return await handlers[label](label)  # expect: STP001


@step
async def near_miss_defaultdict_factory(label: str) -> str:
    handlers = collections.defaultdict(lambda: plain)
    return await handlers[label](label)


@step
async def by_singledispatch(label: str) -> str:
    return await handle(1, label)  # expect: STP002


@step
async def near_miss_singledispatch(label: str) -> str:
    return await handle("one", label) + await handle(1.5, label)


@step
async def near_miss_other_dispatcher(label: str) -> str:
    return await render(1, label)


@step
async def by_dispatch_on_none(label: str) -> str:
    return await handle(None, label)  # expect: STP002


@step
async def near_miss_outside_base(label: str) -> str:
    return await handle(Square(), label)


@step
async def by_dispatch_classmethod(label: str) -> str:
    return await Router.route(1, label)  # expect: STP002


@step
async def by_partialmethod_through_the_class(label: str) -> str:
    return await Client.send_fast(Client(), label)  # expect: STP002


@step
async def near_miss_defaultdict_get(label: str) -> str:
    handlers = collections.defaultdict(lambda: fetch)
    return await handlers.get(label, plain)(label)


@step
async def near_miss_defaultdict_update(label: str) -> str:
    handlers = collections.defaultdict(fallback)
    table = {label: plain}
    table.update(handlers)
    return await table[label](label)


@workflow
async def flow(mode: str) -> str:
    parts = [await by_methodcaller(mode), await near_miss_methodcaller(mode)]
    parts += [await by_partialmethod(mode), await near_miss_partialmethod(mode)]
    parts += [await by_defaultdict_factory(mode), await near_miss_defaultdict_factory(mode)]
    parts += [await by_singledispatch(mode), await near_miss_singledispatch(mode)]
    parts += [await near_miss_other_dispatcher(mode), await by_dispatch_on_none(mode), await near_miss_outside_base(mode)]
    parts += [await by_dispatch_classmethod(mode), await by_partialmethod_through_the_class(mode)]
    parts += [await near_miss_defaultdict_get(mode), await near_miss_defaultdict_update(mode)]
    return "|".join(parts)
