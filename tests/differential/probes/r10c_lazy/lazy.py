"""Lazy values and thunks."""
from typing import Any, Awaitable, Callable, Generic, Iterator, TypeVar

T = TypeVar("T")
Thunk = Callable[[], Awaitable[Any]]


class Lazy(Generic[T]):
    """Computes its value on the first get() and keeps it."""

    def __init__(self, factory: Callable[[], Awaitable[T]]) -> None:
        self._factory = factory
        self._done = False
        self._value: T | None = None

    @property
    def forced(self) -> bool:
        return self._done

    async def get(self) -> T:
        if not self._done:
            self._value = await self._factory()
            self._done = True
        return self._value  # type: ignore[return-value]


def thunk_of(fn: Callable[..., Awaitable[Any]], *args: Any) -> Thunk:
    return lambda: fn(*args)


async def force_if(condition: bool, thunk: Thunk, default: Any) -> Any:
    if condition:
        return await thunk()
    return default


async def echo(item: str) -> str:
    return "echo:" + item


async def cheap_summary(key: str) -> str:
    return "summary:" + key


def plan(items: list[str]) -> Iterator[Thunk]:
    """One thunk per item: items marked with '!' are escalated, the rest echoed."""
    from r10c_lazy.steps import escalate

    for item in items:
        if item.startswith("!"):
            yield thunk_of(escalate, item[1:])
        else:
            yield thunk_of(echo, item)
