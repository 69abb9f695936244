"""Replay verification on the real framework: a resume never hands a call another call's result silently.

A workflow calls one step per label of a list that changes between the first
run and the resume (a value read at run time: a set's order, I/O, a clock).
The first run crashes after some calls completed; the resume calls in the new
order. Where MAF keys calls by their order (every key on 1.18/1.19; pydantic
arguments on 1.20+), MAF alone hands the resumed calls each other's results.
With the shim's records:

* ``error``: the resume equals the uninterrupted run, or raises
  ReplayMismatchError before the wrong value reaches the workflow;
* ``warn``: MAF's output, and a ReplayMismatchWarning at the calling line;
* ``rerun``: always the uninterrupted run's output.

A checkpoint made without the shim carries no records: a resume that takes
its call-order entries says so (UnverifiedReplayWarning). Crossing processes:
a helper module rewritten between a SIGKILL and the resume
(FileCheckpointStorage), the case MAF's signature hash does not cover.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import agent_framework as maf
import pytest
from hypothesis import given
from hypothesis import strategies as st
from shim_strategies import example_settings, trees
from shim_support import ARG_KINDS, HAS_FINGERPRINTS, label_of, latest, make_arg, run, storages
from shim_trees import Node, crash_first_run, crash_points, expected_output, resume, storage_of

from steplint import runtime_shim
from steplint.runtime_shim import ReplayMismatchError, ReplayMismatchWarning, UnverifiedReplayWarning

pytestmark = pytest.mark.runtime

ORDER: list[str] = []
KIND = ["model"]
CRASH_AFTER: list[int | None] = [None]
COMPLETED: list[str] = []
LABELS = "abcd"


class Crash(Exception):
    """The simulated crash of a first run."""


@maf.step
async def work(job: Any) -> str:
    if CRASH_AFTER[0] is not None and len(COMPLETED) >= CRASH_AFTER[0]:
        raise Crash("crash")
    COMPLETED.append(label_of(job))
    return label_of(job).upper()


CALLING_LINE = 0


@maf.workflow(name="ordered")
async def ordered(_: str) -> list[str]:
    results = []
    for label in ORDER:
        results.append(await work(make_arg(KIND[0], label)))  # the calling line (CALLING_LINE)
    return results


CALLING_LINE = next(
    number for number, line in enumerate(Path(__file__).read_text().splitlines(), 1) if "(CALLING_LINE)" in line
)


def keys_by_order(kind: str) -> bool:
    """Whether MAF keys these calls by call order (so a changed order gives calls each other's results)."""
    return kind == "model" or not HAS_FINGERPRINTS


def installed_as(mode: str | None, policy: str | None = None) -> None:
    runtime_shim.uninstall()
    if mode is not None:
        runtime_shim.install(mode=mode, on_replay_mismatch=policy)  # type: ignore[arg-type]


async def crash_then_resume(storage: Any, kind: str, first: list[str], crash_after: int, second: list[str]) -> dict:
    """First run calls *first* and crashes after *crash_after* completions; resume calls *second*."""
    KIND[0] = kind
    ORDER[:], CRASH_AFTER[0] = first, crash_after
    COMPLETED.clear()
    try:
        await ordered.build(checkpoint_storage=storage).run("go")
    except Crash:
        pass
    checkpoint = await latest(storage, "ordered")
    ORDER[:], CRASH_AFTER[0] = second, None
    COMPLETED.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            workflow = ordered.build(checkpoint_storage=storage)
            if checkpoint is None:
                result = await workflow.run("go")
            else:
                result = await workflow.run(checkpoint_id=checkpoint.checkpoint_id)
            output, error = result.get_outputs(), None
        except Exception as exc:
            output, error = None, exc
    shim_warnings = [w for w in caught if issubclass(w.category, (ReplayMismatchWarning, UnverifiedReplayWarning))]
    return {"output": output, "error": error, "warnings": shim_warnings, "ran": list(COMPLETED)}


def uninterrupted(order: list[str]) -> list[list[str]]:
    return [[label.upper() for label in order]]


def outcome_of(mode: str | None, policy: str | None, kind: str, first: list[str], crash_after: int,
               second: list[str], storage_kind: str = "memory", tmp_path: Path | None = None) -> dict:
    installed_as(mode, policy)
    runtime_shim.reset_replay_report()
    storage = maf.InMemoryCheckpointStorage()
    if storage_kind == "file":
        assert tmp_path is not None
        storage = storages(tmp_path)["file"]
    outcome = run(crash_then_resume(storage, kind, first, crash_after, second))
    outcome["report"] = runtime_shim.replay_report()
    runtime_shim.uninstall()
    return outcome


FIRST, SECOND = ["a", "b", "c"], ["b", "a", "c"]


@pytest.mark.parametrize("storage_kind", ["memory", "file"])
@pytest.mark.parametrize("kind", ARG_KINDS)
def test_maf_alone_hands_reordered_calls_each_others_results_where_keys_are_call_order(
    kind: str, storage_kind: str, tmp_path: Path
) -> None:
    outcome = outcome_of(None, None, kind, FIRST, 2, SECOND, storage_kind, tmp_path)
    if keys_by_order(kind):
        assert outcome["output"] == [["A", "B", "C"]]  # b got a's result and a got b's: the bug
    else:
        assert outcome["output"] == uninterrupted(SECOND)


@pytest.mark.parametrize("mode", ["flat", "scoped"])
@pytest.mark.parametrize("storage_kind", ["memory", "file"])
@pytest.mark.parametrize("kind", ARG_KINDS)
def test_error_refuses_the_other_calls_result_before_the_workflow_sees_it(
    mode: str, kind: str, storage_kind: str, tmp_path: Path
) -> None:
    outcome = outcome_of(mode, "error", kind, FIRST, 2, SECOND, storage_kind, tmp_path)
    if not keys_by_order(kind):
        assert outcome["error"] is None and outcome["output"] == uninterrupted(SECOND)
        assert outcome["report"].mismatched == 0
        return
    error = outcome["error"]
    assert isinstance(error, ReplayMismatchError), outcome
    assert (error.step, error.key) == ("work", "work::0")
    if kind == "model":
        assert error.differences == ("argument 'job'", "field job.label")
    else:
        assert error.differences == ("argument 'job'",)
    # Names, never values (a model's fields may be secret).
    assert "'a'" not in str(error) and "'b'" not in str(error)
    assert outcome["ran"] == []  # raised at the first resumed call, before any body or later call
    assert outcome["report"].mismatched == 1


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_warn_keeps_mafs_value_and_points_at_the_calling_line(kind: str) -> None:
    outcome = outcome_of("flat", "warn", kind, FIRST, 2, SECOND)
    alone = outcome_of(None, None, kind, FIRST, 2, SECOND)
    assert outcome["output"] == alone["output"]
    if not keys_by_order(kind):
        assert outcome["warnings"] == []
        return
    assert [w.category for w in outcome["warnings"]] == [ReplayMismatchWarning, ReplayMismatchWarning]
    assert {(w.filename, w.lineno) for w in outcome["warnings"]} == {(__file__, CALLING_LINE)}
    assert outcome["report"].mismatched == 2


@pytest.mark.parametrize("mode", ["flat", "scoped"])
@pytest.mark.parametrize("kind", ARG_KINDS)
def test_rerun_gives_the_uninterrupted_output_and_moves_entries_to_their_own_calls(mode: str, kind: str) -> None:
    outcome = outcome_of(mode, "rerun", kind, FIRST, 2, SECOND)
    assert outcome["error"] is None and outcome["output"] == uninterrupted(SECOND)
    if keys_by_order(kind):
        # b's entry held a's result: b runs; a's entry, kept, goes to the call a makes next.
        assert outcome["ran"] == ["b", "c"]
        assert (outcome["report"].rerun, outcome["report"].moved) == (1, 1)
    else:
        assert outcome["ran"] == ["c"]
        assert outcome["report"].mismatched == 0


def test_scoped_mode_defaults_to_rerun_and_flat_mode_to_error() -> None:
    assert outcome_of("scoped", None, "model", FIRST, 2, SECOND)["output"] == uninterrupted(SECOND)
    assert isinstance(outcome_of("flat", None, "model", FIRST, 2, SECOND)["error"], ReplayMismatchError)


def test_off_is_mafs_behaviour_and_writes_no_records() -> None:
    outcome = outcome_of("flat", "off", "model", FIRST, 2, SECOND)
    assert outcome["output"] == outcome_of(None, None, "model", FIRST, 2, SECOND)["output"]
    assert outcome["report"] == runtime_shim.ReplayReport()


def test_an_unchanged_order_is_verified_not_rerun() -> None:
    outcome = outcome_of("flat", "error", "model", FIRST, 2, FIRST)
    assert outcome["output"] == uninterrupted(FIRST) and outcome["ran"] == ["c"]
    assert (outcome["report"].verified, outcome["report"].mismatched) == (2, 0)


def test_a_checkpoint_made_without_records_says_its_entries_are_unverified() -> None:
    installed_as(None)
    storage = maf.InMemoryCheckpointStorage()
    KIND[0] = "model"
    run(crash_then_resume(storage, "model", FIRST, 2, FIRST))  # made by MAF alone
    checkpoint = run(latest(storage, "ordered"))
    installed_as("flat")
    runtime_shim.reset_replay_report()
    ORDER[:], CRASH_AFTER[0] = SECOND, None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run(ordered.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id))
    unverified = [w for w in caught if w.category is UnverifiedReplayWarning]
    assert len(unverified) == 1 and unverified[0].filename == __file__
    assert result.get_outputs() == uninterrupted(FIRST)  # MAF's own (a checkpoint of the full run), unchanged
    assert runtime_shim.replay_report().unrecorded == 3


