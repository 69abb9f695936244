"""The application's steps, and the plain stand-ins the tests and the console configuration use."""
from agent_framework import step


@step
async def load_user(user_id: str) -> str:
    return "user:" + user_id


@step
async def charge_card(amount: str) -> str:
    return "charged:" + amount


@step
async def send_email(body: str) -> str:
    return "mail:" + body


@step
async def write_audit(entry: str) -> str:
    return "audit:" + entry


@step
async def current_tenant(tenant: str) -> str:
    return "tenant:" + tenant


async def load_user_from_fixture(user_id: str) -> str:
    return "fixture-user:" + user_id


async def print_email(body: str) -> str:
    return "console:" + body


async def charge_card_sandbox(amount: str) -> str:
    return "sandbox:" + amount


async def skip_audit(entry: str) -> str:
    return "no-audit:" + entry
