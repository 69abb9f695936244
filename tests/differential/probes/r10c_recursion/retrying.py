"""A recursive retry, and a flaky callable that fails a fixed number of times before delegating."""
from typing import Awaitable, Callable


class TransientError(Exception):
    pass


class Flaky:
    def __init__(self, fail_times: int, then: Callable[[str], Awaitable[str]]) -> None:
        self.fail_times = fail_times
        self.then = then
        self.calls = 0

    async def __call__(self, key: str) -> str:
        self.calls += 1
        if self.calls <= self.fail_times:
            raise TransientError(f"attempt {self.calls}")
        return await self.then(key)


async def retry(fn: Callable[[str], Awaitable[str]], key: str, attempts: int) -> str:
    try:
        return await fn(key)
    except TransientError:
        if attempts <= 1:
            raise
        return await retry(fn, key, attempts - 1)
