"""Action table: some actions are steps, some plain functions."""
from typing import Awaitable, Callable

from r10c_closures.steps import publish


async def draft(text: str) -> str:
    return "draft:" + text


async def preview(text: str) -> str:
    return "preview:" + text


ACTIONS: dict[str, Callable[[str], Awaitable[str]]] = {"publish": publish, "draft": draft, "preview": preview}
