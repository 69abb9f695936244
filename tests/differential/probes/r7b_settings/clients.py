"""Clients: a Protocol for what a transport looks like, a client class, module-level singletons and a lazy one."""
from __future__ import annotations

import functools
from typing import Protocol

from .steps import http_get, plain_store, store_blob


class Transport(Protocol):
    async def send(self, text: str) -> str: ...


class StepTransport:  # satisfies Transport structurally, never subclasses it
    async def send(self, text: str) -> str:
        return await http_get(text)


class NullTransport:
    async def send(self, text: str) -> str:
        return "null:" + text


class ApiClient:
    transport: Transport

    def __init__(self, transport: Transport | None = None) -> None:
        self.transport = transport if transport is not None else NullTransport()

    async def get(self, text: str) -> str:
        return await self.transport.send(text)


class Storage:
    def __init__(self, writer) -> None:  # noqa: ANN001
        self.writer = writer

    async def put(self, text: str) -> str:
        return await self.writer(text)


class App:
    def __init__(self, remote: bool) -> None:
        self.remote = remote

    @functools.cached_property
    def client(self) -> ApiClient:
        return ApiClient(StepTransport() if self.remote else None)

    @functools.cached_property
    def storage(self) -> Storage:
        return Storage(store_blob if self.remote else plain_store)


api = ApiClient(StepTransport())
offline_api = ApiClient()

_storage: Storage | None = None


def get_storage() -> Storage:
    global _storage
    if _storage is None:
        _storage = Storage(store_blob)
    return _storage