@maf.step
async def stamp(job: Any) -> str:
    job.label += "!"  # the body changes its own argument after MAF looked its key up
    COMPLETED.append(job.label)
    return job.label


@maf.workflow(name="mutating")
async def mutating(_: str) -> list[str]:
    return [await stamp(make_arg("model", label)) for label in ORDER]


def completed_then_resumed(workflow: Any, first: list[str], second: list[str]) -> Any:
    """Run *workflow* over *first* to the end (flat mode, "error"), then resume its last checkpoint over *second*."""
    installed_as("flat", "error")
    runtime_shim.reset_replay_report()
    storage = maf.InMemoryCheckpointStorage()
    ORDER[:] = first
    run(workflow.build(checkpoint_storage=storage).run("go"))
    checkpoint = run(latest(storage, workflow.name))
    ORDER[:] = second
    COMPLETED.clear()
    return run(workflow.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id))


def test_a_body_that_changes_its_arguments_is_recorded_as_called_not_as_left() -> None:
    result = completed_then_resumed(mutating, FIRST, FIRST)
    assert result.get_outputs() == [["a!", "b!", "c!"]] and COMPLETED == []
    assert (runtime_shim.replay_report().verified, runtime_shim.replay_report().mismatched) == (3, 0)


class Undigestable:
    """An argument with no canonical form: it cannot be pickled."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.lock = __import__("threading").Lock()


@maf.step
async def opaque(thing: Undigestable) -> str:
    COMPLETED.append(thing.label)
    return thing.label.upper()


@maf.workflow(name="opaque_order")
async def opaque_order(_: str) -> list[str]:
    return [await opaque(Undigestable(label)) for label in ORDER]


def test_an_undigestable_call_is_counted_never_guessed() -> None:
    result = completed_then_resumed(opaque_order, FIRST, SECOND)
    assert result.get_outputs() == uninterrupted(FIRST)  # MAF's behaviour: nothing to check it by
    assert runtime_shim.replay_report().undigestable == 3


# --- the random fuzz: orders that change between runs -------------------------------------------------

ORDERS = st.lists(st.sampled_from(LABELS), min_size=1, max_size=6)
@pytest.mark.parametrize("kind", ARG_KINDS)
def test_random_order_changes_are_never_silently_wrong(kind: str, record_property: Any) -> None:
    """MAF alone's share of wrong resumes; with verification 0 silent wrong results (error and rerun)."""
    figures = {"alone": {"right": 0, "wrong": 0}, "error": {"right": 0, "refused": 0, "wrong": 0},
               "rerun": {"right": 0, "wrong": 0}}

    @example_settings(60, derandomize=True)
    @given(first=ORDERS, data=st.data())
    def collect(first: list[str], data: st.DataObject) -> None:
        crash_after = data.draw(st.integers(0, len(first) - 1), label="crash_after")
        second = data.draw(st.one_of(st.permutations(first), ORDERS), label="second")
        expected = uninterrupted(list(second))
        alone = outcome_of(None, None, kind, first, crash_after, list(second))
        figures["alone"]["right" if alone["output"] == expected else "wrong"] += 1
        refused = outcome_of("flat", "error", kind, first, crash_after, list(second))
        if isinstance(refused["error"], ReplayMismatchError):
            figures["error"]["refused"] += 1
        else:
            figures["error"]["right" if refused["output"] == expected else "wrong"] += 1
        assert refused["error"] is None or isinstance(refused["error"], ReplayMismatchError), refused
        assert refused["error"] is not None or refused["output"] == expected, refused
        rerun = outcome_of("scoped", "rerun", kind, first, crash_after, list(second))
        figures["rerun"]["right" if rerun["output"] == expected else "wrong"] += 1
        assert rerun["error"] is None and rerun["output"] == expected, rerun
        # Where MAF alone was right, verification changed nothing.
        if alone["output"] == expected:
            assert refused["output"] == expected and rerun["ran"] == alone["ran"]

    collect()
    for policy, counts in figures.items():
        record_property(f"replay_{policy}_{kind}", json.dumps(counts))
    print(f"replay fuzz, {kind} arguments: {figures}")
    assert figures["error"]["wrong"] == figures["rerun"]["wrong"] == 0
    if keys_by_order(kind):
        assert figures["alone"]["wrong"] > 0.1 * sum(figures["alone"].values()), figures


