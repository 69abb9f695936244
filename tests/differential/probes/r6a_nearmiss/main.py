"""Near misses in application code: a plain function imported under a step's name, feature-flag branches that
are off (a flag in another module, `if False`, TYPE_CHECKING), a method with a step's name, a default argument
overridden at every call, steps the workflow itself drives through helpers, steps used as dict keys; and concurrent
calls MAF refuses (a plain-class argument, a step factory's closure) next to ones it accepts (a replay_key, str
arguments). Left out as known imprecisions: a step monkeypatched by a fake at import time (read through the module
and through a from-import), a coroutine made and closed unawaited, a nested function never called."""
import asyncio
from typing import TYPE_CHECKING

from agent_framework import step, workflow

from r6a_nearmiss import settings, steps
from r6a_nearmiss.plain import enrich

if TYPE_CHECKING:
    from r6a_nearmiss.steps import enrich as typed_enrich  # noqa: F401


class Order:
    def __init__(self, number: int) -> None:
        self.number = number


@step
async def score(order: Order) -> str:
    return "score:" + str(order.number)


@step(replay_key=lambda order: "rank:" + str(order.number))
async def rank(order: Order) -> str:
    return "rank:" + str(order.number)


class Cache:
    async def archive(self, text: str) -> str:
        return "cached:" + text


async def run_with(handler, text: str) -> str:  # noqa: ANN001
    return await handler(text)


async def process(text: str, handler=steps.enrich) -> str:  # noqa: ANN001
    return await handler(text)


async def tokenize(text: str) -> str:
    return "tok:" + text


@step
async def near_miss_plain_same_name(text: str) -> str:
    return await enrich(text)


@step
async def by_unpatched_module_attribute(text: str) -> str:
    return await steps.archive(text)  # expect: STP001


@step
async def near_miss_flag_off(text: str) -> str:
    if settings.DEBUG:
        return await steps.enrich(text)
    return text


@step
async def by_flag_on(text: str) -> str:
    if settings.AUDIT:
        return await steps.enrich(text)  # expect: STP001
    return text


@step
async def near_miss_if_false(text: str) -> str:
    if False:
        await steps.archive(text)
    while False:
        await steps.enrich(text)
    return text


@step
async def near_miss_type_checking(text: str) -> str:
    if TYPE_CHECKING:
        return await typed_enrich(text)
    return text


@step
async def near_miss_method_same_name(text: str) -> str:
    return await Cache().archive(text)


@step
async def near_miss_default_overridden(text: str) -> str:
    return await process(text, handler=tokenize)


@step
async def by_default_used(text: str) -> str:
    return await process(text)  # expect: STP002


@step
async def near_miss_step_as_data(text: str) -> str:
    names = {steps.enrich: "enrich", steps.archive: "archive"}
    return ",".join(sorted(names.values())) + text


@workflow
async def flow(mode: str) -> str:
    parts = [
        await near_miss_plain_same_name(mode), await by_unpatched_module_attribute(mode),
        await near_miss_flag_off(mode), await by_flag_on(mode), await near_miss_if_false(mode),
        await near_miss_type_checking(mode), await near_miss_method_same_name(mode),
        await near_miss_default_overridden(mode), await by_default_used(mode), await near_miss_step_as_data(mode),
    ]
    parts.append(await run_with(steps.enrich, mode))
    parts.append(await process(mode))
    orders = [Order(1), Order(2)]
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(score(order)) for order in orders]  # expect: STP020
    parts += [task.result() for task in tasks]
    parts += await asyncio.gather(*[rank(order) for order in orders])
    parts += await asyncio.gather(run_with(steps.enrich, mode + ":x"), run_with(steps.archive, mode + ":y"))
    parts += await asyncio.gather(*(run_with(score, order) for order in orders))  # expect: STP020
    return "|".join(parts)
