"""A heapq-based job scheduler keyed by (due, seq), with sched-like cancellation and asyncio.sleep(0) ticks."""
from __future__ import annotations

import asyncio
import heapq
import inspect
import itertools
from typing import Any, Callable

from r9c_scheduler.clock import FakeClock
from r9c_scheduler.cron import CronSchedule

Job = tuple[Callable[..., Any], tuple[Any, ...]]
Token = tuple[int, int]


class Scheduler:
    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self._heap: list[Token] = []
        self._jobs: dict[int, Job] = {}
        self._seq = itertools.count()
        self.log: list[Any] = []

    def enterabs(self, due: int, func: Callable[..., Any], *args: Any) -> Token:
        seq = next(self._seq)
        self._jobs[seq] = (func, args)
        token = (due, seq)
        heapq.heappush(self._heap, token)
        return token

    def enter(self, delay: int, func: Callable[..., Any], *args: Any) -> Token:
        return self.enterabs(self.clock.now() + delay, func, *args)

    def cancel(self, token: Token) -> None:
        # like sched.scheduler.cancel: the heap entry stays, the job is forgotten
        self._jobs.pop(token[1], None)

    def pending(self) -> int:
        return len(self._jobs)

    def next_due(self) -> int | None:
        while self._heap and self._heap[0][1] not in self._jobs:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    async def _run(self, job: Job) -> Any:
        func, args = job
        result = func(*args)
        if inspect.isawaitable(result):
            result = await result
        self.log.append(result)
        return result

    async def run_next(self) -> Any:
        due = self.next_due()
        if due is None or due > self.clock.now():
            return None
        _, seq = heapq.heappop(self._heap)
        return await self._run(self._jobs.pop(seq))

    async def run_pending(self) -> list[Any]:
        results = []
        while (due := self.next_due()) is not None and due <= self.clock.now():
            results.append(await self.run_next())
            await asyncio.sleep(0)
        return results

    async def run_until(self, until: int) -> list[Any]:
        results = await self.run_pending()
        while self.clock.now() < until:
            self.clock.advance(1)
            results.extend(await self.run_pending())
            await asyncio.sleep(0)
        return results

    def every(self, spec: str, func: Callable[..., Any], *args: Any) -> Token:
        schedule = CronSchedule.parse(spec)
        return self.enterabs(schedule.next_after(self.clock.now() - 1), _CronJob(self, schedule, func), *args)


class _CronJob:
    """Runs func, then puts itself back on the heap at the schedule's next match."""

    def __init__(self, scheduler: Scheduler, schedule: CronSchedule, func: Callable[..., Any]) -> None:
        self.scheduler = scheduler
        self.schedule = schedule
        self.func = func

    async def __call__(self, *args: Any) -> Any:
        now = self.scheduler.clock.now()
        self.scheduler.enterabs(self.schedule.next_after(now), self, *args)
        result = self.func(*args)
        if inspect.isawaitable(result):
            result = await result
        return result