# --- nested trees ---------------------------------------------------------------------------------------

TREES = trees()


@example_settings(60)
@given(roots=TREES, kind=st.sampled_from(ARG_KINDS), data=st.data())
def test_deterministic_nested_trees_raise_no_false_alarm(roots: tuple[Node, ...], kind: str, data: st.DataObject
                                                          ) -> None:
    """Scoped mode with records: right output, no mismatch, and a resume's hits verified."""
    crash = data.draw(st.sampled_from(crash_points(roots)), label="crash")
    installed_as("scoped", "error")
    runtime_shim.reset_replay_report()
    with storage_of("memory") as storage:
        run(crash_first_run(roots, kind, crash, storage))
        checkpoint = run(latest(storage, "tree"))
        outcome = run(resume(roots, kind, storage, checkpoint))
    assert outcome.error is None and outcome.output == expected_output(roots), outcome.described()
    report = runtime_shim.replay_report()
    assert report.mismatched == report.unrecorded == 0, report


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_nested_checkpoints_made_without_the_shim_are_never_wrong_silently(kind: str, record_property: Any) -> None:
    """No records to check by: a resume that takes their call-order entries says so (figures recorded)."""
    figures = {"right": 0, "wrong, said so": 0, "wrong, silent": 0}

    @example_settings(60, derandomize=True)
    @given(roots=TREES, data=st.data())
    def collect(roots: tuple[Node, ...], data: st.DataObject) -> None:
        crash = data.draw(st.sampled_from(crash_points(roots)), label="crash")
        installed_as(None)
        with storage_of("memory") as storage:
            run(crash_first_run(roots, kind, crash, storage))
            checkpoint = run(latest(storage, "tree"))
            installed_as("scoped")
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                outcome = run(resume(roots, kind, storage, checkpoint))
        said = any(w.category is UnverifiedReplayWarning for w in caught)
        right = outcome.error is None and outcome.output == expected_output(roots)
        figures["right" if right else "wrong, said so" if said else "wrong, silent"] += 1
        assert right or said, outcome.described()

    collect()
    record_property(f"replay_nested_without_shim_{kind}", json.dumps(figures))
    print(f"nested checkpoints made without the shim, {kind} arguments: {figures}")
    assert figures["wrong, silent"] == 0


