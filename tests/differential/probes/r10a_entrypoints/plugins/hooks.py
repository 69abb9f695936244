"""Plain hook and audit plugins."""
from typing import Any


async def echo_hook(message: str) -> str:
    return "echo:" + message


class FileAudit:
    async def write(self, entry: str) -> str:
        return "file:" + entry


class MemoryAudit:
    def __init__(self) -> None:
        self.entries: list[str] = []

    async def write(self, entry: str) -> str:
        self.entries.append(entry)
        return "memory:" + entry


def file_audit(settings: dict[str, Any]) -> FileAudit:
    return FileAudit()


def memory_audit(settings: dict[str, Any]) -> MemoryAudit:
    return MemoryAudit()
