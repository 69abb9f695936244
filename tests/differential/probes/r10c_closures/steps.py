"""The application's steps."""
from agent_framework import step


@step
async def publish(text: str) -> str:
    return "published:" + text


@step
async def escalate(text: str) -> str:
    return "escalated:" + text


@step
async def store_event(text: str) -> str:
    return "stored:" + text


@step
async def deliver(text: str) -> str:
    return "delivered:" + text
