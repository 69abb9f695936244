"""Bounded concurrency around steps: a semaphore-limited gather (`async with sem:` inside a helper) over a step
and over a plain fetcher; a worker pool of N consumer tasks reading an asyncio.Queue with sentinel shutdown, fed a
step handler (and, as a near miss, the step handler with nothing queued before the sentinels); asyncio.as_completed
over helper coroutines wrapping a step and over plain ones; a retry-with-backoff loop (`for attempt in range(3)`)
given the step as the operation, and given a flaky plain operation with the step as an untaken fallback;
functools.partial-configured fetchers (a partial of the step itself, a partial of a plain helper whose client is
the step, a partial of the helper with a plain client); a bounded collections.deque of pending thunks drained in
the step body, where the step thunk survives, and where it is evicted by maxlen before draining."""
import asyncio
from collections import deque
from functools import partial

from agent_framework import step, workflow

from r9a_concurrency.pool import WorkerPool, bounded_gather, fetch_via, flaky_local, timed, with_retry
from r9a_concurrency.steps import cached_page, fetch_page, local_score, log_only, notify, score

URLS = ["a.example/1", "a.example/2", "b.example/3"]


@step
async def by_semaphore_gather(mode: str) -> str:
    pages = await bounded_gather(fetch_page, URLS, limit=2)  # expect: STP002
    return ";".join(pages)


@step
async def near_miss_semaphore_gather_cached(mode: str) -> str:
    pages = await bounded_gather(cached_page, URLS, limit=2)
    return ";".join(pages)


@step
async def by_worker_pool(mode: str) -> str:
    pool = WorkerPool(score, size=3)
    return str(await pool.run(URLS))  # expect: STP002


@step
async def near_miss_worker_pool_empty_queue(mode: str) -> str:
    pool = WorkerPool(score, size=3)
    pending = [u for u in URLS if u.startswith(mode + "z")]
    return str(await pool.run(pending))  # imprecise: STP002


@step
async def by_as_completed(mode: str) -> str:
    done = []
    for fut in asyncio.as_completed([timed(score, u) for u in URLS]):  # expect: STP002
        url, value = await fut
        done.append(f"{url}={value}")
    return ";".join(sorted(done))


@step
async def near_miss_as_completed_local(mode: str) -> str:
    done = []
    for fut in asyncio.as_completed([timed(local_score, u) for u in URLS]):
        url, value = await fut
        done.append(f"{url}={value}")
    return ";".join(sorted(done))


@step
async def by_retry_with_backoff(mode: str) -> str:
    return await with_retry(fetch_page, URLS[0])  # expect: STP002


@step
async def near_miss_retry_untaken_fallback(mode: str) -> str:
    return await with_retry(flaky_local, URLS[1] + "?" + mode, fallback=fetch_page)  # imprecise: STP002


@step
async def by_partial_of_step(mode: str) -> str:
    get_us = partial(fetch_page, region="us")
    return await get_us(URLS[2])  # expect: STP001


@step
async def by_partial_fetcher_client(mode: str) -> str:
    fetcher = partial(fetch_via, client=fetch_page, retries=2)
    return await fetcher(URLS[0])  # expect: STP002


@step
async def near_miss_partial_fetcher_local(mode: str) -> str:
    fetcher = partial(fetch_via, client=cached_page, retries=2, fallback=fetch_page)
    return await fetcher(URLS[0])  # imprecise: STP002


@step
async def by_bounded_deque_drain(mode: str) -> str:
    pending: deque = deque(maxlen=2)
    pending.append(lambda: log_only("first"))
    pending.append(lambda: log_only("second"))
    pending.append(lambda: notify("third"))  # expect: STP001
    out = []
    while pending:
        out.append(await pending.popleft()())
    return ";".join(out)


@step
async def near_miss_bounded_deque_evicted(mode: str) -> str:
    pending: deque = deque(maxlen=2)
    pending.append(lambda: notify("first"))  # imprecise: STP001
    pending.append(lambda: log_only("second"))
    pending.append(lambda: log_only("third"))
    out = []
    while pending:
        out.append(await pending.popleft()())
    return ";".join(out)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_semaphore_gather(mode), await near_miss_semaphore_gather_cached(mode),
        await by_worker_pool(mode), await near_miss_worker_pool_empty_queue(mode),
        await by_as_completed(mode), await near_miss_as_completed_local(mode),
        await by_retry_with_backoff(mode), await near_miss_retry_untaken_fallback(mode),
        await by_partial_of_step(mode), await by_partial_fetcher_client(mode),
        await near_miss_partial_fetcher_local(mode),
        await by_bounded_deque_drain(mode), await near_miss_bounded_deque_evicted(mode),
    ]
    return "|".join(parts)
