"""Factories of closures: per-name handlers (late-bound and bound with a default argument), a handler that
switches after N calls, an event bus of listener closures, and a gate made of two closures sharing state."""
from typing import Awaitable, Callable

from r10c_closures.actions import ACTIONS

Handler = Callable[[str], Awaitable[str]]


def make_handlers(names: list[str]) -> list[Callable[[str], Awaitable[str]]]:
    handlers = []
    for name in names:
        handlers.append(lambda text: ACTIONS[name](text))
    return handlers


def make_bound_handlers(names: list[str]) -> list[Callable[[str], Awaitable[str]]]:
    handlers = []
    for name in names:
        handlers.append(lambda text, name=name: ACTIONS[name](text))
    return handlers


def make_switching(first: Handler, then: Handler, after: int) -> Handler:
    count = 0

    async def handle(text: str) -> str:
        nonlocal count
        count += 1
        if count > after:
            return await then(text)
        return await first(text)

    return handle


async def log_only(text: str) -> str:
    return "log:" + text


def make_listener(sink: Handler, prefix: str) -> Handler:
    async def listener(payload: str) -> str:
        return await sink(f"{prefix}{payload}")

    return listener


class EventBus:
    def __init__(self) -> None:
        self._callbacks: list[Handler] = []

    def on(self, callback: Handler) -> None:
        self._callbacks.append(callback)

    def clear(self) -> None:
        self._callbacks.clear()

    async def emit(self, payload: str) -> list[str]:
        return [await callback(payload) for callback in self._callbacks]


def make_gate(sink: Handler) -> tuple[Callable[[], None], Handler]:
    opened = False

    def open_gate() -> None:
        nonlocal opened
        opened = True

    async def send(text: str) -> str:
        if opened:
            return await sink(text)
        return "held:" + text

    return open_gate, send
