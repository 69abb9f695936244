"""Handlers parameterized over payload type, with Protocol collaborators passed in."""
from __future__ import annotations

from typing import Generic, TypeVar, overload

from r9b_generics import steps
from r9b_generics.protocols import Sink, Transform, Transport

P = TypeVar("P")
C = TypeVar("C", bound="Client")


class StepSink:
    async def write(self, payload: str) -> str:
        return await steps.persist(payload)


class MemorySink:
    def __init__(self) -> None:
        self.rows: list[str] = []

    async def write(self, payload: str) -> str:
        self.rows.append(payload)
        return "kept:" + payload


class Handler(Generic[P]):
    def __init__(self, sink: Sink, transform: Transform | None = None) -> None:
        self.sink = sink
        self.transform = transform

    def encode(self, item: P) -> str:
        return str(item)

    async def handle(self, item: P) -> str:
        payload = self.encode(item)
        if self.transform is not None:
            payload = await self.transform(payload)
        return await self.sink.write(payload)

    def describe(self) -> str:
        name = getattr(self.transform, "name", None) or getattr(self.transform, "__name__", "identity")
        return f"{type(self.sink).__name__}+{name}"


class IntHandler(Handler[int]):
    def encode(self, item: int) -> str:
        return f"{item:04d}"


class Client:
    transport_name = "none"

    def __init__(self) -> None:
        self.calls = 0

    async def call(self, payload: str) -> str:
        self.calls += 1
        return await self._send(payload)

    async def _send(self, payload: str) -> str:
        return "offline:" + payload


class RemoteClient(Client):
    transport_name = "http"

    async def _send(self, payload: str) -> str:
        return await steps.call_remote(payload)


class OfflineClient(Client):
    transport_name = "file"


class StepTransport:
    name = "step"
    send = steps.call_remote


class LoopbackTransport:
    name = "loop"

    async def send(self, payload: str) -> str:
        return "loop:" + payload


def make(cls: type[C]) -> C:
    instance = cls()
    return instance


def make_transport(kind: type[Transport]) -> Transport:
    return kind()


async def relay(transport: Transport, payload: str) -> str:
    return await transport.send(payload)


@overload
async def render(value: int) -> str: ...
@overload
async def render(value: str) -> str: ...
@overload
async def render(value: list[str]) -> str: ...
async def render(value: int | str | list[str]) -> str:
    if isinstance(value, bool):
        return "flag:" + str(value)
    if isinstance(value, int):
        return await steps.render_number(str(value))
    if isinstance(value, list):
        return ",".join(value)
    return "text:" + value
