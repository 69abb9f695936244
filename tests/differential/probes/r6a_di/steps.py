"""The application's steps, and plain helpers some services are configured with."""
from agent_framework import step


@step
async def fetch_user(user: str) -> str:
    return "user:" + user


@step
async def charge_card(user: str) -> str:
    return "charged:" + user


@step
async def send_receipt(text: str) -> str:
    return "receipt:" + text


async def audit(text: str) -> str:
    return "audit:" + text


async def noop(text: str) -> str:
    return text
