"""The other half of the cycle: imports customers at the top, defines what customers needs below."""
from . import customers
from .steps import fetch_order


async def place(order: str) -> str:
    return await customers.lookup(order)


async def place_quiet(order: str) -> str:
    return await customers.lookup_quiet(order)


async def finalize(order: str) -> str:
    return await fetch_order("final:" + order)


async def describe(order: str) -> str:
    return "describe:" + order


HANDLERS = {"fetch": fetch_order, "describe": describe}
