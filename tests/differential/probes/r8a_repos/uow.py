"""A unit of work: repositories share one session, committed on a clean exit and rolled back otherwise."""
from __future__ import annotations

from r8a_repos.repositories import REPOSITORY_BACKENDS, SESSION_BACKENDS
from r8a_repos.settings import Settings, settings as default_settings


class UnitOfWork:
    def __init__(self, config: Settings | None = None, *, read_only: bool = False) -> None:
        self.config = config or default_settings
        self.read_only = read_only
        self.outcome = ""

    async def __aenter__(self) -> "UnitOfWork":
        backend = self.config.database_backend
        self.session = SESSION_BACKENDS[backend]()
        self.orders = REPOSITORY_BACKENDS[backend](self.session)
        return self

    async def __aexit__(self, exc_type, exc, tb) -> bool:  # noqa: ANN001
        if exc_type is not None:
            self.outcome = await self.session.rollback()
        elif not self.read_only:
            self.outcome = await self.session.commit()
        else:
            self.outcome = "read-only"
        return False
