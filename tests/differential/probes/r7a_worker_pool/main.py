"""Worker pools and dispatchers as services write them: N workers draining an asyncio.Queue of (callable, args)
jobs, a pool whose workers get only plain functions (near miss), a sync worker pool, a semaphore-limited fan-out
helper given coroutine factories (lambdas in the step body, and factories made by a helper), as_completed over a
dict of tasks keyed by name, a dispatcher object that stores tasks in a dict attribute in one method and awaits them
in another, a done callback that cannot await (near miss); in the workflow, the pool and the semaphore helper
refused for a dataclass argument and accepted for str arguments. Left out as known imprecisions: a dispatcher task
cancelled (dropped from the dict) before it starts its step."""
import asyncio
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


async def tokenize(text: str) -> str:
    return "tok:" + text


def shout(text: str) -> str:
    return text.upper()


async def worker(queue: asyncio.Queue, out: list) -> None:
    while True:
        func, args = await queue.get()
        try:
            out.append(await func(*args))
        finally:
            queue.task_done()


async def run_pool(jobs: list, size: int = 2) -> list:
    queue: asyncio.Queue = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)
    out: list = []
    workers = [asyncio.create_task(worker(queue, out)) for _ in range(size)]  # expect: STP020
    await queue.join()
    for each in workers:
        each.cancel()
    await asyncio.gather(*workers, return_exceptions=True)
    return sorted(out)


async def sync_worker(queue: asyncio.Queue, out: list) -> None:
    while not queue.empty():
        func, args = queue.get_nowait()
        out.append(func(*args))
        await asyncio.sleep(0)


async def run_sync_pool(jobs: list) -> list:
    queue: asyncio.Queue = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)
    out: list = []
    await asyncio.gather(*(sync_worker(queue, out) for _ in range(2)))
    return out


async def bounded(limit: int, factories: list) -> list:
    gate = asyncio.Semaphore(limit)

    async def run(factory):  # noqa: ANN001, ANN202
        async with gate:
            return await factory()

    return await asyncio.gather(*(run(factory) for factory in factories))  # expect: STP020


def deferred(runner, text: str):  # noqa: ANN001, ANN201
    return lambda: runner(text)


async def by_name(text: str, routes: dict) -> list:
    tasks = {name: asyncio.create_task(runner(text)) for name, runner in routes.items()}
    out = []
    for finished in asyncio.as_completed(tasks.values()):
        out.append(await finished)
    return sorted(out)


class Dispatcher:
    def __init__(self) -> None:
        self.pending: dict = {}
        self.log: list = []

    def submit(self, name: str, runner, text: str) -> None:  # noqa: ANN001
        task = asyncio.create_task(runner(text))
        task.add_done_callback(lambda done: self.log.append(done.result()))
        self.pending[name] = task

    async def collect(self) -> str:
        return "|".join([f"{name}={await task}" for name, task in sorted(self.pending.items())])


@step
async def by_pool(text: str) -> str:
    return "|".join(await run_pool([(tokenize, (text,)), (summarize, (text,))]))  # expect: STP002


@step
async def near_miss_pool(text: str) -> str:
    return "|".join(await run_pool([(tokenize, (text,)), (tokenize, (text + "!",))]))


@step
async def near_miss_sync_pool(text: str) -> str:
    return "|".join(await run_sync_pool([(shout, (text,)), (str.lower, (text,))]))


@step
async def by_bounded_lambdas(text: str) -> str:
    return "|".join(await bounded(1, [lambda: classify(text), lambda: tokenize(text)]))  # expect: STP001


@step
async def by_bounded_factories(text: str) -> str:
    return "|".join(await bounded(2, [deferred(summarize, text), deferred(tokenize, text)]))  # expect: STP002


@step
async def near_miss_bounded_factories(text: str) -> str:
    unused = deferred(summarize, text)
    return "|".join(await bounded(2, [deferred(tokenize, text)])) + str(callable(unused))


@step
async def by_name_dict(text: str) -> str:
    return "|".join(await by_name(text, {"tok": tokenize, "cls": classify}))  # expect: STP002


@step
async def near_miss_name_dict(text: str) -> str:
    return "|".join(await by_name(text, {"tok": tokenize}))


@step
async def by_dispatcher(text: str) -> str:
    dispatcher = Dispatcher()
    dispatcher.submit("tok", tokenize, text)
    dispatcher.submit("sum", summarize, text)  # expect: STP002
    return await dispatcher.collect()


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_pool(mode), await near_miss_pool(mode), await near_miss_sync_pool(mode),
        await by_bounded_lambdas(mode), await by_bounded_factories(mode), await near_miss_bounded_factories(mode),
        await by_name_dict(mode), await near_miss_name_dict(mode), await by_dispatcher(mode),
    ]
    parts += await run_pool([(score, (Job(mode + ":pool"),))])
    parts += await run_pool([(summarize, (mode + ":pool",)), (classify, (mode,))])
    parts += await bounded(2, [lambda: score(Job(mode + ":bounded"))])
    parts += await bounded(2, [deferred(summarize, mode + ":bounded")])
    dispatcher = Dispatcher()
    dispatcher.submit("score", lambda text: score(Job(text)), mode + ":dispatch")  # expect: STP020
    dispatcher.submit("sum", summarize, mode + ":dispatch")
    parts.append(await dispatcher.collect())
    return "|".join(parts)
