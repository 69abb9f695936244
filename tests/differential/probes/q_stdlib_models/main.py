"""operator.methodcaller, functools.partialmethod, a defaultdict's factory and functools.singledispatch."""
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
async def _text(item: str, label: str) -> str:
    return "text:" + label


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


@workflow
async def flow(mode: str) -> str:
    parts = [await by_methodcaller(mode), await near_miss_methodcaller(mode)]
    parts += [await by_partialmethod(mode), await near_miss_partialmethod(mode)]
    parts += [await by_defaultdict_factory(mode), await near_miss_defaultdict_factory(mode)]
    parts += [await by_singledispatch(mode), await near_miss_singledispatch(mode)]
    return "|".join(parts)
