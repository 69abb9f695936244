"""Jobs: plain functions, a self-rescheduling heartbeat, and job callables that reach steps."""
from __future__ import annotations

from r9c_scheduler import steps
from r9c_scheduler.scheduler import Scheduler


async def digest_job(user: str) -> str:
    return await steps.send_digest(user)


def cleanup_job(path: str) -> str:
    return f"cleaned:{path}"


async def notify(text: str, *, channel: str) -> str:
    return await steps.deliver(channel, text)


class Heartbeat:
    """Reschedules itself every `interval` minutes; on beat `report_at` it publishes a report."""

    def __init__(self, scheduler: Scheduler, name: str, *, interval: int, report_at: int) -> None:
        self.scheduler = scheduler
        self.name = name
        self.interval = interval
        self.report_at = report_at
        self.beats = 0

    async def __call__(self) -> str:
        self.beats += 1
        if self.beats >= self.report_at:
            return await steps.publish_report(self.name, self.beats)
        self.scheduler.enter(self.interval, self)
        return f"beat:{self.beats}"


class LogRotation:
    def __init__(self) -> None:
        self.runs = 0

    async def rotate(self, target: str) -> str:
        self.runs += 1
        return await steps.rotate_logs(f"{target}.{self.runs}")
