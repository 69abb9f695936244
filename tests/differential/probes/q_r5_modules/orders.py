"""Orders and billing import each other; the names are read when the functions run."""
from agent_framework import step

from . import billing


@step
async def load_orders(user: str) -> str:
    return "orders:" + user


async def total_for(user: str) -> str:
    return await billing.price(user)
