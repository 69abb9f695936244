"""Concurrency building blocks: a semaphore-limited call, a queue-fed worker pool, retries with backoff and a
partial-friendly fetcher."""
import asyncio
from typing import Any, Awaitable, Callable, Iterable

STOP = object()


class TransientError(Exception):
    pass


async def limited(sem: asyncio.Semaphore, fn: Callable[[str], Awaitable[Any]], arg: str) -> Any:
    async with sem:
        return await fn(arg)


async def bounded_gather(fn: Callable[[str], Awaitable[Any]], args: Iterable[str], limit: int = 2) -> list:
    sem = asyncio.Semaphore(limit)
    return await asyncio.gather(*(limited(sem, fn, a) for a in args))


async def worker(queue: asyncio.Queue, handler: Callable[[str], Awaitable[Any]], out: list) -> None:
    while True:
        item = await queue.get()
        try:
            if item is STOP:
                return
            out.append(await handler(item))
        finally:
            queue.task_done()


class WorkerPool:
    def __init__(self, handler: Callable[[str], Awaitable[Any]], size: int = 3) -> None:
        self.handler = handler
        self.size = size
        self.queue: asyncio.Queue = asyncio.Queue()
        self.results: list = []

    async def run(self, items: Iterable[str]) -> list:
        workers = [asyncio.create_task(worker(self.queue, self.handler, self.results)) for _ in range(self.size)]
        for item in items:
            self.queue.put_nowait(item)
        for _ in workers:
            self.queue.put_nowait(STOP)
        await asyncio.gather(*workers)
        return sorted(self.results)


async def with_retry(fn: Callable[[str], Awaitable[Any]], arg: str, fallback=None) -> Any:
    for attempt in range(3):
        try:
            return await fn(arg)
        except TransientError:
            await asyncio.sleep(0.001 * 2**attempt)
    if fallback is not None:
        return await fallback(arg)
    raise TransientError(arg)


_flaky_calls: dict[str, int] = {}


async def flaky_local(url: str) -> str:
    """Fails on the first call for each url, then succeeds."""
    seen = _flaky_calls.get(url, 0)
    _flaky_calls[url] = seen + 1
    if seen == 0:
        raise TransientError(url)
    return "local:" + url


async def fetch_via(url: str, *, client: Callable[..., Awaitable[str]], retries: int = 1, fallback=None) -> str:
    try:
        return await client(url)
    except TransientError:
        if fallback is not None:
            return await fallback(url)
        raise


async def timed(fn: Callable[[str], Awaitable[Any]], arg: str) -> tuple:
    return arg, await fn(arg)
