"""Metrics plugins; `plugin` is the module's default entry (a spec without `:attr`)."""
from typing import Any

from r10a_entrypoints import steps


class StepMetrics:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    async def emit(self, name: str) -> str:
        return await steps.record_metric(self.prefix + name)


class NoopMetrics:
    async def emit(self, name: str) -> str:
        return "noop:" + name


class RemoteAudit:
    async def write(self, entry: str) -> str:
        return await steps.upload("audit/" + entry)


def plugin(settings: dict[str, Any]) -> StepMetrics:
    return StepMetrics(settings.get("prefix", "app."))


def noop_plugin(settings: dict[str, Any]) -> NoopMetrics:
    return NoopMetrics()


def remote_audit(settings: dict[str, Any]) -> RemoteAudit:
    return RemoteAudit()
