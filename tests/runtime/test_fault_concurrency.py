"""Concurrency under the shim: gathered steps, workflows running at once, and a load test.

* Random trees whose children are sometimes awaited with asyncio.gather run
  exactly as MAF runs them: the same output, the same step bodies, and MAF's
  own errors (e.g. gathered steps without a replay identity on 1.20+) raised
  with the same message, in scoped mode and (without nesting) in flat mode.
* Two workflows crashed and resumed at once in one event loop, their step
  bodies interleaved, give the outputs and checkpoint keys each gives alone.
* A load test in each mode: STEPLINT_FAULT_WORKFLOWS (default 600) short
  workflows (nesting in scoped mode), in gathered batches of 100 in one loop,
  a tenth of the nesting ones checkpointed, crashed inside a step and
  resumed. All correct, each body finds its own frame again after the calls
  it made, and afterwards nothing is left: the shim's module-level containers
  have their old sizes, no frame, run context or legacy replay object is
  alive, step wrappers carry no new attributes, and the context variables are
  back to None.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import time
from contextvars import ContextVar
from types import ModuleType
from typing import Any

import agent_framework as maf
import pytest
from agent_framework._workflows import _functional
from hypothesis import given
from hypothesis import strategies as st
from shim_strategies import example_settings, trees
from shim_support import ARG_KINDS, Job, latest, run
from shim_trees import (
    Crash,
    Node,
    Outcome,
    crash_and_resume,
    crash_points,
    expected_output,
    has_nesting,
    run_uninterrupted,
)

from steplint import runtime_shim
from steplint.runtime_shim.frames import StepFrame, current_step_frame
from steplint.runtime_shim.legacy_replay import LegacyReplay
from steplint.runtime_shim.run_state import run_state_of

pytestmark = pytest.mark.runtime

N = Node
KINDS = st.sampled_from(ARG_KINDS)
LOAD_WORKFLOWS = int(os.environ.get("STEPLINT_FAULT_WORKFLOWS", "600"))  # six batches of 100 at once
LOAD_BATCH = 100
# A hang guard, far above the few seconds the load takes on a loaded 2-core machine.
LOAD_SECONDS = 240


def run_in_mode(mode: str | None, roots: tuple[Node, ...], kind: str) -> Outcome:
    runtime_shim.uninstall()
    if mode is not None:
        runtime_shim.install(mode=mode)
    return run(run_uninterrupted(roots, kind))


@example_settings(100)
@given(roots=trees(concurrent=True), kind=KINDS)
def test_gathered_steps_run_as_maf_runs_them_and_fail_where_maf_fails(roots: tuple[Node, ...], kind: str) -> None:
    alone = run_in_mode(None, roots, kind)
    if alone.error is None:
        assert alone.output == expected_output(roots)
    assert run_in_mode("scoped", roots, kind).described() == alone.described()
    flat = run_in_mode("flat", roots, kind)
    if has_nesting(roots):
        assert isinstance(flat.error, runtime_shim.NestedStepError)
    else:
        assert flat.described() == alone.described()


GATHERED = (N("alpha", "a", (N("beta", "a"), N("beta", "b"), N("gamma", "a")), concurrent_children=True),)


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_the_gathered_steps_do_meet_mafs_concurrency_check(kind: str) -> None:
    """Guard against a vacuous property: on 1.20+ MAF refuses gathered steps without a replay identity."""
    alone = run_in_mode(None, GATHERED, kind)
    if kind == "model" and _functional.__dict__.get("_hash_step_identity") is not None:
        assert isinstance(alone.error, ValueError)
        assert "Cannot derive a stable replay identity for concurrent @step" in str(alone.error)
    else:
        assert alone.output == expected_output(GATHERED)
    assert run_in_mode("scoped", GATHERED, kind).described() == alone.described()


async def final_keys(storage: Any) -> list[str]:
    checkpoint = await latest(storage, "tree")
    return sorted(checkpoint.state["_step_cache"]) if checkpoint else []


async def crash_resume(roots: tuple[Node, ...], kind: str, crash: Any, interleave: bool) -> tuple[Outcome, list[str]]:
    storage = maf.InMemoryCheckpointStorage()
    outcome = await crash_and_resume(roots, kind, crash, storage, interleave=interleave)
    return outcome, await final_keys(storage)


@example_settings(60)
@given(first=trees(), second=trees(), kind=KINDS, mode=st.sampled_from(["scoped", "flat"]), data=st.data())
def test_workflows_running_at_once_in_one_loop_do_not_see_each_others_scopes(
    first: tuple[Node, ...], second: tuple[Node, ...], kind: str, mode: str, data: st.DataObject
) -> None:
    if mode == "flat":  # flat mode forbids nesting: two flat trees
        first, second = flattened(first), flattened(second)
    crashes = [data.draw(st.sampled_from(crash_points(roots)), label="crash") for roots in (first, second)]
    runtime_shim.uninstall()  # examples alternate modes
    runtime_shim.install(mode=mode)
    alone = [run(crash_resume(roots, kind, crash, False)) for roots, crash in zip((first, second), crashes)]

    async def both() -> list[tuple[Outcome, list[str]]]:
        return list(await asyncio.gather(*(crash_resume(r, kind, c, True) for r, c in zip((first, second), crashes))))

    together = run(both())
    for roots, (outcome, keys), (_, keys_alone) in zip((first, second), together, alone):
        assert outcome.error is None, outcome.error
        assert outcome.output == expected_output(roots)
        assert outcome.completed_exactly_once(roots)
        assert keys == keys_alone


def shim_modules() -> list[ModuleType]:
    return [module for name, module in sorted(sys.modules.items()) if name.startswith("steplint.runtime_shim")]


def container_sizes() -> dict[str, int]:
    """Sizes of every container the shim keeps at module level, and of what its installation holds."""
    sizes: dict[str, int] = {}
    for module in shim_modules():
        for name, value in vars(module).items():
            if isinstance(value, (dict, list, set, frozenset, tuple)) and not name.startswith("__"):
                sizes[f"{module.__name__}.{name}"] = len(value)
    active = runtime_shim.installer._active
    if active is not None:
        sizes["installation.patches"] = len(active.patches._replaced)
    for step in (load_leaf, load_branch):
        sizes[f"step {step.name} attributes"] = len(vars(step))
    return sizes


def live(kind: type) -> int:
    gc.collect()
    return sum(1 for value in gc.get_objects() if type(value) is kind)


def flattened(roots: tuple[Node, ...]) -> tuple[Node, ...]:
    return tuple(N(node.step, node.label) for node in roots)


# The load workflow: small on purpose, since MAF walks a workflow's code on every build and run.
load_crash: ContextVar[bool] = ContextVar("load_crash", default=False)


@maf.step
async def load_leaf(job: Job) -> str:
    await asyncio.sleep(0)  # let the other workflows of the batch run in between
    return f"leaf:{job.label}"


@maf.step
async def load_branch(job: Job) -> str:
    first = await load_leaf(job)
    if load_crash.get():
        raise Crash("load crash")
    second = await load_leaf(job)
    frame = current_step_frame.get()  # the children's frames are gone: this body's own is back
    if run_state_of(_functional._active_run_ctx.get()).bypass:  # a run no later run can resume: MAF's code
        assert frame is None, frame
    else:
        assert frame is not None and frame.step_name == "load_branch", frame
    return f"branch[{first},{second}]"


@maf.workflow(name="load-nested")
async def load_nested(label: str) -> list[str]:
    job = Job(label=label)
    return [await load_branch(job), await load_leaf(job), await load_branch(job)]


@maf.workflow(name="load-flat")
async def load_flat(label: str) -> list[str]:
    job = Job(label=label)
    return [await load_leaf(job), await load_leaf(job), await load_leaf(job)]


LOAD_WORKFLOWS_BY_MODE = {"scoped": load_nested, "flat": load_flat}


def expected_load_output(mode: str, label: str) -> list[list[str]]:
    branch = f"branch[leaf:{label},leaf:{label}]"
    leaf = f"leaf:{label}"
    return [[branch, leaf, branch]] if mode == "scoped" else [[leaf, leaf, leaf]]


async def one_short_workflow(mode: str, index: int) -> bool:
    """Run one load workflow; every tenth (nested) one crashes inside a step and resumes. Whether it was right."""
    workflow, label = LOAD_WORKFLOWS_BY_MODE[mode], str(index)
    if mode == "scoped" and index % 10 == 0:
        storage = maf.InMemoryCheckpointStorage()
        load_crash.set(True)
        with pytest.raises(Crash):
            await workflow.build(checkpoint_storage=storage).run(label)
        load_crash.set(False)
        checkpoint = await latest(storage, workflow.name)
        result = await workflow.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id)
    else:
        result = await workflow.build().run(label)
    return result.get_outputs() == expected_load_output(mode, label)


@pytest.mark.parametrize("mode", ["scoped", "flat"])
def test_hundreds_of_short_workflows_at_once_leave_no_state_behind(mode: str) -> None:
    runtime_shim.install(mode=mode)
    run(one_short_workflow(mode, 0))  # warm up: MAF's one-time set-up is not a leak
    sizes, frames, contexts = container_sizes(), live(StepFrame), live(_functional.RunContext)
    count = LOAD_WORKFLOWS

    async def load() -> list[bool]:
        verdicts: list[bool] = []
        for first in range(0, count, LOAD_BATCH):
            batch = range(first, min(first + LOAD_BATCH, count))
            verdicts.extend(await asyncio.gather(*(one_short_workflow(mode, index) for index in batch)))
        assert current_step_frame.get() is None
        return verdicts

    started = time.monotonic()
    verdicts = run(load())
    elapsed = time.monotonic() - started
    assert len(verdicts) == count and all(verdicts), verdicts.count(False)
    assert elapsed < LOAD_SECONDS
    assert container_sizes() == sizes
    assert (live(StepFrame), live(_functional.RunContext), live(LegacyReplay)) == (frames, contexts, 0)
    assert current_step_frame.get() is None and _functional._active_run_ctx.get() is None
    print(f"{count} workflows in {mode} mode: {elapsed:.1f} s")
