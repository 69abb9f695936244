"""Jobs registered by decorator and by assignment; imported by the package's __init__ only."""
from agent_framework import step

from . import steps
from .registry import TASKS, task


@task("sync")
@step
async def sync_accounts(user: str) -> str:
    return "synced:" + user


@task("cleanup")
async def cleanup(user: str) -> str:
    return "cleaned:" + user


@task("refresh")
async def refresh(user: str) -> str:
    return await steps.fetch_profile(user)


TASKS["archive"] = steps.archive
TASKS["normalize"] = steps.normalize
