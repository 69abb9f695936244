"""Repositories and plugins: a unit of work used with ``async with`` (a SQL repository's ``add`` awaiting a
step, and ``__aexit__`` committing the shared session through a step), a read-only unit of work whose
abstract base's template method calls the concrete ``get``, a repository factory reading an env-defaulted
settings object, a shipping strategy table keyed by Enum members (by member, and by ``Shipping(value)`` from
settings), a plugin module imported by a constant name whose attribute is a step called in the step body,
and a plugin whose ``setup`` registers a hook run later. Near misses: the memory backend chosen by overriding
settings (plain repository and plain session), a unit of work rolled back by an exception, a repository class
looked up but never instantiated, the pickup strategy, and the no-op plugin."""
import importlib

from agent_framework import step, workflow

from r8a_repos.hooks import Hooks
from r8a_repos.plugins import load_plugin
from r8a_repos.repositories import REPOSITORY_BACKENDS, get_order_repository
from r8a_repos.settings import settings
from r8a_repos.shipping import SHIPPING_STRATEGIES, Shipping, quote_shipping
from r8a_repos.uow import UnitOfWork


class OutOfStock(Exception):
    pass


@step
async def by_unit_of_work(order: str) -> str:
    async with UnitOfWork() as uow:  # expect: STP002
        row = await uow.orders.add(order)  # expect: STP002
    return row + "/" + uow.outcome


@step
async def near_miss_unit_of_work_memory(order: str) -> str:
    async with UnitOfWork(settings.override(database_backend="memory")) as uow:  # imprecise: STP002
        row = await uow.orders.add(order)  # imprecise: STP002
    return row + "/" + uow.outcome


@step
async def near_miss_unit_of_work_rolled_back(order: str) -> str:
    try:
        async with UnitOfWork() as uow:  # imprecise: STP002
            uow.orders.stage(order)
            raise OutOfStock(order)
    except OutOfStock:
        return "out of stock/" + uow.outcome


@step
async def by_read_only_template_method(customer: str) -> str:
    async with UnitOfWork(read_only=True) as uow:
        rows = await uow.orders.list_for(customer)  # expect: STP002
    return ",".join(rows) + "/" + uow.outcome


@step
async def by_settings_repository(order: str) -> str:
    repo = get_order_repository()
    return await repo.get(order)  # expect: STP002


@step
async def near_miss_settings_overridden(order: str) -> str:
    repo = get_order_repository(settings.override(database_backend="memory"))
    return await repo.get(order)  # imprecise: STP002


@step
async def near_miss_repository_class_only(order: str) -> str:
    repo_class = REPOSITORY_BACKENDS[settings.database_backend]
    return repo_class.__name__ + ":" + repo_class.table_name + ":" + order


@step
async def by_enum_strategy(order: str) -> str:
    return await quote_shipping(Shipping.EXPRESS, order)  # expect: STP002


@step
async def near_miss_enum_strategy(order: str) -> str:
    return await quote_shipping(Shipping.PICKUP, order)


@step
async def by_enum_from_settings(order: str) -> str:
    method = Shipping(settings.default_shipping)
    strategy = SHIPPING_STRATEGIES[method]
    return await strategy(order)  # expect: STP002


@step
async def by_plugin_attribute(customer: str) -> str:
    plugin = importlib.import_module("r8a_repos.plugins.loyalty")
    return await plugin.on_order_placed(customer)  # expect: STP001


@step
async def near_miss_noop_plugin(customer: str) -> str:
    plugin = load_plugin("noop")
    return await plugin.on_order_placed(customer)


@step
async def by_plugin_hooks(customer: str) -> str:
    hooks = Hooks()
    load_plugin(settings.plugin).setup(hooks)
    results = await hooks.run("customer.updated", customer)  # unknown: STP002
    return ",".join(results)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_unit_of_work(mode), await near_miss_unit_of_work_memory(mode),
        await near_miss_unit_of_work_rolled_back(mode), await by_read_only_template_method(mode),
        await by_settings_repository(mode), await near_miss_settings_overridden(mode),
        await near_miss_repository_class_only(mode), await by_enum_strategy(mode), await near_miss_enum_strategy(mode),
        await by_enum_from_settings(mode), await by_plugin_attribute(mode), await near_miss_noop_plugin(mode),
        await by_plugin_hooks(mode),
    ]
    return "|".join(parts)
