"""An event emitter: ``on`` / ``once`` decorators register listeners, ``emit`` awaits them in order."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Awaitable, Callable

Listener = Callable[[Any], Awaitable[Any]]


class EventEmitter:
    def __init__(self) -> None:
        self._listeners: defaultdict[str, list[Listener]] = defaultdict(list)
        self._once: set[Listener] = set()

    def on(self, event: str) -> Callable[[Listener], Listener]:
        def register(listener: Listener) -> Listener:
            self._listeners[event].append(listener)
            return listener
        return register

    def once(self, event: str) -> Callable[[Listener], Listener]:
        def register(listener: Listener) -> Listener:
            self._once.add(listener)
            return self.on(event)(listener)
        return register

    def off(self, event: str, listener: Listener) -> None:
        self._listeners[event].remove(listener)
        self._once.discard(listener)

    def listeners(self, event: str) -> list[Listener]:
        return list(self._listeners.get(event, ()))

    async def emit(self, event: str, payload: Any) -> list[Any]:
        results = []
        for listener in self.listeners(event):
            if listener in self._once:
                self.off(event, listener)
            results.append(await listener(payload))
        return results
