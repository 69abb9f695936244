"""Racing, retrying and timing out: a race helper that starts coroutine factories, returns the first result of
asyncio.wait(FIRST_COMPLETED) and cancels the rest, a retry helper with exponential backoff given a factory made by
a helper (a factory built and never called is a near miss), a hedged call whose primary finishes before the timeout,
asyncio.timeout and wait_for around helpers; in the workflow, wait_for of a helper refused for a dataclass argument
(Python 3.11 runs it in a task), the same helper under asyncio.timeout accepted. Left out as known imprecisions: a
race loser cancelled before it reaches its step, a hedged backup never started because the primary finished, a
task cancelled before it ever runs (in a step and, with a dataclass argument, in the workflow)."""
import asyncio
from dataclasses import dataclass

from agent_framework import step, workflow


@dataclass
class Job:
    label: str


class Flaky(Exception):
    pass


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


async def slowly(runner, text: str) -> str:  # noqa: ANN001
    await asyncio.sleep(5)
    return await runner(text)


async def race(*factories) -> str:  # noqa: ANN002
    tasks = [asyncio.ensure_future(factory()) for factory in factories]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for loser in pending:
        loser.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return done.pop().result()


def call_later(runner, *args):  # noqa: ANN001, ANN002, ANN201
    def factory():  # noqa: ANN202
        return runner(*args)

    return factory


async def retry(factory, attempts: int = 3, base: float = 0.0) -> str:  # noqa: ANN001
    failures = 0
    while True:
        try:
            return await factory()
        except Flaky:
            failures += 1
            if failures >= attempts:
                raise
            await asyncio.sleep(base * 2**failures)


async def hedged(primary, backup, text: str, after: float) -> str:  # noqa: ANN001
    first = asyncio.create_task(primary(text))
    done, _ = await asyncio.wait({first}, timeout=after)
    if done:
        return first.result()
    second = asyncio.create_task(backup(text))
    done, pending = await asyncio.wait({first, second}, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    return done.pop().result()


async def relay(text: str) -> str:
    return await classify(text)


async def score_label(label: str) -> str:
    return await score(Job(label))


@step
async def by_race_winner(text: str) -> str:
    return await race(call_later(summarize, text), call_later(slowly, tokenize, text))  # expect: STP002


@step
async def by_retry_factory(text: str) -> str:
    return await retry(call_later(classify, text), base=0.001)  # expect: STP002


@step
async def near_miss_factory_never_called(text: str) -> str:
    spare = call_later(summarize, text)
    return await retry(call_later(tokenize, text)) + ":" + type(spare).__name__


@step
async def by_hedged_primary(text: str) -> str:
    return await hedged(relay, tokenize, text, after=5)  # expect: STP002


@step
async def by_timeout_block(text: str) -> str:
    async with asyncio.timeout(5):
        return await relay(text)  # expect: STP002


@step
async def by_wait_for_helper(text: str) -> str:
    return await asyncio.wait_for(relay(text), timeout=5)  # expect: STP002


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_race_winner(mode), await by_retry_factory(mode), await near_miss_factory_never_called(mode),
        await by_hedged_primary(mode), await by_timeout_block(mode), await by_wait_for_helper(mode),
    ]
    parts.append(await asyncio.wait_for(score_label(mode + ":wait_for"), timeout=5))  # expect: STP020
    async with asyncio.timeout(5):
        parts.append(await score_label(mode + ":timeout"))
    parts.append(await race(call_later(summarize, mode + ":race"), call_later(slowly, summarize, mode)))
    parts.append(await retry(call_later(score, Job(mode + ":retry"))))
    return "|".join(parts)
