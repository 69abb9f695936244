"""The application's steps."""
from agent_framework import step


@step
async def lookup(text: str) -> str:
    return "lookup:" + text


@step
async def enrich(text: str) -> str:
    return "enrich:" + text


@step
async def audit(text: str) -> str:
    return "audit:" + text


@step
async def fetch_remote(text: str) -> str:
    return "remote:" + text
