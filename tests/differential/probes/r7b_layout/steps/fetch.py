"""Fetching steps; __all__ names what the subpackage re-exports."""
from agent_framework import step

__all__ = ["fetch_order", "fetch_user"]


@step
async def fetch_order(order: str) -> str:
    return "order:" + order


@step
async def fetch_user(user: str) -> str:
    return "user:" + user


@step
async def fetch_secret(key: str) -> str:  # not in __all__
    return "secret:" + key
