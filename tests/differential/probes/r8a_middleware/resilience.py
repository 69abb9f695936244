"""Hand-written resilience decorators in the style of tenacity: retry, timeout, a circuit breaker."""
from __future__ import annotations

import asyncio
import functools
from typing import Any, Awaitable, Callable

AsyncFunc = Callable[..., Awaitable[Any]]


def retry(times: int = 3, exceptions: tuple[type[BaseException], ...] = (ConnectionError,)) -> Callable[[AsyncFunc], AsyncFunc]:
    def decorator(func: AsyncFunc) -> AsyncFunc:
        @functools.wraps(func)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            last: BaseException | None = None
            for attempt in range(1, times + 1):
                try:
                    return await func(*args, **kwargs)
                except exceptions as error:
                    last = error
                    await asyncio.sleep(0)
            raise RuntimeError(f"gave up after {times} attempts") from last
        return wrapper
    return decorator


def timeout(seconds: float) -> Callable[[AsyncFunc], AsyncFunc]:
    def decorator(func: AsyncFunc) -> AsyncFunc:
        @functools.wraps(func)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            return await asyncio.wait_for(func(*args, **kwargs), seconds)  # expect: STP020
        return wrapper
    return decorator


class CircuitOpenError(Exception):
    pass


class CircuitBreaker:
    def __init__(self, name: str, threshold: int = 3, fallback: Callable[..., Any] | None = None) -> None:
        self.name = name
        self.threshold = threshold
        self.failures = 0
        self.fallback = fallback

    @property
    def is_open(self) -> bool:
        return self.failures >= self.threshold

    def trip(self) -> None:
        self.failures = self.threshold

    async def call(self, func: AsyncFunc, *args: Any) -> Any:
        if self.is_open:
            if self.fallback is None:
                raise CircuitOpenError(self.name)
            return self.fallback(*args)
        try:
            result = await func(*args)
        except Exception:
            self.failures += 1
            raise
        self.failures = 0
        return result
