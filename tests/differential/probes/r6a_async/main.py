"""Async plumbing in service code: a class-based async context manager (a transaction) whose __aenter__ and
__aexit__ call steps, an asynccontextmanager session, AsyncExitStack callbacks, an async generator paginating
through a step consumed by async for, TaskGroup and asyncio.wait fan-out over a handler list, gather of a
helper, a hand-written retry loop with backoff, a retry decorator with functools.wraps applied inside a step,
a wrapper built but never awaited, and a timeout block."""
import asyncio
import contextlib
import functools

from agent_framework import step, workflow

from .plumbing import (
    Cursor, Resource, Transaction, commit, enrich, enrich_twice,
    fan_out, paginate, release, retrying, session, tokenize,
)


@step
async def by_transaction_enter_exit(name: str) -> str:
    async with Transaction(name) as tx:  # expect: STP002
        tx.log.append("work")
    return "|".join(tx.log)


@step
async def near_miss_transaction(name: str) -> str:
    async with Transaction(name, opener=tokenize, closer=release) as tx:
        tx.log.append("work")
    return "|".join(tx.log)


@step
async def by_session_exit(name: str) -> str:
    async with session(name) as opened:  # expect: STP002
        return opened


@step
async def near_miss_session_exit(name: str) -> str:
    async with session(name, closer=release) as opened:
        return opened


@step
async def by_exit_stack_callback(name: str) -> str:
    async with contextlib.AsyncExitStack() as stack:  # expect: STP001
        stack.push_async_callback(commit, name)
        return name


@step
async def by_pagination(cursor: str) -> str:
    pages = []
    async for page in paginate(cursor):  # expect: STP002
        pages.append(page)
    return "|".join(pages)


@step
async def near_miss_pagination(cursor: str) -> str:
    return "|".join([page async for page in paginate(cursor, loader=tokenize)])


@step
async def by_task_group(text: str) -> str:
    async with asyncio.TaskGroup() as group:
        first = group.create_task(enrich(text))  # expect: STP001
        second = group.create_task(tokenize(text))
    return first.result() + second.result()


@step
async def by_fan_out_helper(text: str) -> str:
    return "|".join(await fan_out(text, [tokenize, enrich]))  # expect: STP002


@step
async def near_miss_fan_out_helper(text: str) -> str:
    return "|".join(await fan_out(text, [tokenize, release]))


@step
async def by_asyncio_wait(text: str) -> str:
    tasks = [asyncio.ensure_future(handler(text)) for handler in (enrich, tokenize)]  # expect: STP001
    done, _ = await asyncio.wait(tasks)
    return str(len(done))


@step
async def by_gather_helper(text: str) -> str:
    return "|".join(await asyncio.gather(tokenize(text), enrich_twice(text)))  # expect: STP002


@step
async def by_retry_loop(text: str) -> str:
    for attempt in range(3):
        try:
            return await enrich(text + str(attempt))  # expect: STP001
        except ConnectionError:
            await asyncio.sleep(0)
    return text


@step
async def by_retry_decorator_inside(text: str) -> str:
    guarded = retrying(3)(enrich)
    return await guarded(text)  # expect: STP002


@step
async def near_miss_retry_decorator_inside(text: str) -> str:
    guarded = retrying(3)(tokenize)
    return await guarded(text)


@step
async def near_miss_wrapper_never_awaited(text: str) -> str:
    guarded = retrying(2)(enrich)
    later = functools.partial(guarded, text)
    return getattr(later.func, "__name__", "?")


@step
async def by_async_iterator_class(cursor: str) -> str:
    return "|".join([page async for page in Cursor(cursor)])  # expect: STP002


@step
async def near_miss_async_iterator_class(cursor: str) -> str:
    return "|".join([page async for page in Cursor(cursor, loader=tokenize)])


@step
async def by_enter_async_context(name: str) -> str:
    async with contextlib.AsyncExitStack() as stack:  # expect: STP002
        tx = await stack.enter_async_context(Transaction(name))  # expect: STP002
        return "|".join(tx.log)


@step
async def by_as_completed(text: str) -> str:
    out = []
    for next_done in asyncio.as_completed([enrich(text), tokenize(text)]):  # expect: STP001
        out.append(await next_done)
    return "|".join(sorted(out))


@step
async def by_wait_for_helper(text: str) -> str:
    return await asyncio.wait_for(enrich_twice(text), timeout=5)  # expect: STP002


@step
async def by_close_callbacks(name: str) -> str:
    resource = Resource()
    resource.on_close(release, name)
    resource.on_close(commit, name)
    return "|".join(await resource.close())  # expect: STP002


@step
async def near_miss_close_callbacks(name: str) -> str:
    resource = Resource()
    resource.on_close(release, name)
    return "|".join(await resource.close())


@step
async def by_timeout_block(text: str) -> str:
    async with asyncio.timeout(5):
        return await enrich(text)  # expect: STP001


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_transaction_enter_exit(mode), await near_miss_transaction(mode), await by_session_exit(mode),
        await near_miss_session_exit(mode), await by_exit_stack_callback(mode), await by_pagination(mode),
        await near_miss_pagination(mode), await by_task_group(mode), await by_fan_out_helper(mode),
        await near_miss_fan_out_helper(mode), await by_asyncio_wait(mode), await by_gather_helper(mode),
        await by_retry_loop(mode), await by_retry_decorator_inside(mode),
        await near_miss_retry_decorator_inside(mode), await near_miss_wrapper_never_awaited(mode),
        await by_timeout_block(mode), await by_async_iterator_class(mode), await near_miss_async_iterator_class(mode),
        await by_enter_async_context(mode), await by_as_completed(mode), await by_wait_for_helper(mode),
        await by_close_callbacks(mode), await near_miss_close_callbacks(mode),
    ]
    async with Transaction(mode) as tx:
        parts += tx.log
    async for page in paginate(mode):
        parts.append(page)
    parts.append(await retrying(2)(enrich)(mode))
    return "|".join(parts)
