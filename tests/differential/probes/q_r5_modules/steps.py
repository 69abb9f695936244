"""Steps of the profile service; a star import brings only the names of __all__."""
from agent_framework import step

__all__ = ["fetch_profile", "archive", "normalize"]


@step
async def fetch_profile(user: str) -> str:
    return "profile:" + user


@step
async def archive(user: str) -> str:
    return "archived:" + user


@step
async def notify(user: str) -> str:
    return "notified:" + user


async def normalize(user: str) -> str:
    return user.strip().lower()


def profile_url(user: str) -> str:
    return "/u/" + user
