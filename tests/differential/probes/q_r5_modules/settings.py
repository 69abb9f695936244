"""Settings chosen at import time: a global rebound by a configure() function, and a late rebinding."""
from . import steps

HANDLER = steps.normalize
FALLBACK = steps.archive


def configure(use_archive: bool) -> None:
    global HANDLER
    HANDLER = steps.archive if use_archive else steps.normalize


configure(True)


async def run_handler(user: str) -> str:
    return await HANDLER(user)


async def run_fallback(user: str) -> str:
    return await FALLBACK(user)


FALLBACK = steps.normalize
