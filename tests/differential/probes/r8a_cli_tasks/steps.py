"""The application's steps, and plain helpers some commands and tasks use instead."""
from agent_framework import step


@step
async def sync_accounts(account: str) -> str:
    return "synced:" + account


@step
async def list_users(prefix: str) -> str:
    return "users:" + prefix


@step
async def run_migrations(target: str) -> str:
    return "migrated:" + target


@step
async def send_welcome_email(user: str) -> str:
    return "welcome:" + user


@step
async def render_report(user: str) -> str:
    return "report:" + user


@step
async def write_audit(entry: str) -> str:
    return "audit:" + entry


@step
async def purge_cache(key: str) -> str:
    return "purged:" + key


async def health_status(name: str) -> str:
    return "ok:" + name


def format_row(value: str) -> str:
    return "[" + value + "]"
