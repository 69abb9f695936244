"""The application's steps."""
from agent_framework import step


@step
async def enrich(record: str) -> str:
    return "enriched:" + record


@step
async def persist(record: str) -> str:
    return "persisted:" + record


@step
async def notify(record: str) -> str:
    return "notified:" + record


@step
async def score(record: str) -> str:
    return "scored:" + record


@step
async def validate(record: str) -> str:
    return "valid:" + record
