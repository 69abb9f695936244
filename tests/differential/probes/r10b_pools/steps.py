"""Database-facing steps."""
from agent_framework import step


@step
async def run_query(sql: str) -> str:
    return "rows:" + sql


@step
async def open_db_connection(dsn: str) -> str:
    return "handle:" + dsn


@step
async def release_connection(name: str) -> str:
    return "released:" + name


@step
async def log_event(text: str) -> str:
    return "log:" + text
