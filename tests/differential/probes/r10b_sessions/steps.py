"""Storage steps."""
from agent_framework import step


@step
async def insert_row(row: str) -> str:
    return "inserted:" + row


@step
async def update_row(row: str) -> str:
    return "updated:" + row


@step
async def commit_tx(tag: str) -> str:
    return "commit:" + tag


@step
async def rollback_tx(tag: str) -> str:
    return "rollback:" + tag


@step
async def create_savepoint(name: str) -> str:
    return "savepoint:" + name
