"""The real steps."""
from agent_framework import step


@step
async def enrich(text: str) -> str:
    return "enrich:" + text


@step
async def archive(text: str) -> str:
    return "archive:" + text
