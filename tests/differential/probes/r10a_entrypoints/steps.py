"""The application's steps."""
from agent_framework import step


@step
async def upload(payload: str) -> str:
    return "uploaded:" + payload


@step
async def verify_token(token: str) -> str:
    return "verified:" + token


@step
async def notify(message: str) -> str:
    return "notified:" + message


@step
async def record_metric(name: str) -> str:
    return "metric:" + name


@step
async def quarantine(payload: str) -> str:
    return "quarantined:" + payload
