"""Structural interfaces the handlers depend on."""
from __future__ import annotations

from typing import Awaitable, Callable, Protocol, runtime_checkable


@runtime_checkable
class Sink(Protocol):
    async def write(self, payload: str) -> str: ...


class Transport(Protocol):
    name: str

    async def send(self, payload: str) -> str: ...


Transform = Callable[[str], Awaitable[str]]
