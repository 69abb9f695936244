"""Async plumbing around steps: async generator pipelines (stage over stage, consumed by async for, an async
comprehension, asend, and aclosing running a finally), an asyncio.Queue drained by a consumer task, sets of tasks
waited FIRST_COMPLETED, gather over a filtered comprehension, a retry helper given a partial, shield inside
wait_for, a semaphore, a TaskGroup fan-out helper, an async generator method read by anext with a default, a
done callback; in the workflow, tasks MAF refuses for a dataclass argument (shield, a queue worker task, gather
over a generator expression, create_task in a step's body) and the ones it accepts (timeout, str arguments)."""
import asyncio
import contextlib
import functools
from dataclasses import dataclass

from agent_framework import step, workflow


@dataclass
class Job:
    label: str


@step
async def summarize(text: str) -> str:
    return "summary:" + text


@step
async def classify(text: str) -> str:
    return "class:" + text


@step
async def score(job: Job) -> str:
    return "score:" + job.label


@step
async def tally(counts: dict) -> str:
    return "tally:" + ",".join(str(key) for key in counts)


@step
async def batch(items: list) -> str:
    return "batch:" + str(len(items))


class Tag(str):
    pass


async def score_all(jobs: list) -> list:
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(score(job)) for job in jobs]  # expect: STP020
    return [task.result() for task in tasks]


async def tokenize(text: str) -> str:
    return "tok:" + text


async def pause(text: str) -> str:
    await asyncio.sleep(0)
    return text


HANDLERS = (tokenize, summarize, pause)
LIMIT = asyncio.Semaphore(2)
FOLLOW_UPS: list = []


async def source(text: str):  # noqa: ANN201
    for part in text.split(","):
        yield await tokenize(part)


async def enrich(stream):  # noqa: ANN001, ANN201
    async for item in stream:
        yield await summarize(item)


async def passthrough(stream):  # noqa: ANN001, ANN201
    async for item in stream:
        yield item


async def paged(text: str):  # noqa: ANN201
    try:
        yield text + ":1"
        yield text + ":2"
    finally:
        await summarize(text + ":closed")


async def paged_quietly(text: str):  # noqa: ANN201
    try:
        yield text + ":1"
        yield text + ":2"
    finally:
        await pause(text + ":closed")


async def drain(queue: asyncio.Queue, out: list) -> None:
    while True:
        handler, argument = await queue.get()
        try:
            out.append(await handler(argument))
        finally:
            queue.task_done()


async def with_retry(factory, attempts: int = 3) -> str:  # noqa: ANN001
    for attempt in range(attempts):
        try:
            return await factory()
        except RuntimeError:
            if attempt == attempts - 1:
                raise
    return ""


async def fan_out(text: str, *handlers) -> list:  # noqa: ANN002
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(handler(text)) for handler in handlers]
    return [task.result() for task in tasks]


class Feed:
    def __init__(self, runner) -> None:  # noqa: ANN001
        self.runner = runner

    async def items(self, text: str):  # noqa: ANN201
        yield await self.runner(text)


def on_done(task: asyncio.Task) -> None:
    FOLLOW_UPS.append(asyncio.ensure_future(summarize(task.result())))


async def score_worker(queue: asyncio.Queue, out: list) -> None:
    while True:
        job = await queue.get()
        try:
            out.append(await score(job))
        finally:
            queue.task_done()


def start(runner, text: str):  # noqa: ANN001, ANN201 - a sync function handing back a coroutine
    return runner(text)


async def relay(text: str) -> str:
    return await classify(text)


ROUTES = {"tokenize": tokenize, "classify": classify}


@step
async def by_loop_create_task(text: str) -> str:
    return await asyncio.get_running_loop().create_task(relay(text))  # expect: STP002


@step
async def by_task_dict(text: str) -> str:
    tasks = {name: asyncio.create_task(runner(text)) for name, runner in ROUTES.items()}  # expect: STP001
    await asyncio.wait(tasks.values())
    return "|".join(task.result() for task in tasks.values())


@step
async def by_coroutine_factory(text: str) -> str:
    pending = start(summarize, text)  # expect: STP002
    return await pending


@step
async def near_miss_coroutine_factory(text: str) -> str:
    return await start(tokenize, text)


@step
async def by_gather_of_factories(text: str) -> str:
    return "|".join(await asyncio.gather(start(tokenize, text), start(classify, text)))  # expect: STP002


@step
async def by_async_pipeline(text: str) -> str:
    out = []
    async for item in enrich(source(text)):  # expect: STP002
        out.append(item)
    return "|".join(out)


@step
async def near_miss_async_pipeline(text: str) -> str:
    out = []
    async for item in passthrough(source(text)):
        out.append(item)
    return "|".join(out)


@step
async def by_async_comprehension(text: str) -> str:
    return "|".join([item async for item in enrich(source(text))])  # expect: STP002


@step
async def by_asend(text: str) -> str:
    stream = enrich(source(text))
    first = await stream.asend(None)  # expect: STP002
    await stream.aclose()
    return first




