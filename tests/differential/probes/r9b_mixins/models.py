"""Small value types: a __slots__ job, a NamedTuple with methods, dataclasses with overridden defaults."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Awaitable, Callable, NamedTuple

from r9b_mixins import steps

Runner = Callable[[str], Awaitable[str]]


class Job:
    __slots__ = ("name", "runner", "runs")

    def __init__(self, name: str, runner: Runner) -> None:
        self.name = name
        self.runner = runner
        self.runs = 0

    async def execute(self, payload: str) -> str:
        self.runs += 1
        return await self.runner(f"{self.name}/{payload}")


class Route(NamedTuple):
    path: str
    remote: bool = False

    def url(self, payload: str) -> str:
        return f"{self.path}?q={payload}"

    async def forward(self, payload: str) -> str:
        if self.remote:
            return await steps.forward_packet(self.url(payload))
        return "local:" + self.url(payload)


@dataclass
class Pipeline:
    name: str = "pipeline"
    stage: Runner = field(default=steps.plain_stage)
    tags: list[str] = field(default_factory=list)

    async def run(self, payload: str) -> str:
        self.tags.append(self.name)
        return await self.stage(payload)


@dataclass
class RemotePipeline(Pipeline):
    name: str = "remote"
    stage: Runner = field(default=steps.run_stage)
