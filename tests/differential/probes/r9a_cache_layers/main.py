"""Layered caches in front of steps: a functools.lru_cache'd sync resolver returning the loader (the step, or a
plain loader) that the step body then calls; a hand-written async memoize decorator keyed by args, around a plain
function that awaits a step and applied directly to a step (a miss reaches the step, a primed entry does not); a
two-level cache whose misses fall through a list of loader callbacks (a plain override returning None, then a
step); a dict-subclass TTLCache whose __getitem__ evicts expired entries and whose __missing__ schedules the loader
as a task; dict.setdefault given a freshly scheduled step call (evaluated eagerly), and given the step as an unused
default handler; an object pool whose async context manager opens a session through a step factory when empty.
Near misses: the static loader kind, a primed memo entry, an L2 hit, the override loader answering first, a fresh
TTL entry, the setdefault handler already present and a pool warmed with an idle session."""
import asyncio

from agent_framework import step, workflow

from r9a_cache_layers.caches import (
    FakeClock,
    SessionPool,
    TTLCache,
    TwoLevelCache,
    cache_key,
    cached_config,
    loader_for,
    local_override,
    reset_memos,
    user_profile,
)
from r9a_cache_layers.steps import compute_score, load_config, open_session, quick_score


@step
async def by_lru_resolved_loader(mode: str) -> str:
    user = await loader_for("user")(cache_key("U", mode))  # expect: STP001
    return user["name"]


@step
async def near_miss_lru_static_loader(mode: str) -> str:
    user = await loader_for("static")(cache_key("U", mode))
    return user["name"]


@step
async def by_memoized_profile_miss(mode: str) -> str:
    profile = await user_profile("u-" + mode)  # expect: STP002
    return profile["name"]


@step
async def near_miss_memoized_profile_primed(mode: str) -> str:
    user_profile.prime({"id": "vip", "name": "VIP", "profile": True}, "u-vip")
    profile = await user_profile("u-vip")  # imprecise: STP002
    return profile["name"]


@step
async def by_memoized_step(mode: str) -> str:
    first = await cached_config("color")  # expect: STP002
    again = await cached_config("color")  # imprecise: STP002
    return first + "/" + again


@step
async def by_two_level_fallback_loader(mode: str) -> str:
    cache = TwoLevelCache([local_override, load_config])
    return await cache.get("timeout")  # expect: STP002


@step
async def near_miss_two_level_l2_hit(mode: str) -> str:
    cache = TwoLevelCache([local_override, load_config])
    cache.l2["timeout"] = "30"
    return await cache.get("timeout") + await cache.get("timeout")  # imprecise: STP002


@step
async def near_miss_override_loader_first(mode: str) -> str:
    cache = TwoLevelCache([local_override, load_config])
    return await cache.get("theme")  # imprecise: STP002


@step
async def by_ttl_expired_entry(mode: str) -> str:
    clock = FakeClock()
    cache = TTLCache(load_config, ttl=60, clock=clock)
    cache.put("rate", "5/s")
    clock.advance(120)
    return await cache["rate"]  # unknown: STP002


@step
async def near_miss_ttl_fresh_entry(mode: str) -> str:
    clock = FakeClock()
    cache = TTLCache(load_config, ttl=60, clock=clock)
    cache.put("rate", "5/s")
    clock.advance(10)
    return await cache["rate"]


@step
async def by_setdefault_inflight_task(mode: str) -> str:
    inflight: dict = {}
    key = cache_key("score", mode)
    task = inflight.setdefault(key, asyncio.ensure_future(compute_score(key)))  # expect: STP001
    return str(await task)


@step
async def near_miss_setdefault_handler_present(mode: str) -> str:
    handlers = {"score": quick_score}
    handler = handlers.setdefault("score", compute_score)
    return str(await handler(cache_key("score", mode)))  # imprecise: STP001


@step
async def by_pool_factory_when_empty(mode: str) -> str:
    pool = SessionPool(open_session, "db://main")
    async with pool.session() as session:  # expect: STP002
        return session["dsn"]


@step
async def near_miss_pool_warm(mode: str) -> str:
    pool = SessionPool(open_session, "db://main")
    pool.release({"dsn": "db://idle", "open": True})
    async with pool.session() as session:  # imprecise: STP002
        return session["dsn"]


@workflow
async def flow(mode: str) -> str:
    reset_memos()
    parts = [
        await by_lru_resolved_loader(mode), await near_miss_lru_static_loader(mode),
        await by_memoized_profile_miss(mode), await near_miss_memoized_profile_primed(mode),
        await by_memoized_step(mode), await by_two_level_fallback_loader(mode),
        await near_miss_two_level_l2_hit(mode), await near_miss_override_loader_first(mode),
        await by_ttl_expired_entry(mode), await near_miss_ttl_fresh_entry(mode),
        await by_setdefault_inflight_task(mode), await near_miss_setdefault_handler_present(mode),
        await by_pool_factory_when_empty(mode), await near_miss_pool_warm(mode),
    ]
    return "|".join(parts)
