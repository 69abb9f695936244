"""Slow loaders (steps) behind the caches, and plain loaders used as local fallbacks."""
from agent_framework import step


@step
async def load_user(user_id: str) -> dict:
    return {"id": user_id, "name": user_id.upper()}


@step
async def load_config(key: str) -> str:
    return "remote:" + key


@step
async def compute_score(key: str) -> int:
    return sum(map(ord, key)) % 97


@step
async def open_session(dsn: str) -> dict:
    return {"dsn": dsn, "open": True}


async def static_user(user_id: str) -> dict:
    return {"id": user_id, "name": "guest"}


async def default_config(key: str) -> str:
    return "default:" + key


async def quick_score(key: str) -> int:
    return len(key)
