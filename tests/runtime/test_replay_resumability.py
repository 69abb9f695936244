"""Issue 27, item 7: verification is paid only in runs a later run can resume (real MAF).

This module must not name MAF's ways to pause a run (its workflows are the ones the shim sees cannot
pause): the pause of the last test comes from ``pausing_helper``.
"""

from __future__ import annotations

import warnings

import agent_framework as maf
import pausing_helper
import pytest
from agent_framework._workflows import _functional
from shim_support import SCOPED, Job, cache_keys, latest, run

from steplint import runtime_shim
from steplint.runtime_shim import ArgumentMutatedWarning, UnverifiedReplayWarning
from steplint.runtime_shim.resumability import module_can_pause
from steplint.runtime_shim.frames import key_text
from steplint.runtime_shim.run_state import run_state_of

pytestmark = pytest.mark.runtime


@pytest.fixture(autouse=True)
def _scoped() -> object:
    runtime_shim.install(mode="scoped")
    runtime_shim.reset_replay_report()
    yield
    runtime_shim.uninstall()


@maf.step
async def enrich(doc: Job) -> str:  # a model: a call-order key, recorded where the run can be resumed
    doc.label = "ACME"
    return "enriched"


@maf.step
async def check(job: Job) -> str:
    return job.label.upper()


@maf.workflow(name="not_resumable")
async def not_resumable(_: str) -> list[str]:
    return [await check(Job(label="a")), await enrich(Job(label="doc"))]


def test_a_run_without_storage_that_cannot_pause_records_nothing() -> None:
    assert not module_can_pause(__name__) and module_can_pause(pausing_helper.__name__)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ArgumentMutatedWarning)  # not told: nothing was recorded
        assert run(not_resumable.build().run("go")).get_outputs() == [["A", "enriched"]]
    with pytest.warns(ArgumentMutatedWarning, match="enrich"):
        run(not_resumable.build(checkpoint_storage=maf.InMemoryCheckpointStorage()).run("go"))


@maf.step
async def ask(job: Job) -> str:
    return f"{job.label}:{await pausing_helper.ask(job.label)}"


@maf.workflow(name="paused_unseen")
async def paused_unseen(_: str) -> list[str]:
    return [await check(Job(label="a")), await ask(Job(label="b"))]


def test_a_pause_the_shim_could_not_see_replays_as_maf_does_and_says_so() -> None:
    workflow = paused_unseen.build()
    (request,) = run(workflow.run("go")).get_request_info_events()
    with pytest.warns(UnverifiedReplayWarning):
        answered = run(workflow.run(responses={request.request_id: "yes"}))
    assert answered.get_outputs() == [["A", "b:yes"]]
    report = runtime_shim.replay_report()
    assert report.unrecorded >= 1 and report.verified == 0, report


SEEN: list[object] = []


@maf.step
async def inner_check(job: Job) -> str:
    SEEN.append(_functional._active_run_ctx.get())
    return job.label.upper()


@maf.step
async def outer_check(job: Job) -> str:
    return "<" + await inner_check(job) + ">"


@maf.workflow(name="nested_not_resumable")
async def nested_not_resumable(_: str) -> list[str]:
    return [await outer_check(Job(label="a")), await inner_check(Job(label="b"))]


def test_a_run_no_later_run_can_resume_runs_on_mafs_code() -> None:
    """Scoped keys matter only to a later run that takes the cache: a run none can take runs on MAF's code."""
    SEEN.clear()
    assert run(nested_not_resumable.build().run("go")).get_outputs() == [["<A>", "B"]]
    context = SEEN[0]
    assert run_state_of(context).bypass  # type: ignore[union-attr]
    keys = [key_text(key) for key in context._step_cache]  # type: ignore[attr-defined]
    assert sorted(keys) == ["inner_check::0", "inner_check::1", "outer_check::0"], keys  # MAF's own keys
    storage = maf.InMemoryCheckpointStorage()
    assert run(nested_not_resumable.build(checkpoint_storage=storage).run("go")).get_outputs() == [["<A>", "B"]]
    keys = cache_keys(run(latest(storage, "nested_not_resumable")))
    assert any(SCOPED.search(key) for key in keys), keys  # a run with a storage: scoped
