"""Asyncio control flow inside step bodies: a TaskGroup whose first task runs a helper that calls a step (its
second task a plain coroutine), asyncio.wait_for on a helper whose cache hit skips the step, asyncio.wait
(FIRST_COMPLETED) racing a cache against a backend with the stragglers drained, gather(return_exceptions=True) over a
generator expression of helpers (and one whose helper raises before its step), an async generator consumed by
`async for` (and one told not to enrich), an async comprehension awaiting a step per item, an asynccontextmanager
yielding a closure that calls a step (and a dry-run one yielding a plain coroutine), AsyncExitStack with a step
pushed by push_async_callback (run at the exit of the `async with`), an asyncio.Event-coordinated producer/consumer
of nested functions, an Event never set so the step after wait_for is not reached, and loop.call_soon with a lambda
that schedules a step (and one whose callback only sets a future to a step's name)."""
import asyncio
from contextlib import AsyncExitStack

from agent_framework import step, workflow

from r8b_async_flow import helpers, steps


@step
async def by_task_group_helper(text: str) -> str:
    async with asyncio.TaskGroup() as tg:
        first = tg.create_task(helpers.enrich_part(text))  # expect: STP002
        second = tg.create_task(helpers.normalize(text))
    return first.result() + second.result()


@step
async def near_miss_wait_for_cache_hit(text: str) -> str:
    cache = {text: "cached:" + text}
    return await asyncio.wait_for(helpers.cached_or_fetch(text, cache), timeout=1.0)  # imprecise: STP002


@step
async def by_wait_first_completed(text: str) -> str:
    racers = {
        asyncio.create_task(helpers.from_cache(text)),
        asyncio.create_task(helpers.from_backend(text)),  # expect: STP002
    }
    done, pending = await asyncio.wait(racers, return_when=asyncio.FIRST_COMPLETED)
    winner = next(iter(done)).result()
    for straggler in pending:
        await straggler
    return winner


@step
async def by_gather_return_exceptions(text: str) -> str:
    parts = [part.strip() for part in (text + ",b").split(",")]
    results = await asyncio.gather(*(helpers.enrich_part(p) for p in parts), return_exceptions=True)  # expect: STP002
    return ";".join(str(result) for result in results)


@step
async def near_miss_gather_failed_validation(text: str) -> str:
    results = await asyncio.gather(helpers.validated_enrich(text + "-1"), helpers.normalize(text), return_exceptions=True)  # imprecise: STP002
    return ";".join(type(result).__name__ for result in results)


@step
async def by_async_for_generator(text: str) -> str:
    collected = []
    async for item in helpers.stream_enriched([text, text + "2"]):  # expect: STP002
        collected.append(item)
    return ",".join(collected)


@step
async def near_miss_async_for_without_enrich(text: str) -> str:
    collected = []
    async for item in helpers.stream_enriched([text, text + "2"], enrich=False):
        collected.append(item)
    return ",".join(collected)


@step
async def by_async_comprehension(text: str) -> str:
    looked_up = [await steps.lookup(part) async for part in helpers.split_parts(text + ",x")]  # expect: STP001
    return ",".join(looked_up)


@step
async def by_context_manager_callable(text: str) -> str:
    async with helpers.session(text) as call:
        return await call(text)  # expect: STP002


@step
async def near_miss_context_manager_dry_run(text: str) -> str:
    async with helpers.session(text, dry_run=True) as call:
        return await call(text)


@step
async def by_exit_stack_callback(text: str) -> str:
    async with AsyncExitStack() as stack:  # expect: STP001
        stack.push_async_callback(steps.audit, text)
        result = text.upper()
    return result


@step
async def by_event_handoff(text: str) -> str:
    ready = asyncio.Event()
    box: list[str] = []

    async def producer() -> None:
        box.append(text.strip())
        ready.set()

    async def consumer() -> str:
        await ready.wait()
        return await steps.lookup(box[0])  # expect: STP001

    _, result = await asyncio.gather(producer(), consumer())
    return result


@step
async def near_miss_event_never_set(text: str) -> str:
    gate = asyncio.Event()
    try:
        await asyncio.wait_for(gate.wait(), timeout=0.001)
    except TimeoutError:
        return "timeout:" + text
    return await steps.lookup(text)  # imprecise: STP001


@step
async def by_call_soon_schedules(text: str) -> str:
    loop = asyncio.get_running_loop()
    scheduled: list[asyncio.Future[str]] = []
    loop.call_soon(lambda: scheduled.append(asyncio.ensure_future(steps.audit(text))))  # expect: STP001
    await asyncio.sleep(0)
    return await scheduled[0]


@step
async def near_miss_call_soon_records(text: str) -> str:
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    loop.call_soon(done.set_result, steps.lookup.name + ":" + text)
    return await done


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_task_group_helper(mode),
        await near_miss_wait_for_cache_hit(mode), await by_wait_first_completed(mode),
        await by_gather_return_exceptions(mode), await near_miss_gather_failed_validation(mode),
        await by_async_for_generator(mode), await near_miss_async_for_without_enrich(mode),
        await by_async_comprehension(mode), await by_context_manager_callable(mode),
        await near_miss_context_manager_dry_run(mode), await by_exit_stack_callback(mode),
        await by_event_handoff(mode), await near_miss_event_never_set(mode),
        await by_call_soon_schedules(mode), await near_miss_call_soon_records(mode),
    ]
    return "|".join(parts)
