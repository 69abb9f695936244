"""The application's exception classes."""
from collections.abc import Awaitable, Callable


class Skip(Exception):
    """A handler that cannot serve this request."""


class NeedsAttention(Exception):
    """Raised with the coroutine function that should deal with the problem."""

    def __init__(self, message: str, handler: Callable[[str], Awaitable[str]]) -> None:
        super().__init__(message)
        self.handler = handler


class LookupFailed(Exception):
    """Wraps the low-level error it was raised from."""
