"""Steps the plugins use."""
from agent_framework import step


@step
async def slack_post(text: str) -> str:
    return "slack:" + text


@step
async def email_send(text: str) -> str:
    return "email:" + text


@step
async def sms_send(text: str) -> str:
    return "sms:" + text


@step
async def export_csv(text: str) -> str:
    return "csv:" + text


async def log_only(text: str) -> str:
    return "log:" + text