# --- across processes: a helper module rewritten between a SIGKILL and the resume ------------------------

WORKFLOW_MODULE = '''
import os, signal, sys
import agent_framework as maf
from pydantic import BaseModel
import order_helper  # as a module attribute: outside what MAF 1.23 hashes

class Job(BaseModel):
    label: str

KIND = os.environ["KIND"]
COMPLETED = []

@maf.step
async def work(job) -> str:
    label = job.label if isinstance(job, Job) else job
    if os.environ.get("KILL_AFTER") and len(COMPLETED) >= int(os.environ["KILL_AFTER"]):
        os.kill(os.getpid(), signal.SIGKILL)
    COMPLETED.append(label)
    return label.upper()

@maf.workflow(name="helper_ordered")
async def helper_ordered(_: str) -> list[str]:
    return [await work(Job(label=label) if KIND == "model" else label) for label in order_helper.order()]
'''

DRIVER = '''
import asyncio, json, os, sys, warnings
import agent_framework as maf
policy = os.environ.get("POLICY")
if policy:
    from steplint import runtime_shim
    runtime_shim.install(mode=os.environ["MODE"], on_replay_mismatch=policy)
import flow

async def main():
    storage = maf.FileCheckpointStorage(os.environ["CHECKPOINTS"])
    checkpoints = await storage.list_checkpoints(workflow_name="helper_ordered")
    workflow = flow.helper_ordered.build(checkpoint_storage=storage)
    if not checkpoints:
        await workflow.run("go")
        return
    latest = max(checkpoints, key=lambda c: (c.iteration_count, c.timestamp))
    try:
        result = await workflow.run(checkpoint_id=latest.checkpoint_id)
        print(json.dumps({"output": result.get_outputs(), "ran": flow.COMPLETED}))
    except Exception as exc:
        print(json.dumps({"error": type(exc).__name__, "message": str(exc), "ran": flow.COMPLETED}))

asyncio.run(main())
'''


