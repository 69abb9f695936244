"""Application lifecycle code: startup and shutdown hook lists (plain appends, a decorator registering a
nested hook, a lambda hook), services started in topological order (all of them, or only what a target
needs), batch starts with graphlib's prepare/get_ready/done loop, health checks over enabled services, and a
lifespan context manager. Near misses disable the step-backed service by config, configure no cache regions,
remove the hook before startup, or only start services that live in memory."""
from agent_framework import step, workflow

from r10b_lifecycles.app import App
from r10b_lifecycles.hooks import flush_logs, log_startup, warm_caches
from r10b_lifecycles.services import ApiService, CacheService, DatabaseService, MetricsService, SearchService
from r10b_lifecycles.steps import stop_service, warm_cache


def build_app(config: dict) -> App:
    app = App(config)
    app.add_service(DatabaseService(config))
    app.add_service(CacheService(config))
    app.add_service(ApiService(config), depends_on=("db", "cache"))
    app.add_service(MetricsService(config))
    return app


@step
async def by_startup_hook_warms_cache(env: str) -> str:
    app = App({"regions": ["eu", "us"]}).add_service(CacheService())
    app.on_startup.append(log_startup)
    app.on_startup.append(warm_caches)
    await app.startup()  # expect: STP002
    return ",".join(app.started)


@step
async def near_miss_startup_hook_without_regions(env: str) -> str:
    app = App({"regions": []}).add_service(CacheService())
    app.on_startup.append(warm_caches)
    await app.startup()  # imprecise: STP002
    return ",".join(app.started)


@step
async def near_miss_hook_removed_before_startup(env: str) -> str:
    app = App({"regions": ["eu"]}).add_service(MetricsService())
    app.on_startup.extend([log_startup, warm_caches])
    if env != "prod":
        app.on_startup.remove(warm_caches)
    await app.startup()  # imprecise: STP002
    return ",".join(app.config["log"])


@step
async def by_topological_start(env: str) -> str:
    app = build_app({})
    started = await app.start_services()  # expect: STP002
    return ",".join(started)


@step
async def near_miss_database_disabled(env: str) -> str:
    app = build_app({"db": {"enabled": False}})
    started = await app.start_services()  # imprecise: STP002
    return ",".join(started)


@step
async def by_dependencies_of_target(env: str) -> str:
    app = build_app({})
    return ",".join(await app.start_services("api"))  # expect: STP002


@step
async def near_miss_targets_without_database(env: str) -> str:
    app = build_app({})
    return ",".join(await app.start_services("metrics", "cache"))  # imprecise: STP002


@step
async def near_miss_batches_database_disabled(env: str) -> str:
    app = build_app({"db": {"enabled": False}})
    batches = await app.start_in_batches()  # imprecise: STP002
    return ";".join(",".join(batch) for batch in batches)


@step
async def by_health_check(env: str) -> str:
    app = App({"search": {"url": "search." + env}})
    app.add_service(SearchService(app.config)).add_service(CacheService(app.config))
    report = await app.health()  # expect: STP002
    return ",".join(f"{k}={v}" for k, v in report.items())


@step
async def near_miss_health_search_disabled(env: str) -> str:
    app = App({"search": {"enabled": False}})
    app.add_service(SearchService(app.config)).add_service(CacheService(app.config))
    report = await app.health()  # imprecise: STP002
    return ",".join(f"{k}={v}" for k, v in report.items())


@step
async def by_lambda_startup_hook(env: str) -> str:
    app = App({}).add_service(MetricsService())
    app.on_startup.append(lambda a: warm_cache("region-" + env))  # expect: STP001
    await app.startup()  # imprecise: STP002
    return ",".join(app.started)


@step
async def by_decorated_shutdown_hook(env: str) -> str:
    app = App({}).add_service(CacheService())

    @app.hook("shutdown")
    async def notify_peers(a: App) -> None:
        await stop_service("peers-" + env)  # expect: STP001

    await app.startup()  # imprecise: STP002
    await app.shutdown()  # imprecise: STP002
    return ",".join(app.started)


@step
async def by_lifespan(env: str) -> str:
    app = build_app({"cache": {"enabled": False}})
    async with app.lifespan():  # expect: STP002
        status = await app.health()  # imprecise: STP002
    return ",".join(sorted(status))


@step
async def near_miss_lifespan_in_memory(env: str) -> str:
    app = App({}).add_service(CacheService()).add_service(MetricsService())
    app.on_startup.append(log_startup)
    app.on_shutdown.append(flush_logs)
    async with app.lifespan():  # imprecise: STP002
        status = await app.health()  # imprecise: STP002
    return ",".join(app.config["log"]) + ":" + ",".join(status.values())


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_startup_hook_warms_cache(mode), await near_miss_startup_hook_without_regions(mode),
        await near_miss_hook_removed_before_startup(mode), await by_topological_start(mode),
        await near_miss_database_disabled(mode), await by_dependencies_of_target(mode),
        await near_miss_targets_without_database(mode), await near_miss_batches_database_disabled(mode),
        await by_health_check(mode), await near_miss_health_search_disabled(mode),
        await by_lambda_startup_hook(mode), await by_decorated_shutdown_hook(mode), await by_lifespan(mode),
        await near_miss_lifespan_in_memory(mode),
    ]
    return "|".join(parts)
