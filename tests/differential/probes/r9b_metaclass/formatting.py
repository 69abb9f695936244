"""Type-dispatched formatting with functools.singledispatchmethod."""
from __future__ import annotations

from decimal import Decimal
from functools import singledispatchmethod

from r9b_metaclass import steps


class Formatter:
    def __init__(self, currency: str = "USD") -> None:
        self.currency = currency

    @singledispatchmethod
    async def format(self, value: object) -> str:
        return repr(value)

    @format.register
    async def _(self, value: Decimal) -> str:
        return await steps.format_amount(f"{value:.2f}")

    @format.register
    async def _(self, value: str) -> str:
        return value.title()

    @format.register(int)
    async def _format_count(self, value: int) -> str:
        return f"{value} items"