def helper_source(order: str) -> str:
    return f"def order():\n    return {list(order)!r}\n"


def crossed_processes(tmp_path: Path, kind: str, mode: str | None, policy: str | None) -> dict:
    tmp_path.mkdir(parents=True)
    (tmp_path / "flow.py").write_text(textwrap.dedent(WORKFLOW_MODULE))
    (tmp_path / "driver.py").write_text(textwrap.dedent(DRIVER))
    (tmp_path / "order_helper.py").write_text(helper_source("abc"))
    environment = {**os.environ, "KIND": kind, "CHECKPOINTS": str(tmp_path / "checkpoints"),
                   "POLICY": policy or "", "MODE": mode or "", "PYTHONDONTWRITEBYTECODE": "1",
                   "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    killed = subprocess.run([sys.executable, "driver.py"], cwd=tmp_path, env={**environment, "KILL_AFTER": "2"},
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    (tmp_path / "order_helper.py").write_text(helper_source("bac"))
    resumed = subprocess.run([sys.executable, "driver.py"], cwd=tmp_path, env=environment,
                             capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    return json.loads(resumed.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_a_helper_module_rewritten_between_a_sigkill_and_the_resume(kind: str, tmp_path: Path) -> None:
    alone = crossed_processes(tmp_path / "alone", kind, None, None)
    refused = crossed_processes(tmp_path / "error", kind, "flat", "error")
    rerun = crossed_processes(tmp_path / "rerun", kind, "scoped", "rerun")
    right = [["B", "A", "C"]]
    assert rerun == {"output": right, "ran": ["b", "c"] if keys_by_order(kind) else ["c"]}
    if keys_by_order(kind):
        assert alone["output"] == [["A", "B", "C"]]  # MAF loads the checkpoint and swaps a and b
        assert refused["error"] == "ReplayMismatchError" and refused["ran"] == []
    else:
        assert alone["output"] == right and refused["output"] == right
