"""A generic repository base with concrete subclasses."""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from r9b_generics import steps

T = TypeVar("T")
K = TypeVar("K", bound=str)


@dataclass(frozen=True)
class User:
    key: str
    label: str


@dataclass(frozen=True)
class Order:
    key: str
    label: str


class Repository(ABC, Generic[T]):
    entity: ClassVar[str] = "entity"

    def __init__(self) -> None:
        self._seen: dict[str, T] = {}

    async def fetch(self, key: str) -> T:
        if key in self._seen:
            return self._seen[key]
        raw = await self._load(key)
        item = self._decode(key, raw)
        self._seen[key] = item
        return item

    @abstractmethod
    async def _load(self, key: str) -> str: ...

    @abstractmethod
    def _decode(self, key: str, raw: str) -> T: ...


class UserRepository(Repository[User]):
    entity = "user"

    async def _load(self, key: str) -> str:
        return await steps.load_user(key)

    def _decode(self, key: str, raw: str) -> User:
        return User(key, raw)


class OrderRepository(Repository[Order]):
    entity = "order"

    async def _load(self, key: str) -> str:
        return await steps.load_order(key)

    def _decode(self, key: str, raw: str) -> Order:
        return Order(key, raw)


class InMemoryUserRepository(Repository[User]):
    entity = "user"

    def __init__(self, rows: dict[str, str] | None = None) -> None:
        super().__init__()
        self._rows = rows or {}

    async def _load(self, key: str) -> str:
        return self._rows.get(key, "anonymous")

    def _decode(self, key: str, raw: str) -> User:
        return User(key, raw)


REGISTRY: dict[str, Repository[object]] = {
    "users": UserRepository(),  # type: ignore[dict-item]
    "orders": OrderRepository(),  # type: ignore[dict-item]
    "memory": InMemoryUserRepository({"a": "alice"}),  # type: ignore[dict-item]
}


def lookup(name: str) -> Repository[object]:
    return REGISTRY[name]
