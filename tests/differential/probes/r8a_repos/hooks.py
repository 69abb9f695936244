"""A hook registry plugins add to."""
from __future__ import annotations

from typing import Awaitable, Callable


class Hooks:
    def __init__(self) -> None:
        self._hooks: dict[str, list[Callable[[str], Awaitable[str]]]] = {}

    def add(self, name: str, func: Callable[[str], Awaitable[str]]) -> None:
        self._hooks.setdefault(name, []).append(func)

    async def run(self, name: str, value: str) -> list[str]:
        return [await func(value) for func in self._hooks.get(name, [])]
