"""Where a plain coroutine function's call is reported when its coroutine is made on one line and run on another:
awaited directly (also through map() and through a function that returns it), the run enters its step at the
await; gathered or handed to a task, at the line that made it (the task runs the coroutine made there); awaited
on the same line, there; a step's own coroutine, at its call."""
import asyncio

from agent_framework import step, workflow


@step
async def inner(x: str) -> str:
    return x


async def helper(x: str) -> str:
    return await inner(x)


def make(x: str):  # noqa: ANN201
    return helper(x)


@step
async def outer(x: str) -> str:
    pending = helper(x)
    return await pending  # expect: STP002


@step
async def outer_map(x: str) -> list:
    out = []
    for pending in map(helper, [x]):
        out.append(await pending)  # expect: STP002
    return out


@step
async def outer_made_elsewhere(x: str) -> str:
    pending = make(x)
    return await pending  # expect: STP002


@step
async def outer_gathered(x: str) -> list:
    coros = [helper(x)]  # expect: STP002
    return await asyncio.gather(*coros)


@step
async def outer_task(x: str) -> str:
    coro = helper(x)  # expect: STP002
    task = asyncio.ensure_future(coro)
    return await task


@step
async def outer_same_line(x: str) -> str:
    return await helper(x)  # expect: STP002


@step
async def outer_step_coroutine(x: str) -> str:
    pending = inner(x)  # expect: STP001
    return await pending


@workflow
async def flow(mode: str) -> str:
    return str([await outer(mode), await outer_map(mode), await outer_made_elsewhere(mode), await outer_gathered(mode),
                await outer_task(mode), await outer_same_line(mode), await outer_step_coroutine(mode)])
