"""Event listeners wired at import time."""
from r8a_cli_tasks.framework.events import EventEmitter
from r8a_cli_tasks.steps import format_row, write_audit

events = EventEmitter()


@events.on("user.created")
async def log_user(user: str) -> str:
    return format_row("created " + user)


@events.on("user.created")
async def audit_user(user: str) -> str:
    return await write_audit("user.created:" + user)


@events.on("user.viewed")
async def count_view(user: str) -> str:
    return format_row("viewed " + user)
