"""A task made with asyncio.Task(coro) directly runs the step in another task, as create_task does."""
import asyncio
from dataclasses import dataclass

from agent_framework import step, workflow


@dataclass
class Job:
    label: str


@step
async def score(job: Job) -> str:
    return "score:" + job.label


@step
async def summarize(label: str) -> str:
    return "summarize:" + label


@workflow
async def flow(mode: str) -> str:
    task = asyncio.Task(score(Job(mode)))  # expect: STP020
    keyed = asyncio.Task(summarize(mode))
    return "|".join([await task, await keyed])
