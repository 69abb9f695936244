"""Client functions wrapped in the resilience decorators."""
from r8a_middleware.caching import cached
from r8a_middleware.http import Request
from r8a_middleware.resilience import CircuitBreaker, retry, timeout
from r8a_middleware.steps import authorize, call_partner, fetch_inventory, quote_price, render, submit_payment

_attempts: dict[str, int] = {}


@retry(times=3)
async def fetch_stock(sku: str) -> str:
    _attempts[sku] = _attempts.get(sku, 0) + 1
    if _attempts[sku] == 1:
        raise ConnectionError("inventory service reset the connection")
    return await fetch_inventory(sku)


pay = retry(times=2)(submit_payment)


@retry(times=3)
async def ping_partner(user: str) -> str:
    return render("pong " + user)


@timeout(0.5)
async def authorize_within_deadline(request: Request) -> str:
    return await authorize(request)


@cached
async def price_for(sku: str) -> str:
    return await quote_price(sku)


partner_breaker = CircuitBreaker("partner", threshold=2)
legacy_breaker = CircuitBreaker("legacy", threshold=1, fallback=lambda user: "cached-partner:" + user)
legacy_breaker.trip()


async def partner_profile(user: str) -> str:
    return await call_partner(user)
