"""Scoped mode across retries: the attempt that completes nested calls gets the same place in every run.

A parent step whose body raises is retried by the workflow (a transient error). Its nested calls are scoped by
its place (``RunState.place_of``): a failed attempt that made no nested call hands its place to the retry; one
that made some is abandoned in the record log, and later runs of the cache skip it. Each scenario crashes after
the retry completed nested calls, in the first run or in a run itself resumed, and the next resume must take
those results: no body runs again and the output is the crashed run's.
"""

from __future__ import annotations

from typing import Any

import agent_framework as maf
import pytest
from shim_support import run

from steplint import runtime_shim

pytestmark = pytest.mark.filterwarnings("ignore")


class Crash(BaseException):
    """The process dies here (not an Exception: no attempt fails, the run ends)."""


STATE: dict[str, Any] = {}


@maf.step
async def first(x: str) -> str:
    return x


@maf.step
async def child(x: str) -> str:
    STATE["children"] += 1
    STATE["ran"].append("child")
    return f"c{STATE['children']}"


@maf.step
async def after(c: str) -> str:
    STATE["ran"].append(f"after({c})")
    return f"d({c})"


@maf.step
async def parent(x: str) -> str:
    failing = STATE["run"] == STATE["fail_run"] and not STATE["failed"]
    if failing and not STATE["nested_before_failing"]:
        STATE["failed"] = True
        raise RuntimeError("transient")
    c = await child(x)
    if failing:
        STATE["failed"] = True
        raise RuntimeError("transient")
    d = await after(c)
    if STATE["run"] == STATE["fail_run"]:
        raise Crash
    return d


async def body(x: str) -> str:
    await first(x)
    if STATE["run"] < STATE["fail_run"]:
        raise Crash  # an earlier run ends before the parent: the failing run is itself a resume
    for _ in range(3):
        try:
            return await parent(x)
        except RuntimeError:
            pass
    return "gave up"


@pytest.fixture(autouse=True)
def scoped_shim():
    runtime_shim.uninstall()
    runtime_shim.install(mode="scoped", on_replay_mismatch="rerun")
    yield
    runtime_shim.uninstall()


@pytest.mark.parametrize("nested_before_failing", [False, True], ids=["fails-before-nesting", "fails-after-nesting"])
@pytest.mark.parametrize("fail_run", [1, 2], ids=["first-run", "resumed-run"])
def test_the_attempt_that_completed_nested_calls_keeps_its_place_on_the_resume(fail_run, nested_before_failing):
    STATE.update(children=0, failed=False, fail_run=fail_run, nested_before_failing=nested_before_failing)
    definition = maf.workflow(name=f"retries-{fail_run}-{nested_before_failing}")(body)
    storage = maf.InMemoryCheckpointStorage()
    checkpoint_id = None
    for number in range(1, fail_run + 2):
        STATE.update(run=number, ran=[])
        workflow = definition.build(checkpoint_storage=storage)
        try:
            outcome = run(workflow.run("go") if checkpoint_id is None else workflow.run(checkpoint_id=checkpoint_id))
        except Crash:
            assert number <= fail_run
            checkpoint_id = max(run(storage.list_checkpoints(workflow_name=definition.name)),
                                key=lambda checkpoint: checkpoint.timestamp).checkpoint_id
            continue
        assert number == fail_run + 1
        assert outcome.get_outputs() == ["d(c2)" if nested_before_failing else "d(c1)"]
        assert STATE["ran"] == []  # nothing completed before the crash runs again
