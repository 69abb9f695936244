"""Service bases at the end of the MRO."""
from __future__ import annotations

from r9b_mixins import steps


class TransientError(Exception):
    pass


class Base:
    def __init__(self, *, name: str = "service") -> None:
        self.name = name
        self.log: list[str] = []

    async def handle(self, request: str) -> str:
        return await self.perform(request)

    async def perform(self, request: str) -> str:
        return f"{self.name}:{request}"


class RemoteBase(Base):
    async def perform(self, request: str) -> str:
        return await steps.perform_request(request)
