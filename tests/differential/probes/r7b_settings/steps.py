"""Steps and plain stand-ins."""
from agent_framework import step


@step
async def bill(text: str) -> str:
    return "bill:" + text


@step
async def legacy_audit(text: str) -> str:
    return "legacy:" + text


@step
async def http_get(text: str) -> str:
    return "get:" + text


@step
async def store_blob(text: str) -> str:
    return "blob:" + text


async def plain_bill(text: str) -> str:
    return "plain-bill:" + text


async def plain_store(text: str) -> str:
    return "plain-store:" + text
