"""The abstract repository; ``list_for`` is a template method over the abstract ``get``."""
from __future__ import annotations

import abc


class OrderRepository(abc.ABC):
    table_name = "orders"

    def __init__(self, session) -> None:  # noqa: ANN001
        self.session = session

    @abc.abstractmethod
    async def add(self, order_id: str) -> str: ...

    @abc.abstractmethod
    async def get(self, order_id: str) -> str: ...

    def stage(self, order_id: str) -> None:
        self.session.pending.append(order_id)

    async def list_for(self, customer: str) -> list[str]:
        return [await self.get(customer + suffix) for suffix in ("-1", "-2")]
