"""Idioms of application code around steps: decorators that wrap, registries, namespaces, dict methods,
selection builtins, unpacking, the walrus, context variables, class-syntax records, cached factories."""
import contextvars
import functools
import types
from typing import NamedTuple

from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


async def plain(label: str) -> str:
    return "plain:" + label


def logged(function):  # noqa: ANN001, ANN201
    @functools.wraps(function)
    async def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        return await function(*args, **kwargs)
    return wrapper


logged_fetch = logged(fetch)
logged_plain = logged(plain)


@logged
async def decorated_helper(label: str) -> str:
    return await fetch(label)


HANDLERS: dict = {}


def handles(kind: str):  # noqa: ANN201
    def register(function):  # noqa: ANN001, ANN202
        HANDLERS[kind] = function
        return function
    return register


@handles("fetch")
@step
async def fetch_handler(label: str) -> str:
    return "handler:" + label


@handles("plain")
async def plain_handler(label: str) -> str:
    return "plain-handler:" + label


TOOLS = types.SimpleNamespace(fetch=fetch, plain=plain)
CURRENT: contextvars.ContextVar = contextvars.ContextVar("current", default=plain)


class Route(NamedTuple):
    name: str
    run: object


ROUTES = [Route("fetch", fetch), Route("plain", plain)]


@functools.lru_cache(maxsize=None)
def pick(kind: str):  # noqa: ANN201
    return fetch if kind == "fetch" else plain


@step
async def by_wraps_decorator(label: str) -> str:
    return await logged_fetch(label)  # expect: STP002


@step
async def near_miss_wraps_decorator(label: str) -> str:
    return await logged_plain(label)


@step
async def by_decorated_helper(label: str) -> str:
    return await decorated_helper(label)  # expect: STP002


@step
async def by_registry(label: str) -> str:
    return await HANDLERS["fetch"](label)  # expect: STP001


@step
async def near_miss_registry(label: str) -> str:
    return await HANDLERS["plain"](label)


@step
async def by_namespace(label: str) -> str:
    return await TOOLS.fetch(label)  # expect: STP001


@step
async def near_miss_namespace(label: str) -> str:
    return await TOOLS.plain(label)


@step
async def by_dict_get(label: str) -> str:
    table = {"f": fetch, "p": plain}
    return await table.get("f", plain)(label)  # expect: STP001


@step
async def near_miss_dict_get(label: str) -> str:
    table = {"f": fetch, "p": plain}
    return await table.get("p", plain)(label)


@step
async def by_setdefault(label: str) -> str:
    table: dict = {}
    return await table.setdefault("f", fetch)(label)  # expect: STP001


@step
async def by_pop(label: str) -> str:
    table = {"f": fetch, "p": plain}
    return await table.pop("f")(label)  # expect: STP001


@step
async def by_next_iter(label: str) -> str:
    return await next(iter([fetch, plain]))(label)  # expect: STP001


@step
async def by_star_unpacking(label: str) -> str:
    first, *rest = [plain, fetch]
    return await rest[0](label)  # expect: STP001


@step
async def near_miss_star_unpacking(label: str) -> str:
    first, *rest = [plain, fetch]
    return await first(label)


@step
async def by_walrus(label: str) -> str:
    if (chosen := fetch) is not None:
        return await chosen(label)  # expect: STP001
    return label


@step
async def by_context_variable(label: str) -> str:
    token = CURRENT.set(fetch)
    try:
        return await CURRENT.get()(label)  # unknown: STP001
    finally:
        CURRENT.reset(token)


@step
async def near_miss_context_variable(label: str) -> str:
    return await CURRENT.get()(label)


@step
async def by_named_tuple_class(label: str) -> str:
    return await ROUTES[0].run(label)  # expect: STP001


@step
async def near_miss_named_tuple_class(label: str) -> str:
    return await ROUTES[1].run(label)


@step
async def by_cached_factory(label: str) -> str:
    return await pick("fetch")(label)  # expect: STP001


@step
async def near_miss_cached_factory(label: str) -> str:
    return await pick("plain")(label)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_wraps_decorator(mode), await near_miss_wraps_decorator(mode), await by_decorated_helper(mode),
        await by_registry(mode), await near_miss_registry(mode), await by_namespace(mode),
        await near_miss_namespace(mode), await by_dict_get(mode), await near_miss_dict_get(mode),
        await by_setdefault(mode), await by_pop(mode), await by_next_iter(mode), await by_star_unpacking(mode),
        await near_miss_star_unpacking(mode), await by_walrus(mode), await by_context_variable(mode),
        await near_miss_context_variable(mode), await by_named_tuple_class(mode),
        await near_miss_named_tuple_class(mode), await by_cached_factory(mode), await near_miss_cached_factory(mode),
    ]
    return "|".join(parts)
