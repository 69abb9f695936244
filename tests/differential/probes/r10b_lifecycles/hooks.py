"""Lifecycle hooks registered by application modules."""
from r10b_lifecycles.steps import warm_cache


async def warm_caches(app) -> None:
    for region in app.config.get("regions", []):
        await warm_cache(region)


async def log_startup(app) -> None:
    app.config.setdefault("log", []).append("startup")


async def flush_logs(app) -> None:
    app.config.setdefault("log", []).append("flushed")
