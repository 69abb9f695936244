"""A cron-like schedule limited to the minute and hour fields ("*/15 9-17 * * *")."""
from __future__ import annotations

from dataclasses import dataclass


def _field(spec: str, low: int, high: int) -> frozenset[int]:
    values: set[int] = set()
    for part in spec.split(","):
        step = 1
        if "/" in part:
            part, step_text = part.split("/", 1)
            step = int(step_text)
        if part == "*":
            start, stop = low, high
        elif "-" in part:
            first, last = part.split("-", 1)
            start, stop = int(first), int(last)
        else:
            start = stop = int(part)
        values.update(range(start, stop + 1, step))
    return frozenset(values)


@dataclass(frozen=True)
class CronSchedule:
    minutes: frozenset[int]
    hours: frozenset[int]

    @classmethod
    def parse(cls, text: str) -> "CronSchedule":
        minute, hour, *_rest = text.split()
        return cls(_field(minute, 0, 59), _field(hour, 0, 23))

    def matches(self, at: int) -> bool:
        hour, minute = divmod(at % (24 * 60), 60)
        return hour in self.hours and minute in self.minutes

    def next_after(self, at: int) -> int:
        for candidate in range(at + 1, at + 24 * 60 + 1):
            if self.matches(candidate):
                return candidate
        raise ValueError("schedule never fires")
