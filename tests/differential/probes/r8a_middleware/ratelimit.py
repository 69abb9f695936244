"""Rate limiters used as ``async with``: a distributed one asks the token service on entry, a local one counts."""
from __future__ import annotations

from r8a_middleware.steps import acquire_token


class RateLimitExceeded(Exception):
    pass


class RateLimiter:
    def __init__(self, bucket: str, *, limit: int = 10) -> None:
        self.bucket = bucket
        self.limit = limit
        self.token = ""

    async def __aenter__(self) -> "RateLimiter":
        self.token = await acquire_token(self.bucket)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.token = ""


class LocalRateLimiter:
    counters: dict[str, int] = {}

    def __init__(self, bucket: str, *, limit: int = 10) -> None:
        self.bucket = bucket
        self.limit = limit

    async def __aenter__(self) -> "LocalRateLimiter":
        used = self.counters.get(self.bucket, 0)
        if used >= self.limit:
            raise RateLimitExceeded(self.bucket)
        self.counters[self.bucket] = used + 1
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None