@step
async def near_miss_aclosing_finally(text: str) -> str:
    async with contextlib.aclosing(paged_quietly(text)) as pages:
        async for page in pages:
            return page
    return text


@step
async def by_queue_consumer(text: str) -> str:
    queue: asyncio.Queue = asyncio.Queue()
    out: list = []
    consumer = asyncio.create_task(drain(queue, out))  # expect: STP002
    queue.put_nowait((tokenize, text))
    queue.put_nowait((summarize, text))
    await queue.join()
    consumer.cancel()
    return "|".join(out)


@step
async def near_miss_queue_consumer(text: str) -> str:
    queue: asyncio.Queue = asyncio.Queue()
    out: list = []
    consumer = asyncio.create_task(drain(queue, out))
    await queue.put((tokenize, text))
    await queue.put((pause, text))
    await queue.join()
    consumer.cancel()
    return "|".join(out)


@step
async def by_first_completed(text: str) -> str:
    tasks = {asyncio.create_task(handler(text)) for handler in (tokenize, classify)}  # expect: STP001
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        await task
    return str(len(done))


@step
async def by_filtered_gather(text: str) -> str:
    return "|".join(await asyncio.gather(*[handler(text) for handler in HANDLERS if handler is not pause]))  # expect: STP001




@step
async def by_retry_partial(text: str) -> str:
    return await with_retry(functools.partial(summarize, text))  # expect: STP002


@step
async def near_miss_retry_partial(text: str) -> str:
    return await with_retry(functools.partial(tokenize, text))


@step
async def by_shield_in_wait_for(text: str) -> str:
    return await asyncio.wait_for(asyncio.shield(classify(text)), timeout=5)  # expect: STP001


@step
async def by_semaphore(text: str) -> str:
    async with LIMIT:
        return await classify(text)  # expect: STP001


@step
async def by_fan_out(text: str) -> str:
    return "|".join(await fan_out(text, tokenize, summarize))  # expect: STP002


@step
async def near_miss_fan_out(text: str) -> str:
    return "|".join(await fan_out(text, tokenize, pause))


@step
async def by_anext_default(text: str) -> str:
    return await anext(Feed(classify).items(text), "none")  # expect: STP002


@step
async def near_miss_anext_default(text: str) -> str:
    return await anext(Feed(tokenize).items(text), "none")


@step
async def by_done_callback(text: str) -> str:
    task = asyncio.create_task(tokenize(text))
    task.add_done_callback(on_done)
    first = await task
    await asyncio.sleep(0)
    return first + "|" + await FOLLOW_UPS.pop()


@step
async def by_score_in_task(text: str) -> str:
    return await asyncio.create_task(score(Job(text)))  # expect: STP001, STP020


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_async_pipeline(mode), await near_miss_async_pipeline(mode), await by_async_comprehension(mode),
        await by_asend(mode), await near_miss_aclosing_finally(mode),
        await by_queue_consumer(mode), await near_miss_queue_consumer(mode), await by_first_completed(mode),
        await by_filtered_gather(mode), await by_retry_partial(mode),
        await near_miss_retry_partial(mode), await by_shield_in_wait_for(mode), await by_semaphore(mode),
        await by_fan_out(mode), await near_miss_fan_out(mode), await by_anext_default(mode),
        await near_miss_anext_default(mode), await by_done_callback(mode), await by_score_in_task(mode),
        await by_loop_create_task(mode), await by_task_dict(mode), await by_coroutine_factory(mode),
        await near_miss_coroutine_factory(mode), await by_gather_of_factories(mode),
    ]
    parts.append(await asyncio.shield(score(Job(mode + ":shield"))))  # expect: STP020
    async with asyncio.timeout(5):
        parts.append(await score(Job(mode + ":timeout")))
    queue: asyncio.Queue = asyncio.Queue()
    out: list = []
    worker = asyncio.create_task(score_worker(queue, out))  # expect: STP020
    queue.put_nowait(Job(mode + ":queued"))
    await queue.join()
    worker.cancel()
    jobs = [Job(mode + ":x"), Job(mode + ":y")]
    parts += await asyncio.gather(*(score(job) for job in jobs))  # expect: STP020
    parts += await asyncio.gather(*(summarize(job.label) for job in jobs))
    parts.append(await asyncio.wait_for(score(Job(mode + ":wait_for")), timeout=5))  # expect: STP020
    parts += await score_all([Job(mode + ":all")])
    parts += await asyncio.gather(tally({1: mode}), tally({"b": 2}))  # expect: STP020
    parts += await asyncio.gather(tally({"a": mode}), tally({"b": 2}))
    parts += await asyncio.gather(batch([Job(mode)]), batch(["b"]))  # expect: STP020
    parts += await asyncio.gather(batch([mode]), batch(["c"]))
    parts += await asyncio.gather(summarize(Tag(mode)), summarize("d"))  # expect: STP020
    return "|".join(parts + out)
