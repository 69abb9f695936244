"""A small in-process pub/sub broker: fnmatch topic patterns, unsubscribe tokens and a queue of events."""
from __future__ import annotations

import asyncio
import fnmatch
import inspect
import itertools
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Union

Handler = Callable[["Event"], Union[Awaitable[Any], Any]]


@dataclass(frozen=True)
class Event:
    topic: str
    payload: str


class Subscription:
    """Token returned by subscribe(); cancel() removes the subscriber."""

    def __init__(self, broker: "Broker", token: int) -> None:
        self._broker = broker
        self.token = token

    def cancel(self) -> None:
        self._broker.unsubscribe(self.token)

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()


class Broker:
    def __init__(self) -> None:
        self._subscribers: dict[int, tuple[str, Handler]] = {}
        self._ids = itertools.count(1)
        self._queue: asyncio.Queue[Event] = asyncio.Queue()
        self.delivered: list[str] = []

    def subscribe(self, pattern: str, handler: Handler) -> Subscription:
        token = next(self._ids)
        self._subscribers[token] = (pattern, handler)
        return Subscription(self, token)

    def unsubscribe(self, token: int) -> None:
        self._subscribers.pop(token, None)

    def matching(self, topic: str) -> list[Handler]:
        return [handler for pattern, handler in self._subscribers.values() if fnmatch.fnmatchcase(topic, pattern)]

    async def _deliver(self, event: Event) -> list[Any]:
        results = []
        for handler in self.matching(event.topic):
            outcome = handler(event)
            if inspect.isawaitable(outcome):
                outcome = await outcome
            results.append(outcome)
        self.delivered.append(event.topic)
        return results

    async def publish(self, topic: str, payload: str) -> list[Any]:
        return await self._deliver(Event(topic, payload))

    def post(self, topic: str, payload: str) -> None:
        self._queue.put_nowait(Event(topic, payload))

    def pending(self) -> int:
        return self._queue.qsize()

    async def drain(self) -> list[Any]:
        results: list[Any] = []
        while not self._queue.empty():
            event = self._queue.get_nowait()
            try:
                results.extend(await self._deliver(event))
            finally:
                self._queue.task_done()
        return results
