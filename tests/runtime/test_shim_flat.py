"""Flat mode: any step entered while another step's body runs fails at once."""

from __future__ import annotations

import asyncio
import sys

import agent_framework as maf
import pytest
from shim_support import chain, run

from steplint import runtime_shim
from steplint.runtime_shim import NestedStepError

pytestmark = pytest.mark.runtime

inner_bodies: list[str] = []


@maf.step
async def inner(label: str) -> str:
    inner_bodies.append(label)
    return label.upper()


async def helper(label: str) -> str:
    """Plain code between two steps does not hide the nesting."""
    return await inner(label)


@maf.step
async def outer_direct(label: str) -> str:
    return await inner(label)


@maf.step
async def outer_via_helper(label: str) -> str:
    return await helper(label)


@maf.step
async def outer_gather(label: str) -> list[str]:
    return list(await asyncio.gather(inner(label), inner(label + "2")))


@maf.step
async def outer_create_task(label: str) -> str:
    return await asyncio.create_task(inner(label))


@maf.step
async def outer_task_group(label: str) -> str:
    async with asyncio.TaskGroup() as group:
        task = group.create_task(inner(label))
    return task.result()


@maf.step
async def outer_wrapped(label: str) -> str:
    return await inner.__wrapped__(label)


OUTERS = {
    "direct": outer_direct,
    "helper": outer_via_helper,
    "gather": outer_gather,
    "create_task": outer_create_task,
    "task_group": outer_task_group,
}


@maf.workflow(name="flat-nesting")
async def nesting(shape: str) -> object:
    return await OUTERS[shape](shape)


def nested_error(exc: BaseException) -> runtime_shim.NestedStepError | None:
    """The NestedStepError in *exc*, looking inside a TaskGroup's ExceptionGroup."""
    if isinstance(exc, runtime_shim.NestedStepError):
        return exc
    for child in getattr(exc, "exceptions", ()):
        found = nested_error(child)
        if found is not None:
            return found
    return None


@pytest.mark.skipif(sys.version_info < (3, 11), reason="asyncio.TaskGroup needs Python 3.11")
@pytest.mark.parametrize("shape", sorted(OUTERS))
def test_nested_step_raises_before_any_cache_lookup_event_or_checkpoint(shape: str) -> None:
    runtime_shim.install(mode="flat")
    inner_bodies.clear()
    storage = maf.InMemoryCheckpointStorage()

    async def scenario() -> tuple[BaseException, list[object]]:
        stream = nesting.build(checkpoint_storage=storage).run(shape, stream=True)
        events: list[object] = []
        with pytest.raises(BaseException) as raised:
            async for event in stream:
                events.append(event)
        return raised.value, events

    raised, events = run(scenario())
    error = nested_error(raised)
    assert error is not None, repr(raised)
    assert (error.outer_step, error.inner_step) == (OUTERS[shape].name, "inner")
    assert inner_bodies == []
    assert not [event for event in events if getattr(event, "executor_id", None) == "inner"]
    checkpoints = run(chain(storage, "flat-nesting"))
    assert all(not checkpoint.state.get("_step_cache") for checkpoint in checkpoints)


def test_inner_wrapped_runs_inline_as_one_step() -> None:
    runtime_shim.install(mode="flat")
    inner_bodies.clear()

    @maf.workflow(name="flat-wrapped")
    async def wrapped(label: str) -> str:
        return await outer_wrapped(label)

    storage = maf.InMemoryCheckpointStorage()
    result = run(wrapped.build(checkpoint_storage=storage).run("x"))
    assert result.get_outputs() == ["X"]
    assert inner_bodies == ["x"]
    final = run(chain(storage, "flat-wrapped"))[-1]
    keys = list(final.state["_step_cache"])
    assert len(keys) == 1 and "outer_wrapped" in keys[0] and "inner" not in keys[0]


def test_sequential_and_concurrent_top_level_steps_are_not_nested() -> None:
    runtime_shim.install(mode="flat")

    @maf.workflow(name="flat-top-level")
    async def top_level(label: str) -> list[str]:
        first = await inner(label)
        rest = await asyncio.gather(inner(label + "1"), inner(label + "2"))
        return [first, *rest]

    result = run(top_level.build().run("a"))
    assert result.get_outputs() == [["A", "A1", "A2"]]


leftover: list[asyncio.Task[str]] = []


@maf.step
async def outer_leaves_task(label: str) -> str:
    # The task runs inner only after this body has returned.
    leftover.append(asyncio.create_task(late_inner(label)))
    return label


async def late_inner(label: str) -> str:
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    return await inner(label)


def test_step_in_task_that_outlives_the_spawning_step_is_still_nested() -> None:
    """A task a step body spawned is that step's, whenever it runs: whether it starts before the step's
    checkpoint is saved depends on the storage, so the rule does not (tests/runtime/test_shim_reliability.py)."""
    runtime_shim.install(mode="flat")
    leftover.clear()

    @maf.workflow(name="flat-leftover")
    async def leaves_task(label: str) -> str:
        first = await outer_leaves_task(label)
        return first + await leftover[0]

    with pytest.raises(NestedStepError) as raised:
        run(leaves_task.build().run("q"))
    assert (raised.value.outer_step, raised.value.inner_step) == ("outer_leaves_task", "inner")


@maf.workflow(name="flat-sub")
async def sub_workflow(label: str) -> str:
    return await inner(label)


@maf.step
async def outer_runs_workflow(label: str) -> str:
    result = await sub_workflow.build().run(label)
    return result.get_outputs()[0]


def test_workflow_run_inside_a_step_has_its_own_top_level() -> None:
    runtime_shim.install(mode="flat")

    @maf.workflow(name="flat-host")
    async def host(label: str) -> str:
        return await outer_runs_workflow(label)

    result = run(host.build().run("s"))
    assert result.get_outputs() == ["S"]
