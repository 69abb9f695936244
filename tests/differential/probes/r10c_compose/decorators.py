"""Decorators with arguments, and one that picks its wrapper from its argument."""
import functools
from typing import Awaitable, Callable

from r10c_compose.steps import audit

Handler = Callable[[str], Awaitable[str]]


def retry(times: int) -> Callable[[Handler], Handler]:
    def decorate(fn: Handler) -> Handler:
        @functools.wraps(fn)
        async def wrapper(text: str) -> str:
            last: Exception | None = None
            for _ in range(times):
                try:
                    return await fn(text)
                except ValueError as error:
                    last = error
            raise RuntimeError("gave up") from last

        return wrapper

    return decorate


def log_calls(prefix: str) -> Callable[[Handler], Handler]:
    def decorate(fn: Handler) -> Handler:
        @functools.wraps(fn)
        async def wrapper(text: str) -> str:
            result = await fn(text)
            return f"{prefix}:{result}"

        return wrapper

    return decorate


def with_default(text: str) -> Callable[[Handler], Handler]:
    fallback = text

    def decorate(fn: Handler) -> Handler:
        @functools.wraps(fn)
        async def wrapper(text: str) -> str:
            return await fn(text or fallback)

        return wrapper

    return decorate


def route(kind: str) -> Callable[[Handler], Handler]:
    """`route("audited")` wraps the handler with an audit step first; any other kind just passes through."""

    def decorate(fn: Handler) -> Handler:
        if kind == "audited":

            async def audited(text: str) -> str:
                await audit(text)
                return await fn(text)

            return audited

        async def passthrough(text: str) -> str:
            return await fn(text)

        return passthrough

    return decorate
