"""Shipping strategies in a table keyed by Enum members."""
from __future__ import annotations

import enum
from typing import Awaitable, Callable

from r8a_repos.steps import book_courier


class Shipping(enum.Enum):
    STANDARD = "standard"
    EXPRESS = "express"
    PICKUP = "pickup"


async def standard_quote(order: str) -> str:
    return "standard:" + order


async def express_quote(order: str) -> str:
    return "express:" + await book_courier(order)


async def pickup_quote(order: str) -> str:
    return "pickup:" + order


SHIPPING_STRATEGIES: dict[Shipping, Callable[[str], Awaitable[str]]] = {
    Shipping.STANDARD: standard_quote,
    Shipping.EXPRESS: express_quote,
    Shipping.PICKUP: pickup_quote,
}


async def quote_shipping(method: Shipping, order: str) -> str:
    return await SHIPPING_STRATEGIES[method](order)
