"""Connections and a pool handing them out through an asyncio.Queue."""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

from r10b_pools.steps import open_db_connection, release_connection, run_query


class PoolClosed(RuntimeError):
    pass


class DbConnection:
    def __init__(self, name: str, handle: str = "") -> None:
        self.name = name
        self.handle = handle

    async def execute(self, sql: str) -> str:
        return await run_query(f"{self.name}: {sql}")


class MemoryConnection:
    def __init__(self, name: str, handle: str = "") -> None:
        self.name = name
        self.handle = handle
        self.log: list[str] = []

    async def execute(self, sql: str) -> str:
        self.log.append(sql)
        return f"{self.name}: 0 rows"


class Pool:
    """Connections are opened lazily (through the driver) up to `size`, unless the pool is prewarmed."""

    def __init__(self, dsn: str, size: int = 2, *, connection_cls=DbConnection, prewarmed: bool = False) -> None:
        self.dsn = dsn
        self.size = size
        self.connection_cls = connection_cls
        self._idle: asyncio.Queue = asyncio.Queue()
        self._opened = 0
        self.closed = False
        if prewarmed:
            for _ in range(size):
                self._idle.put_nowait(self._new(""))

    def _new(self, handle: str):
        self._opened += 1
        return self.connection_cls(f"{self.dsn}#{self._opened}", handle)

    async def _open(self):
        handle = await open_db_connection(self.dsn)
        return self._new(handle)

    async def checkout(self):
        if self.closed:
            raise PoolClosed(self.dsn)
        if self._idle.empty() and self._opened < self.size:
            return await self._open()
        return await self._idle.get()

    def release(self, conn) -> None:
        self._idle.put_nowait(conn)

    @asynccontextmanager
    async def acquire(self):
        conn = await self.checkout()
        try:
            yield conn
        finally:
            self.release(conn)

    async def close(self) -> None:
        self.closed = True
        while not self._idle.empty():
            self._idle.get_nowait()


class AuditedPool(Pool):
    """Hands connections back through the driver so the server can reset session state."""

    async def give_back(self, conn) -> str:
        self.release(conn)
        return await release_connection(conn.name)


class QuietPool(Pool):
    async def give_back(self, conn) -> str:
        self.release(conn)
        return conn.name


async def reset_connection(name: str) -> str:
    return "reset:" + name
