"""The application's steps."""
from agent_framework import step


@step
async def load_profile(key: str) -> str:
    return "profile:" + key


@step
async def heavy_report(key: str) -> str:
    return "report:" + key


@step
async def escalate(item: str) -> str:
    return "escalated:" + item


@step
async def finalize(key: str) -> str:
    return "final:" + key


@step
async def render(key: str) -> str:
    return "rendered:" + key
