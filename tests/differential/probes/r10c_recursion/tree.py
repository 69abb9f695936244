"""A routing tree: nested dicts whose leaves are handlers; dispatch walks it recursively."""
from typing import Any, Awaitable, Callable

from r10c_recursion.steps import create_order, fetch_user


async def list_orders(key: str) -> str:
    return "orders-of:" + key


async def user_count(key: str) -> str:
    return "count:" + str(len(key))


ROUTES: dict[str, Any] = {
    "orders": {"create": create_order, "list": list_orders},
    "users": {"get": {"by_id": fetch_user, "count": user_count}},
}


async def dispatch(tree: Any, path: list[str], payload: str) -> str:
    if callable(tree):
        handler: Callable[[str], Awaitable[str]] = tree
        return await handler(payload)
    head, *rest = path
    return await dispatch(tree[head], rest, payload)
