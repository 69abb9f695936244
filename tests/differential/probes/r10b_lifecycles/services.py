"""Services: some talk to infrastructure through steps, some live in memory."""
from __future__ import annotations

from r10b_lifecycles.steps import probe_endpoint, start_service, stop_service


class Service:
    name = "service"

    def __init__(self, config: dict | None = None) -> None:
        self.config = (config or {}).get(self.name, {})
        self.running = False

    @property
    def enabled(self) -> bool:
        return bool(self.config.get("enabled", True))

    async def start(self) -> str:
        self.running = True
        return self.name

    async def stop(self) -> str:
        self.running = False
        return self.name

    async def check(self) -> str:
        return "ok" if self.running else "down"


class DatabaseService(Service):
    name = "db"

    async def start(self) -> str:
        await super().start()
        return await start_service(self.name)

    async def stop(self) -> str:
        await super().stop()
        return await stop_service(self.name)


class CacheService(Service):
    name = "cache"


class SearchService(Service):
    name = "search"

    async def check(self) -> str:
        return await probe_endpoint(self.config.get("url", "search.local"))


class ApiService(Service):
    name = "api"


class MetricsService(Service):
    name = "metrics"
