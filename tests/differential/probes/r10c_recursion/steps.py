"""The application's steps."""
from agent_framework import step


@step
async def fetch_user(key: str) -> str:
    return "user:" + key


@step
async def create_order(key: str) -> str:
    return "order:" + key


@step
async def charge(key: str) -> str:
    return "charged:" + key


@step
async def on_even(key: str) -> str:
    return "even:" + key


@step
async def pay(key: str) -> str:
    return "paid:" + key


@step
async def raise_alert(message: str) -> str:
    return "ALERT:" + message
