"""The application's steps."""
from agent_framework import step


@step
async def audit_event(text: str) -> str:
    return "audit:" + text


@step
async def ship_order(text: str) -> str:
    return "ship:" + text


@step
async def geocode(text: str) -> str:
    return "geo:" + text


@step
async def send_email(text: str) -> str:
    return "email:" + text


@step
async def upload_blob(text: str) -> str:
    return "blob:" + text


@step
async def fetch_remote(text: str) -> str:
    return "remote:" + text


@step
async def send_sms(text: str) -> str:
    return "sms:" + text


@step
async def enrich(text: str) -> str:
    return "enrich:" + text


@step
async def archive(text: str) -> str:
    return "archive:" + text
