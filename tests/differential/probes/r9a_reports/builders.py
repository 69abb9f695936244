"""Report classes: sections as (title, renderer) pairs, renderers resolved by name, prioritised parts."""
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Awaitable, Callable

from r9a_reports.steps import fetch_metrics, render_chart


class Report:
    title = "report"

    def __init__(self, data: dict) -> None:
        self.data = data

    @property
    def sections(self) -> list[tuple[str, Callable[[str], Awaitable[str]]]]:
        return [("summary", self.render_summary), ("totals", self.render_totals)]

    async def render_summary(self, title: str) -> str:
        return f"{title}: {len(self.data)} rows"

    async def render_totals(self, title: str) -> str:
        return f"{title}: {sum(self.data.values())}"

    async def render_chart(self, title: str) -> str:
        return await render_chart(f"{self.title}/{title}")

    async def render_table(self, title: str) -> str:
        return "\n".join(f"{k}\t{v}" for k, v in sorted(self.data.items()))

    async def render(self, kind: str) -> str:
        renderer = getattr(self, f"render_{kind}")
        return await renderer(kind)

    async def build(self) -> str:
        parts = []
        for title, renderer in self.sections:
            parts.append(await renderer(title))
        return "\n".join(parts)


class SalesReport(Report):
    title = "sales"

    @property
    def sections(self):
        return super().sections + [("trend", self.render_chart)]


class AuditReport(Report):
    title = "audit"

    @property
    def sections(self):
        return [(t, r) for t, r in super().sections if t != "totals"]


@dataclass
class Part:
    name: str
    priority: int
    live: bool = False
    notes: list = field(default_factory=list)

    async def produce(self) -> str:
        if self.live:
            metrics = await fetch_metrics(self.name)
            return f"{self.name}={metrics}"
        return f"{self.name}=static"


def by_priority(parts: list[Part]) -> list[Part]:
    return sorted(parts, key=attrgetter("priority"))


async def top_parts(parts: list[Part], limit: int) -> list[str]:
    return [await p.produce() for p in by_priority(parts)[:limit]]
