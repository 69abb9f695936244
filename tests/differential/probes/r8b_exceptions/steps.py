"""The application's steps."""
from agent_framework import step


@step
async def recover(text: str) -> str:
    return "recover:" + text


@step
async def store(text: str) -> str:
    return "store:" + text


@step
async def flush_buffer(text: str) -> str:
    return "flush:" + text


@step
async def rollback(text: str) -> str:
    return "rollback:" + text


@step
async def review(text: str) -> str:
    return "review:" + text


@step
async def refetch(text: str) -> str:
    return "refetch:" + text


@step
async def retry_later(text: str) -> str:
    return "retry:" + text


@step
async def reconnect(text: str) -> str:
    return "reconnect:" + text


@step
async def from_api(text: str) -> str:
    return "api:" + text

