"""Cache layers: an lru_cache'd resolver, an async memoize decorator, a two-level cache with fallback loaders, a
TTL cache whose __missing__ schedules its loader, and a small object pool."""
import asyncio
import contextlib
import functools
from typing import Any, Awaitable, Callable, Optional

from r9a_cache_layers.steps import default_config, load_config, load_user, static_user

Loader = Callable[[str], Awaitable[Any]]


@functools.lru_cache(maxsize=32)
def loader_for(kind: str) -> Loader:
    return {"user": load_user, "static": static_user, "config": default_config}[kind]


@functools.lru_cache(maxsize=128)
def cache_key(*parts: str) -> str:
    return ":".join(p.strip().lower() for p in parts)


_memo_tables: list[dict] = []


def amemo(fn: Loader) -> Loader:
    table: dict = {}
    _memo_tables.append(table)

    @functools.wraps(fn)
    async def wrapper(*args: str) -> Any:
        if args in table:
            return table[args]
        result = await fn(*args)
        table[args] = result
        return result

    wrapper.prime = lambda value, *args: table.__setitem__(args, value)
    return wrapper


def reset_memos() -> None:
    for table in _memo_tables:
        table.clear()


@amemo
async def user_profile(user_id: str) -> dict:
    user = await load_user(user_id)
    return {**user, "profile": True}


cached_config = amemo(load_config)


class TwoLevelCache:
    def __init__(self, loaders: list[Callable[[str], Awaitable[Optional[str]]]]) -> None:
        self.l1: dict[str, str] = {}
        self.l2: dict[str, str] = {}
        self.loaders = loaders

    async def get(self, key: str) -> str:
        if key in self.l1:
            return self.l1[key]
        if key in self.l2:
            self.l1[key] = self.l2.pop(key)
            return self.l1[key]
        for loader in self.loaders:
            value = await loader(key)
            if value is not None:
                self.l1[key] = value
                return value
        raise KeyError(key)


async def local_override(key: str) -> Optional[str]:
    return {"theme": "dark"}.get(key)


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def advance(self, seconds: float) -> None:
        self.now += seconds


class TTLCache(dict):
    def __init__(self, loader: Loader, ttl: float, clock: FakeClock) -> None:
        super().__init__()
        self.loader = loader
        self.ttl = ttl
        self.clock = clock
        self.expires: dict[str, float] = {}

    def put(self, key: str, value: Any) -> None:
        fut = asyncio.get_running_loop().create_future()
        fut.set_result(value)
        super().__setitem__(key, fut)
        self.expires[key] = self.clock.now + self.ttl

    def __getitem__(self, key: str) -> "asyncio.Future":
        if key in self.expires and self.expires[key] <= self.clock.now:
            del self.expires[key]
            super().__delitem__(key)
        return super().__getitem__(key)

    def __missing__(self, key: str) -> "asyncio.Future":
        fut = asyncio.ensure_future(self.loader(key))
        super().__setitem__(key, fut)
        self.expires[key] = self.clock.now + self.ttl
        return fut


class SessionPool:
    def __init__(self, factory: Callable[[str], Awaitable[dict]], dsn: str, size: int = 2) -> None:
        self.factory = factory
        self.dsn = dsn
        self.size = size
        self.idle: list[dict] = []

    def release(self, session: dict) -> None:
        if len(self.idle) < self.size:
            self.idle.append(session)

    @contextlib.asynccontextmanager
    async def session(self):
        conn = self.idle.pop() if self.idle else await self.factory(self.dsn)
        try:
            yield conn
        finally:
            self.release(conn)
