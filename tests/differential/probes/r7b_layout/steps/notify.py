"""Notification steps and a plain renderer."""
from agent_framework import step

__all__ = ["send_mail", "render"]


@step
async def send_mail(text: str) -> str:
    return "mail:" + text


async def render(text: str) -> str:
    return "render:" + text
