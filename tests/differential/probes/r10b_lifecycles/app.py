"""The application: lifecycle hook lists, services started in dependency order, health checks."""
from __future__ import annotations

from contextlib import asynccontextmanager
from graphlib import TopologicalSorter


class App:
    def __init__(self, config: dict | None = None) -> None:
        self.config = config or {}
        self.on_startup: list = []
        self.on_shutdown: list = []
        self.services: dict[str, object] = {}
        self.graph: dict[str, set[str]] = {}
        self.started: list[str] = []

    def add_service(self, service, *, depends_on: tuple[str, ...] = ()) -> "App":
        self.services[service.name] = service
        self.graph[service.name] = set(depends_on)
        return self

    def hook(self, event: str):
        def register(func):
            getattr(self, "on_" + event).append(func)
            return func
        return register

    def order(self, *targets: str) -> list[str]:
        if not targets:
            return list(TopologicalSorter(self.graph).static_order())
        needed: set[str] = set()
        pending = list(targets)
        while pending:
            name = pending.pop()
            if name not in needed:
                needed.add(name)
                pending.extend(self.graph.get(name, ()))
        sub = {name: self.graph[name] & needed for name in needed}
        return list(TopologicalSorter(sub).static_order())

    async def start_services(self, *targets: str) -> list[str]:
        for name in self.order(*targets):
            service = self.services[name]
            if service.enabled:
                self.started.append(await service.start())
        return self.started

    async def start_in_batches(self) -> list[list[str]]:
        sorter = TopologicalSorter(self.graph)
        sorter.prepare()
        batches = []
        while sorter.is_active():
            ready = sorted(sorter.get_ready())
            batch = []
            for name in ready:
                service = self.services[name]
                if service.enabled:
                    batch.append(await service.start())
                sorter.done(name)
            batches.append(batch)
        return batches

    async def startup(self) -> None:
        for hook in self.on_startup:
            await hook(self)
        await self.start_services()

    async def shutdown(self) -> None:
        for hook in reversed(self.on_shutdown):
            await hook(self)
        for name in reversed(self.started):
            service = self.services.get(name)
            if service is not None and service.running:
                await service.stop()

    async def health(self) -> dict[str, str]:
        report = {}
        for name, service in self.services.items():
            if service.enabled:
                report[name] = await service.check()
        return report

    @asynccontextmanager
    async def lifespan(self):
        await self.startup()
        try:
            yield self
        finally:
            await self.shutdown()
