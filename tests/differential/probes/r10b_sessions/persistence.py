"""Persisters per type and databases with transaction control."""
from __future__ import annotations

from r10b_sessions.models import AuditEntry, Draft, User
from r10b_sessions.steps import commit_tx, create_savepoint, insert_row, rollback_tx, update_row


class SqlPersister:
    def __init__(self, table: str) -> None:
        self.table = table

    async def insert(self, obj) -> str:
        return await insert_row(f"{self.table}:{obj.name}")

    async def update(self, obj) -> str:
        return await update_row(f"{self.table}:{obj.name}")


class MemoryPersister:
    def __init__(self) -> None:
        self.rows: list[object] = []

    async def insert(self, obj) -> str:
        self.rows.append(obj)
        return f"memory:{len(self.rows)}"

    async def update(self, obj) -> str:
        return "memory:update"


PERSISTERS = {User: SqlPersister("users"), AuditEntry: MemoryPersister(), Draft: None}


class SqlDatabase:
    def __init__(self, name: str = "main") -> None:
        self.name = name

    async def commit(self) -> str:
        return await commit_tx(self.name)

    async def rollback(self) -> str:
        return await rollback_tx(self.name)

    async def savepoint(self, label: str) -> str:
        return await create_savepoint(f"{self.name}.{label}")

    async def release(self, label: str) -> str:
        return label


class NullDatabase:
    def __init__(self, name: str = "null") -> None:
        self.name = name
        self.history: list[str] = []

    async def commit(self) -> str:
        self.history.append("commit")
        return "noop"

    async def rollback(self) -> str:
        self.history.append("rollback")
        return "noop"

    async def savepoint(self, label: str) -> str:
        self.history.append("sp:" + label)
        return label

    async def release(self, label: str) -> str:
        return label
