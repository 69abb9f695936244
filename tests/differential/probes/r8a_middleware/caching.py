"""A ``@cached`` decorator keeping results in a dict, keyed by the positional arguments."""
from __future__ import annotations

import functools
from typing import Any, Awaitable, Callable


def cached(func: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    store: dict[tuple, Any] = {}

    @functools.wraps(func)
    async def wrapper(*args: Any) -> Any:
        if args in store:
            return store[args]
        value = await func(*args)
        store[args] = value
        return value

    wrapper.cache = store  # type: ignore[attr-defined]
    return wrapper
