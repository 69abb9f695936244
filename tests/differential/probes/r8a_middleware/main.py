"""Middleware and resilience written by hand: an ASGI-like app built with functools.reduce over middleware
classes (an audit middleware awaiting a step before call_next, an auth middleware verifying a token through a
step, an endpoint function defined in the step body and called by the middleware), tenacity-like ``@retry``
around a client that fails once and around a step itself, a ``@timeout`` decorator running the call under
asyncio.wait_for (refused: the step's Request argument has no replay identity in the other task), a circuit
breaker passing the call through while closed, a dict-backed ``@cached`` decorator on a miss, and a rate
limiter whose ``__aenter__`` awaits a step. Near misses: a stack of plain middleware, the auth middleware on a
public path, a retried plain function, an open breaker answering from its fallback, a cache hit, and an
in-memory rate limiter."""
from agent_framework import step, workflow

from r8a_middleware.clients import (authorize_within_deadline, fetch_stock, legacy_breaker, partner_breaker,
                                    partner_profile, pay, ping_partner, price_for)
from r8a_middleware.endpoints import health_endpoint, orders_endpoint
from r8a_middleware.http import Request, Response, build_app
from r8a_middleware.middleware import AuditMiddleware, AuthMiddleware, CorsMiddleware, TimingMiddleware
from r8a_middleware.ratelimit import LocalRateLimiter, RateLimiter
from r8a_middleware.steps import load_orders

api = build_app(orders_endpoint, [TimingMiddleware, AuditMiddleware])
internal = build_app(health_endpoint, [TimingMiddleware, CorsMiddleware])
secured = build_app(health_endpoint, [CorsMiddleware, AuthMiddleware])


@step
async def by_middleware_stack(user: str) -> str:
    response = await api(Request("/orders", user))  # expect: STP002
    return response.body + response.headers["X-Audit"]


@step
async def near_miss_plain_middleware_stack(user: str) -> str:
    response = await internal(Request("/health", user))  # imprecise: STP002
    return response.body


@step
async def by_auth_middleware(user: str) -> str:
    request = Request("/reports", user, headers={"Authorization": "Bearer " + user})
    response = await secured(request)  # expect: STP002
    return response.body + str(response.status)


@step
async def near_miss_auth_public_path(user: str) -> str:
    request = Request("/docs", user, headers={"Authorization": "Bearer " + user})
    response = await secured(request)  # imprecise: STP002
    return response.body


@step
async def by_endpoint_defined_in_body(user: str) -> str:
    async def endpoint(request: Request) -> Response:
        return Response(await load_orders(request.user))  # expect: STP001

    app = build_app(endpoint, [TimingMiddleware, CorsMiddleware])
    response = await app(Request("/orders", user))  # imprecise: STP002
    return response.body


@step
async def by_retry_after_failure(user: str) -> str:
    return await fetch_stock("sku-" + user)  # expect: STP002


@step
async def by_retry_around_step(user: str) -> str:
    return await pay(user)  # expect: STP002


@step
async def near_miss_retry_plain_function(user: str) -> str:
    return await ping_partner(user)


@step
async def by_timeout_decorator(user: str) -> str:
    return await authorize_within_deadline(Request("/pay", user))  # expect: STP002


@step
async def by_closed_circuit_breaker(user: str) -> str:
    return await partner_breaker.call(partner_profile, user)  # expect: STP002


@step
async def near_miss_open_circuit_breaker(user: str) -> str:
    return await legacy_breaker.call(partner_profile, user)  # imprecise: STP002


@step
async def by_cache_miss(user: str) -> str:
    return await price_for("sku-" + user)  # expect: STP002


@step
async def near_miss_cache_hit(user: str) -> str:
    return await price_for("sku-" + user)  # imprecise: STP002


@step
async def by_rate_limiter_enter(user: str) -> str:
    async with RateLimiter("orders:" + user) as limiter:  # expect: STP002
        return limiter.token


@step
async def near_miss_local_rate_limiter(user: str) -> str:
    async with LocalRateLimiter("orders:" + user, limit=5) as limiter:
        return limiter.bucket


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_middleware_stack(mode), await near_miss_plain_middleware_stack(mode), await by_auth_middleware(mode),
        await near_miss_auth_public_path(mode), await by_endpoint_defined_in_body(mode),
        await by_retry_after_failure(mode), await by_retry_around_step(mode), await near_miss_retry_plain_function(mode),
        await by_timeout_decorator(mode), await by_closed_circuit_breaker(mode),
        await near_miss_open_circuit_breaker(mode), await by_cache_miss(mode), await near_miss_cache_hit(mode),
        await by_rate_limiter_enter(mode), await near_miss_local_rate_limiter(mode),
    ]
    return "|".join(parts)
