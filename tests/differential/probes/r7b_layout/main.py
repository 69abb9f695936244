"""How a project lays out its steps: a steps/ subpackage re-exporting by star imports whose __all__ is built by
adding its modules' lists, aliases in that __all__, a step a module's __all__ leaves out, lazy imports in a
step body and in helpers (and a lazy import of a plain function with a step's name), a conditional lazy import,
an import cycle resolved by importing at the bottom of a module, a handler table in the other half of the
cycle, and a `__name__ == "__main__"` block that does not run when the module is imported."""
from agent_framework import step, workflow

from r7b_layout import customers, orders
from r7b_layout.helpers import load_lazily, notify_lazily, pick_sender, plain_lazily
from r7b_layout.steps import *  # noqa: F403
from r7b_layout import steps as step_pkg


async def fetch_secret(key: str) -> str:  # plain: steps.fetch.__all__ leaves the step of this name out
    return "local-secret:" + key


async def local_render(text: str) -> str:
    return "local:" + text


ENTRY = local_render
if __name__ == "__main__":
    ENTRY = notify_user  # noqa: F405


@step
async def by_star_reexport(user: str) -> str:
    return await fetch_user(user)  # noqa: F405  # expect: STP001


@step
async def by_star_alias(order: str) -> str:
    return await load_order(order)  # noqa: F405  # expect: STP001


@step
async def near_miss_star_all(key: str) -> str:
    return await fetch_secret(key) + await render(key)  # noqa: F405


@step
async def by_subpackage_attribute(text: str) -> str:
    return await step_pkg.notify_user(text)  # expect: STP001


@step
async def by_submodule_attribute(key: str) -> str:
    return await step_pkg.fetch.fetch_secret(key)  # expect: STP001


@step
async def by_lazy_import_in_step(user: str) -> str:
    from r7b_layout.steps.fetch import fetch_user as lazy_fetch
    return await lazy_fetch(user)  # expect: STP001


@step
async def near_miss_lazy_plain_import(user: str) -> str:
    from .plain import send_mail
    return await send_mail(user)


@step
async def by_lazy_helper(order: str) -> str:
    return await load_lazily(order)  # expect: STP002


@step
async def near_miss_lazy_helper(user: str) -> str:
    return await plain_lazily(user)


@step
async def by_conditional_lazy_import(text: str) -> str:
    return await notify_lazily(text, True)  # expect: STP002


@step
async def near_miss_conditional_lazy_import(text: str) -> str:
    return await notify_lazily(text, False)


@step
async def by_picked_sender(text: str) -> str:
    sender = pick_sender(True)
    return await sender(text)  # expect: STP001


@step
async def near_miss_picked_sender(text: str) -> str:
    sender = pick_sender(False)
    return await sender(text)


@step
async def by_cycle_bottom_import(order: str) -> str:
    return await orders.place(order)  # expect: STP002


@step
async def near_miss_cycle_bottom_import(order: str) -> str:
    return await orders.place_quiet(order)


@step
async def by_cycle_table(order: str) -> str:
    return await customers.table()["fetch"](order)  # expect: STP001


@step
async def near_miss_cycle_table(order: str) -> str:
    return await customers.table()["describe"](order)


@step
async def near_miss_main_guard(text: str) -> str:
    return await ENTRY(text)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_star_reexport(mode), await by_star_alias(mode), await near_miss_star_all(mode),
        await by_subpackage_attribute(mode), await by_submodule_attribute(mode),
        await by_lazy_import_in_step(mode), await near_miss_lazy_plain_import(mode),
        await by_lazy_helper(mode), await near_miss_lazy_helper(mode),
        await by_conditional_lazy_import(mode), await near_miss_conditional_lazy_import(mode),
        await by_picked_sender(mode), await near_miss_picked_sender(mode),
        await by_cycle_bottom_import(mode), await near_miss_cycle_bottom_import(mode),
        await by_cycle_table(mode), await near_miss_cycle_table(mode), await near_miss_main_guard(mode),
    ]
    return "|".join(parts)


if __name__ == "__main__":
    import asyncio

    print(asyncio.run(flow.run("a")))
