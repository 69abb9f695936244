"""Concrete repositories by backend name, and the session each backend uses."""
from r8a_repos.repositories.base import OrderRepository
from r8a_repos.repositories.memory import InMemoryOrderRepository
from r8a_repos.repositories.sql import SqlOrderRepository
from r8a_repos.sessions import MemorySession, SqlSession
from r8a_repos.settings import Settings, settings as default_settings

REPOSITORY_BACKENDS: dict[str, type[OrderRepository]] = {
    "postgres": SqlOrderRepository,
    "sqlite": SqlOrderRepository,
    "memory": InMemoryOrderRepository,
}
SESSION_BACKENDS = {"postgres": SqlSession, "sqlite": SqlSession, "memory": MemorySession}


def get_order_repository(config: Settings = default_settings) -> OrderRepository:
    backend = config.database_backend
    return REPOSITORY_BACKENDS[backend](SESSION_BACKENDS[backend]())
