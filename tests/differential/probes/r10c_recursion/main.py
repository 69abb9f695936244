"""Recursion around steps: descent through a dict tree whose leaves are handlers (module
level, and built in the step with lambda leaves), a recursive retry around a
flaky callable (succeeding in time, and exhausting its attempts), mutual recursion between even/odd helpers, a
functools.cache'd recursive alias lookup returning a handler, and a visitor dispatching visit_<kind> by getattr
(with an alert deep in the tree, without one, with a misspelt kind, and in a subclass muting alerts)."""
from agent_framework import step, workflow

from r10c_recursion.parity import even
from r10c_recursion.registry import resolve
from r10c_recursion.retrying import Flaky, TransientError, retry
from r10c_recursion.steps import charge, create_order
from r10c_recursion.tree import ROUTES, dispatch, list_orders
from r10c_recursion.visitor import Node, QuietVisitor, Visitor


@step
async def by_tree_descent(key: str) -> str:
    return await dispatch(ROUTES, ["users", "get", "by_id"], key)  # expect: STP002


@step
async def near_miss_tree_descent(key: str) -> str:
    return await dispatch(ROUTES, ["users", "get", "count"], key)  # imprecise: STP002


@step
async def by_local_tree_lambda(key: str) -> str:
    local_routes = {"orders": {"create": lambda k: create_order(k), "list": lambda k: list_orders(k)}}  # expect: STP001
    return await dispatch(local_routes, ["orders", "create"], key)


@step
async def by_recursive_retry(key: str) -> str:
    flaky = Flaky(fail_times=2, then=charge)
    return await retry(flaky, key, attempts=3)  # expect: STP002


@step
async def near_miss_retry_exhausted(key: str) -> str:
    flaky = Flaky(fail_times=5, then=charge)
    try:
        return await retry(flaky, key, attempts=3)  # imprecise: STP002
    except TransientError:
        return "gave-up:" + key


@step
async def by_mutual_recursion(key: str) -> str:
    return await even(4, key)  # expect: STP002


@step
async def near_miss_mutual_recursion(key: str) -> str:
    return await even(3, key)  # imprecise: STP002


@step
async def by_cached_alias_lookup(key: str) -> str:
    handler = resolve("checkout")
    return await handler(key)  # expect: STP001


@step
async def near_miss_cached_alias_lookup(key: str) -> str:
    handler = resolve("health")
    return await handler(key)  # imprecise: STP001


@step
async def by_visitor(key: str) -> str:
    tree = Node("group", children=[Node("leaf", key), Node("group", children=[Node("alert", key)])])
    return await Visitor().visit(tree)  # expect: STP002


@step
async def near_miss_visitor_leaves(key: str) -> str:
    tree = Node("group", children=[Node("leaf", key), Node("group", children=[Node("leaf", key)])])
    return await Visitor().visit(tree)


@step
async def near_miss_visitor_misspelt(key: str) -> str:
    tree = Node("group", children=[Node("leaf", key), Node("alrt", key)])
    return await Visitor().visit(tree)


@step
async def near_miss_quiet_visitor(key: str) -> str:
    tree = Node("group", children=[Node("alert", key)])
    return await QuietVisitor().visit(tree)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_tree_descent(mode), await near_miss_tree_descent(mode), await by_local_tree_lambda(mode),
        await by_recursive_retry(mode),
        await near_miss_retry_exhausted(mode), await by_mutual_recursion(mode),
        await near_miss_mutual_recursion(mode), await by_cached_alias_lookup(mode),
        await near_miss_cached_alias_lookup(mode), await by_visitor(mode), await near_miss_visitor_leaves(mode),
        await near_miss_visitor_misspelt(mode), await near_miss_quiet_visitor(mode),
    ]
    return "|".join(parts)
