"""Inner steps of the generics program and the plain functions it is wired with."""
from agent_framework import step


@step
async def load_user(key: str) -> str:
    return "user:" + key


@step
async def load_order(key: str) -> str:
    return "order:" + key


@step
async def persist(payload: str) -> str:
    return "saved:" + payload


@step
async def call_remote(payload: str) -> str:
    return "remote:" + payload


@step
async def render_number(payload: str) -> str:
    return "number:" + payload


@step
async def normalize(payload: str) -> str:
    return payload.strip().lower()


async def plain_normalize(payload: str) -> str:
    return payload.strip()
