"""Handlers decorated three deep, and routed handlers."""
from r10c_compose.decorators import log_calls, retry, route, with_default
from r10c_compose.steps import persist


@retry(times=2)
@log_calls(prefix="h")
@with_default(text="?")
async def save(text: str) -> str:
    return await persist(text)


@retry(times=2)
@log_calls(prefix="d")
@with_default(text="?")
async def save_draft(text: str) -> str:
    return "draft:" + text


@route("audited")
async def archive(text: str) -> str:
    return "archived:" + text.lower()


@route("plain")
async def archive_quietly(text: str) -> str:
    return "archived-quietly:" + text.lower()
