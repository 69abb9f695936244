"""A plugin that wraps another plugin named in its settings."""
from typing import Any

from r10a_entrypoints import entrypoints


class LoggingExporter:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.lines: list[str] = []

    async def export(self, payload: str) -> str:
        self.lines.append("export " + payload)
        result = await self.inner.export(payload)
        self.lines.append("done " + result)
        return result


def logging_wrapper(settings: dict[str, Any]) -> LoggingExporter:
    inner_name = settings.get("inner", "csv")
    inner = entrypoints.create("app.exporters", inner_name, settings.get("inner_settings"))
    return LoggingExporter(inner)
