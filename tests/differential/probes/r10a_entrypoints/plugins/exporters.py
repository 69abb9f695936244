"""Exporter plugins: a factory takes a settings dict and returns an object with `export`."""
from typing import Any

from r10a_entrypoints import steps


class CsvExporter:
    def __init__(self, settings: dict[str, Any]) -> None:
        self.delimiter = settings.get("delimiter", ",")

    async def export(self, payload: str) -> str:
        return self.delimiter.join(payload.split())


class CloudExporter:
    def __init__(self, bucket: str) -> None:
        self.bucket = bucket

    async def export(self, payload: str) -> str:
        return await steps.upload(f"{self.bucket}/{payload}")


def make_cloud_exporter(settings: dict[str, Any]) -> CloudExporter:
    return CloudExporter(settings.get("bucket", "default"))
