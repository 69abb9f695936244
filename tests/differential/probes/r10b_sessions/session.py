"""A unit of work: tracks new and dirty objects, flushes them through the persister for their type, commits
or rolls back on exit, and supports nested sessions (savepoints) on a stack."""
from __future__ import annotations

from r10b_sessions.persistence import PERSISTERS


class Session:
    def __init__(self, db, persisters: dict | None = None) -> None:
        self.db = db
        self.persisters = PERSISTERS if persisters is None else persisters
        self.new: list[object] = []
        self.dirty: set[object] = set()
        self._savepoints: list[str] = []
        self.flushed: list[str] = []

    def add(self, obj) -> None:
        self.new.append(obj)

    def mark_dirty(self, obj) -> None:
        if obj not in self.new:
            self.dirty.add(obj)

    def expunge(self, obj) -> None:
        if obj in self.new:
            self.new.remove(obj)
        self.dirty.discard(obj)

    def persister_for(self, obj):
        for cls in type(obj).__mro__:
            if cls in self.persisters:
                return self.persisters[cls]
        raise LookupError(type(obj).__name__)

    async def flush(self) -> list[str]:
        for obj in list(self.new):
            persister = self.persister_for(obj)
            if persister is not None:
                self.flushed.append(await persister.insert(obj))
        for obj in sorted(self.dirty, key=lambda o: type(o).__name__):
            persister = self.persister_for(obj)
            if persister is not None:
                self.flushed.append(await persister.update(obj))
        self.new.clear()
        self.dirty.clear()
        return self.flushed

    async def commit(self) -> str:
        await self.flush()
        return await self.db.commit()

    async def rollback(self) -> str:
        self.new.clear()
        self.dirty.clear()
        return await self.db.rollback()

    def begin_nested(self) -> "NestedSession":
        return NestedSession(self, f"sp{len(self._savepoints) + 1}")

    async def __aenter__(self) -> "Session":
        return self

    async def __aexit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            await self.commit()
        else:
            await self.rollback()
        return False


class NestedSession:
    def __init__(self, parent: Session, label: str) -> None:
        self.parent = parent
        self.label = label

    def add(self, obj) -> None:
        self.parent.add(obj)

    async def __aenter__(self) -> "NestedSession":
        self.parent._savepoints.append(self.label)
        await self.parent.db.savepoint(self.label)
        return self

    async def __aexit__(self, exc_type, exc, tb) -> bool:
        label = self.parent._savepoints.pop()
        await self.parent.db.release(label)
        return exc_type is ValueError
