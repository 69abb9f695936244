"""The standard library handed steps or helpers that call steps: nested partials and a partial of a bound
method, cached_property, attrgetter (plain and dotted), itemgetter of several keys, methodcaller with keywords,
reduce, singledispatch over the program's own classes, asynccontextmanager, AsyncExitStack, MethodType;
itertools.chain, accumulate and zip_longest (unknown: README, outside code's return values); asyncio's
wait_for, as_completed, wait, TaskGroup and timeout in a step's body, and TaskGroup and wait in the workflow
with an argument MAF cannot fingerprint (STP020)."""
import asyncio
import contextlib
import functools
import itertools
import operator
import types
from dataclasses import dataclass

from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


async def plain(label: str) -> str:
    return "plain:" + label


@dataclass
class Job:
    label: str


@step
async def score(job: Job) -> str:
    return "score:" + job.label


async def prefixed(prefix: str, label: str) -> str:
    return await fetch(prefix + label)


async def enrich(label: str) -> str:
    return await fetch(label + "+")


class Gateway:
    def __init__(self, runner) -> None:  # noqa: ANN001
        self.runner = runner

    async def send(self, label: str, suffix: str = "") -> str:
        return await self.runner(label + suffix)

    @functools.cached_property
    def handler(self):  # noqa: ANN201
        return self.runner


@dataclass
class Refund:
    order: str


@dataclass
class Ping:
    source: str


@dataclass
class Charge:
    order: str


@functools.singledispatch
async def settle(event: object, label: str) -> str:
    return "ignored:" + label


@settle.register
async def _(event: Refund, label: str) -> str:
    return await fetch(label)


@settle.register(Ping)
async def _(event, label: str) -> str:  # noqa: ANN001, F811
    return await plain(label)


@settle.register(Charge)
async def _(event, label: str) -> str:  # noqa: ANN001, F811
    return await fetch(label)


@contextlib.asynccontextmanager
async def lease(runner, label: str):  # noqa: ANN001, ANN201
    yield await runner(label)


@step
async def by_nested_partial(label: str) -> str:
    inner = functools.partial(prefixed, "p:")
    outer = functools.partial(inner, label)
    return await outer()  # expect: STP002


@step
async def by_partial_of_method(label: str) -> str:
    send = functools.partial(Gateway(fetch).send, label)
    return await send()  # expect: STP002


@step
async def near_miss_partial_of_method(label: str) -> str:
    send = functools.partial(Gateway(plain).send, label)
    return await send()


@step
async def by_cached_property(label: str) -> str:
    return await Gateway(fetch).handler(label)  # expect: STP001


@step
async def near_miss_cached_property(label: str) -> str:
    return await Gateway(plain).handler(label)


@step
async def by_attrgetter(label: str) -> str:
    return await operator.attrgetter("runner")(Gateway(fetch))(label)  # expect: STP001


@step
async def near_miss_attrgetter(label: str) -> str:
    return await operator.attrgetter("runner")(Gateway(plain))(label)


@step
async def by_dotted_attrgetter(label: str) -> str:
    holder = types.SimpleNamespace(gateway=Gateway(fetch))
    return await operator.attrgetter("gateway.runner")(holder)(label)  # expect: STP001


@step
async def by_itemgetter_of_keys(label: str) -> str:
    first, second = operator.itemgetter("a", "b")({"a": plain, "b": fetch})
    return await second(label)  # expect: STP001


@step
async def near_miss_itemgetter_of_keys(label: str) -> str:
    first, second = operator.itemgetter("a", "b")({"a": plain, "b": fetch})
    return await first(label)


@step
async def by_methodcaller_keywords(label: str) -> str:
    return await operator.methodcaller("send", label, suffix="!")(Gateway(fetch))  # expect: STP002


@step
async def by_reduce(label: str) -> str:
    last = functools.reduce(lambda acc, runner: runner, [plain, fetch])
    return await last(label)  # expect: STP001


@step
async def near_miss_reduce(label: str) -> str:
    first = functools.reduce(lambda acc, runner: acc, [plain, fetch])
    return await first(label)


@step
async def by_singledispatch_annotation(label: str) -> str:
    return await settle(Refund(label), label)  # expect: STP002


