"""Handler lookup through a chain of aliases, memoised with functools.cache."""
import functools
from typing import Awaitable, Callable

from r10c_recursion.steps import pay


async def pong(key: str) -> str:
    return "pong:" + key


HANDLERS: dict[str, Callable[[str], Awaitable[str]]] = {"pay": pay, "ping": pong}
ALIASES = {"checkout": "purchase", "purchase": "pay", "health": "ping"}


@functools.cache
def resolve(name: str) -> Callable[[str], Awaitable[str]]:
    target = ALIASES.get(name)
    if target is not None:
        return resolve(target)
    return HANDLERS[name]
