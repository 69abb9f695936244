"""A supervisor delegating to worker agents held in a list, round-robin via itertools.cycle."""
from __future__ import annotations

import asyncio
import itertools

from r8c_router import steps


class Worker:
    def __init__(self, name: str) -> None:
        self.name = name

    async def work(self, task: str) -> str:
        return f"{self.name} did {task}"


class ResearchWorker(Worker):
    async def work(self, task: str) -> str:
        notes = await steps.research_topic(task)
        return f"{self.name}: {notes}"


class WriterWorker(Worker):
    async def work(self, task: str) -> str:
        return f"{self.name} wrote about {task}"


class Supervisor:
    def __init__(self, workers: list[Worker]) -> None:
        self.workers = workers
        self._turns = itertools.cycle(workers)

    async def delegate(self, tasks: list[str]) -> list[str]:
        results = []
        for task in tasks:
            worker = next(self._turns)
            results.append(await worker.work(task))
        return results

    async def broadcast(self, task: str) -> list[str]:
        return list(await asyncio.gather(*(worker.work(task) for worker in self.workers)))


def default_team() -> list[Worker]:
    return [WriterWorker("w1"), ResearchWorker("r1"), WriterWorker("w2")]


def writers_only() -> list[Worker]:
    return [WriterWorker("w1"), Worker("generic")]
