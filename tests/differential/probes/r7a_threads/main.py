"""Threads, executors and context around steps: asyncio.to_thread of a sync function that runs only a plain
coroutine with asyncio.run (near miss), a ContextVar carrying the handler a helper calls, copy_context().run of a sync
starter, a TaskGroup opened in one helper and filled by another, an async context manager owning a worker pool (its
workers start at `async with`), a ContextVar set by one step without reset and read by the next; in the workflow,
to_thread and run_in_executor of sync functions running a step with asyncio.run (a dataclass argument through the
executor: no context, not refused). Unknown: the context variables. Left out (the tracer cannot place them, README
of the oracle): to_thread of a sync function running a step with asyncio.run inside a step, to_thread of a step
refused for a dataclass argument, and a direct call refused because a background task of the workflow is still
running. Left out as known imprecisions: loop.run_in_executor of a functools.partial running a step with asyncio.run
(no context copied: the step runs as a plain coroutine)."""
import asyncio
import contextvars
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


HANDLER: contextvars.ContextVar = contextvars.ContextVar("handler", default=tokenize)


def run_blocking(runner, text: str) -> str:  # noqa: ANN001
    return asyncio.run(runner(text))


def score_blocking(label: str) -> str:
    return asyncio.run(score(Job(label)))


async def handle(text: str) -> str:
    return await HANDLER.get()(text)


def start_handle(text: str):  # noqa: ANN201
    return asyncio.ensure_future(handle(text))


async def open_group(stack: list) -> asyncio.TaskGroup:
    group = asyncio.TaskGroup()
    await group.__aenter__()
    stack.append(group)
    return group


def fill_group(group: asyncio.TaskGroup, runner, items: list) -> list:  # noqa: ANN001
    return [group.create_task(runner(item)) for item in items]


class Pool:
    """An async context manager that owns worker tasks draining a queue of (runner, text) pairs."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.queue: asyncio.Queue = asyncio.Queue()
        self.results: list = []
        self.workers: list = []

    async def _work(self) -> None:
        while True:
            runner, text = await self.queue.get()
            try:
                self.results.append(await runner(text))
            finally:
                self.queue.task_done()

    async def __aenter__(self) -> "Pool":
        self.workers = [asyncio.create_task(self._work()) for _ in range(self.size)]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.queue.join()
        for worker in self.workers:
            worker.cancel()
        await asyncio.gather(*self.workers, return_exceptions=True)

    def submit(self, runner, text: str) -> None:  # noqa: ANN001
        self.queue.put_nowait((runner, text))


@step
async def near_miss_to_thread(text: str) -> str:
    return await asyncio.to_thread(run_blocking, tokenize, text)


@step
async def by_context_var(text: str) -> str:
    token = HANDLER.set(classify)
    try:
        return await handle(text)  # unknown: STP002
    finally:
        HANDLER.reset(token)


@step
async def sets_handler(text: str) -> str:
    HANDLER.set(summarize)
    return text


@step
async def by_leaked_context_var(text: str) -> str:
    return await handle(text)  # unknown: STP002


@step
async def near_miss_context_var(text: str) -> str:
    return await handle(text)


@step
async def by_copied_context(text: str) -> str:
    context = contextvars.copy_context()
    context.run(HANDLER.set, summarize)
    return await context.run(start_handle, text)  # unknown: STP002


@step
async def near_miss_copied_context(text: str) -> str:
    context = contextvars.copy_context()
    context.run(HANDLER.set, summarize)
    return await start_handle(text)


@step
async def by_split_task_group(text: str) -> str:
    stack: list = []
    group = await open_group(stack)
    tasks = fill_group(group, classify, [text, text + "!"])  # expect: STP002
    await stack.pop().__aexit__(None, None, None)
    return "|".join(task.result() for task in tasks)


@step
async def near_miss_split_task_group(text: str) -> str:
    stack: list = []
    group = await open_group(stack)
    tasks = fill_group(group, tokenize, [text])
    await stack.pop().__aexit__(None, None, None)
    return "|".join(task.result() for task in tasks)


@step
async def by_pool(text: str) -> str:
    async with Pool(2) as pool:  # expect: STP002
        pool.submit(tokenize, text)
        pool.submit(summarize, text)
    return "|".join(sorted(pool.results))


@step
async def near_miss_pool(text: str) -> str:
    async with Pool(2) as pool:
        pool.submit(tokenize, text)
    return "|".join(pool.results)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await near_miss_to_thread(mode), await by_context_var(mode), await near_miss_context_var(mode),
        await by_copied_context(mode),
        await near_miss_copied_context(mode), await by_split_task_group(mode), await near_miss_split_task_group(mode),
        await by_pool(mode), await near_miss_pool(mode), await sets_handler(mode), await by_leaked_context_var(mode),
    ]
    parts.append(await asyncio.to_thread(run_blocking, summarize, mode + ":thread"))
    loop = asyncio.get_running_loop()
    parts.append(await loop.run_in_executor(None, score_blocking, mode + ":executor"))
    parts.append(await score(Job(mode + ":after")))
    return "|".join(parts)
