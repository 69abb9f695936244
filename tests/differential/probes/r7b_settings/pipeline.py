"""A frozen, slotted pipeline record holding step callables, made by a builder whose methods return self."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable

from .steps import plain_bill, plain_store

Handler = Callable[[str], Awaitable[str]]


@dataclass(frozen=True, slots=True)
class Pipeline:
    charge: Handler
    store: Handler = plain_store

    async def run(self, text: str) -> str:
        return await self.charge(text) + await self.store(text)


class PipelineBuilder:
    def __init__(self) -> None:
        self._charge: Handler = plain_bill
        self._store: Handler = plain_store

    def charging_with(self, handler: Handler) -> PipelineBuilder:
        self._charge = handler
        return self

    def storing_with(self, handler: Handler) -> PipelineBuilder:
        self._store = handler
        return self

    def build(self) -> Pipeline:
        return Pipeline(self._charge, self._store)
