"""The application's steps."""
from agent_framework import step


@step
async def normalize(text: str) -> str:
    return text.strip().lower()


@step
async def enrich(text: str) -> str:
    return text + ":enriched"


@step
async def tag(label: str, text: str) -> str:
    return f"[{label}]{text}"


@step
async def notify(channel: str, text: str) -> str:
    return f"{channel}<-{text}"


@step
async def persist(text: str) -> str:
    return "saved:" + text


@step
async def audit(text: str) -> str:
    return "audit:" + text


@step
async def validate(text: str) -> str:
    return text if text else "empty"
