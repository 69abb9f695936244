"""Builds an ordered list of stages from a config mapping and runs it."""
from operator import attrgetter
from types import ModuleType
from typing import Any

from r10a_pipeline_config import stages as default_stages


class Stage:
    def __init__(self, name: str, func: Any, order: int, options: dict[str, Any]) -> None:
        self.name = name
        self.func = func
        self.order = order
        self.options = options

    async def run(self, record: str) -> str:
        return await self.func(record, **self.options)


def build(config: dict[str, Any], module: ModuleType = default_stages) -> list[Stage]:
    built = []
    for entry in config.get("stages", []):
        if not entry.get("enabled", True):
            continue
        func = getattr(module, entry["name"])
        built.append(Stage(entry["name"], func, entry.get("order", 100), dict(entry.get("options", {}))))
    built.sort(key=attrgetter("order"))
    return built


async def run_pipeline(built: list[Stage], record: str) -> str:
    for stage in built:
        record = await stage.run(record)
    return record
