"""Imports orders while orders is being imported (a circular import resolved at call time)."""
from typing import TYPE_CHECKING

from agent_framework import step

from . import orders

if TYPE_CHECKING:
    from .services.email import send_email  # noqa: F401 - for annotations only


async def charge(user: str) -> str:
    return await orders.load_orders(user)


async def price(user: str) -> str:
    return "price:" + user


@step
async def invoice(user: str) -> str:
    return await orders.load_orders(user)  # expect: STP001


@step
async def receipt(user: str) -> str:
    from .services.email import send_email as deliver
    return await deliver(user)  # expect: STP001