@step
async def by_singledispatch_type(label: str) -> str:
    return await settle(Charge(label), label)  # expect: STP002


@step
async def near_miss_singledispatch(label: str) -> str:
    return await settle(Ping(label), label) + await settle("text", label)


@step
async def by_async_context_manager(label: str) -> str:
    async with lease(fetch, label) as got:  # expect: STP002
        return got


@step
async def near_miss_async_context_manager(label: str) -> str:
    async with lease(plain, label) as got:
        return got


@step
async def by_exit_stack(label: str) -> str:
    async with contextlib.AsyncExitStack() as stack:
        got = await stack.enter_async_context(lease(fetch, label))  # expect: STP002
        stack.push_async_callback(plain, label)
    return got


@step
async def by_exit_stack_callback(label: str) -> str:
    async with contextlib.AsyncExitStack() as stack:  # expect: STP001
        stack.push_async_callback(fetch, label)
        got = await stack.enter_async_context(lease(plain, label))
    return got


@step
async def by_method_type(label: str) -> str:
    gateway = Gateway(plain)
    gateway.relay = types.MethodType(Gateway.send, Gateway(fetch))
    return await gateway.relay(label)  # expect: STP002


@step
async def by_chain(label: str) -> str:
    out = []
    for runner in itertools.chain([plain], [fetch]):
        out.append(await runner(label))  # expect: STP001
    return "|".join(out)


@step
async def by_accumulate(label: str) -> str:
    runners = list(itertools.accumulate([plain, fetch], lambda acc, runner: runner))
    return await runners[-1](label)  # expect: STP001


@step
async def by_zip_longest(label: str) -> str:
    out = []
    for _, runner in itertools.zip_longest(["a", "b"], [plain], fillvalue=fetch):
        out.append(await runner(label))  # expect: STP001
    return "|".join(out)


@step
async def by_wait_for(label: str) -> str:
    return await asyncio.wait_for(enrich(label), timeout=5)  # expect: STP002


@step
async def by_as_completed(label: str) -> str:
    out = []
    for done in asyncio.as_completed([plain(label), enrich(label)]):  # expect: STP002
        out.append(await done)
    return "|".join(sorted(out))


@step
async def by_wait(label: str) -> str:
    task = asyncio.ensure_future(enrich(label))  # expect: STP002
    done, _ = await asyncio.wait({task})
    return done.pop().result()


@step
async def by_task_group(label: str) -> str:
    async with asyncio.TaskGroup() as group:
        loud = group.create_task(enrich(label))  # expect: STP002
        quiet = group.create_task(plain(label))
    return loud.result() + quiet.result()


@step
async def near_miss_task_group(label: str) -> str:
    async with asyncio.TaskGroup() as group:
        quiet = group.create_task(plain(label))
    return quiet.result()


@step
async def by_timeout(label: str) -> str:
    async with asyncio.timeout(5):
        return await enrich(label)  # expect: STP002


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_nested_partial(mode), await by_partial_of_method(mode), await near_miss_partial_of_method(mode),
        await by_cached_property(mode), await near_miss_cached_property(mode), await by_attrgetter(mode),
        await near_miss_attrgetter(mode), await by_dotted_attrgetter(mode), await by_itemgetter_of_keys(mode),
        await near_miss_itemgetter_of_keys(mode), await by_methodcaller_keywords(mode), await by_reduce(mode),
        await near_miss_reduce(mode), await by_singledispatch_annotation(mode), await by_singledispatch_type(mode),
        await near_miss_singledispatch(mode), await by_async_context_manager(mode),
        await near_miss_async_context_manager(mode), await by_exit_stack(mode), await by_exit_stack_callback(mode),
        await by_method_type(mode), await by_chain(mode), await by_accumulate(mode), await by_zip_longest(mode),
        await by_wait_for(mode), await by_as_completed(mode), await by_wait(mode), await by_task_group(mode),
        await near_miss_task_group(mode), await by_timeout(mode),
    ]
    async with asyncio.TaskGroup() as group:
        scored = group.create_task(score(Job(mode)))  # expect: STP020
    waited, _ = await asyncio.wait([asyncio.ensure_future(score(Job(mode + "!")))])  # expect: STP020
    parts += [scored.result(), waited.pop().result()]
    return "|".join(parts)
