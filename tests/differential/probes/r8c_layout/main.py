"""A multi-module agent package around steps: agents re-exported from agents/__init__.py with __all__ and brought
in by a star import (a planner whose method awaits a step imported with `from ..steps`, a reviewer two packages
down importing its step with `from ...steps`), a step imported inside the outer body, a plain loader importing the
exporters module lazily and returning the step it re-exports (called in the outer body), handler modules loaded
with importlib.import_module(f"r8c_layout.handlers.{name}") for names from a constant tuple, a module-level action
registry filled at import time by decorators in several modules (a step registered as it is, a plain action
awaiting a planner), and a circular import between publishing and drafts resolved by importing inside the
function. Near misses: the plain writer agent, a non-strict reviewer that skips its step, the lazily loaded plain
exporter, handler modules without a step (one with a plain function named like a step), the plain registered
action, the preview path of the circular pair, and a re-exported step only queued (never called in a step)."""
import importlib

from agent_framework import step, workflow

from r8c_layout import publishing
from r8c_layout.agents import *  # noqa: F403
from r8c_layout.registry import ACTIONS

BILLING_PIPELINE = ("greeting", "billing")
COURTESY_PIPELINE = ("greeting", "audit")


def _exporter(fmt: str):
    from r8c_layout import exporters

    return getattr(exporters, f"export_{fmt}")


async def _run_handlers(names: tuple[str, ...], text: str) -> list[str]:
    replies = []
    for name in names:
        module = importlib.import_module(f"r8c_layout.handlers.{name}")
        replies.append(await module.handle(text))
    return replies


@step
async def by_reexported_agent(text: str) -> str:
    return await Planner(style="numbered").plan(text)  # noqa: F405  # expect: STP002


@step
async def near_miss_reexported_plain_agent(text: str) -> str:
    return await Writer().write(text + ";review;ship")  # noqa: F405


@step
async def by_two_levels_relative_import(text: str) -> str:
    reviewer = Reviewer()  # noqa: F405
    return await reviewer.review(text)  # expect: STP002


@step
async def near_miss_lenient_reviewer(text: str) -> str:
    return await Reviewer(strict=False).review(text)  # noqa: F405


@step
async def by_step_imported_in_body(text: str) -> str:
    from r8c_layout.steps import render_chart

    return await render_chart(text)  # expect: STP001


@step
async def by_lazy_loader_returning_step(text: str) -> str:
    export = _exporter("pdf")
    return await export(text)  # expect: STP001


@step
async def near_miss_lazy_loader_plain(text: str) -> str:
    return await _exporter("txt")(text)


@step
async def by_importlib_handlers(text: str) -> str:
    replies = []
    for name in BILLING_PIPELINE:
        module = importlib.import_module(f"r8c_layout.handlers.{name}")
        replies.append(await module.handle(text))  # expect: STP002
    return ";".join(replies)


@step
async def near_miss_importlib_plain_handlers(text: str) -> str:
    return ";".join(await _run_handlers(COURTESY_PIPELINE, text))


@step
async def by_registry_step_entry(text: str) -> str:
    return await ACTIONS["review"](text)  # expect: STP001


@step
async def by_registry_wrapping_entry(text: str) -> str:
    handler = ACTIONS.get("plan")
    return await handler(text)  # expect: STP002


@step
async def near_miss_registry_plain_entry(text: str) -> str:
    return await ACTIONS["outline"](text)


@step
async def by_circular_import(text: str) -> str:
    return await publishing.publish(text)  # expect: STP002


@step
async def near_miss_circular_preview(text: str) -> str:
    return await publishing.preview(text)


@step
async def near_miss_reexported_step_queued(text: str) -> str:
    queue = [(draft_plan, text)]  # noqa: F405
    return ",".join(f"{fn.__name__}({arg})" for fn, arg in queue)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_reexported_agent(mode), await near_miss_reexported_plain_agent(mode),
        await by_two_levels_relative_import(mode), await near_miss_lenient_reviewer(mode),
        await by_step_imported_in_body(mode), await by_lazy_loader_returning_step(mode),
        await near_miss_lazy_loader_plain(mode), await by_importlib_handlers(mode),
        await near_miss_importlib_plain_handlers(mode), await by_registry_step_entry(mode),
        await by_registry_wrapping_entry(mode), await near_miss_registry_plain_entry(mode),
        await by_circular_import(mode), await near_miss_circular_preview(mode),
        await near_miss_reexported_step_queued(mode),
    ]
    return "|".join(parts)
