"""Database sessions: the SQL one commits through a step, the in-memory one just forgets its log."""
from __future__ import annotations

import itertools

from r8a_repos.steps import commit_transaction

_tx_ids = itertools.count(1)


class SqlSession:
    def __init__(self) -> None:
        self.tx = f"tx{next(_tx_ids)}"
        self.pending: list[str] = []

    async def commit(self) -> str:
        return await commit_transaction(self.tx + ":" + ",".join(self.pending))

    async def rollback(self) -> str:
        self.pending.clear()
        return "rollback:" + self.tx


class MemorySession:
    def __init__(self) -> None:
        self.pending: list[str] = []

    async def commit(self) -> str:
        done = ",".join(self.pending)
        self.pending.clear()
        return "memory-commit:" + done

    async def rollback(self) -> str:
        self.pending.clear()
        return "memory-rollback"
