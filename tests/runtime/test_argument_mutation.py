"""Issue 27, item 5: a step that changes an argument it was given is told (real MAF, real storages).

MAF checkpoints a step's result, never its arguments: ``enrich(doc)`` sets
``doc["customer"]``, the next step reads it, and a resume that takes
``enrich``'s cached result never sets it (live: ``invoice for ACME``, resumed:
``invoice for UNKNOWN``). Where replay verification records a call (call-order
keys: every call on 1.18/1.19, unfingerprintable arguments on 1.20+), the
record made before the body ran is compared with the arguments when it completes.
"""

from __future__ import annotations

import warnings
from typing import Any

import agent_framework as maf
import pytest
from pydantic import BaseModel, PrivateAttr
from shim_support import HAS_FINGERPRINTS, Job, latest, run

from steplint import runtime_shim
from steplint.runtime_shim import ArgumentMutatedError, ArgumentMutatedWarning

pytestmark = pytest.mark.runtime

CRASH = [False]


class Crash(Exception):
    """The simulated crash after ``enrich``."""


@maf.step
async def enrich(job: Job, doc: dict[str, Any]) -> str:
    doc["customer"] = "ACME"
    return f"{job.label} enriched"


@maf.step
async def invoice(job: Job, doc: dict[str, Any]) -> str:
    if CRASH[0]:
        raise Crash
    return f"invoice for {doc.get('customer', 'UNKNOWN')}"


@maf.step
async def enrich_plain(doc: dict[str, Any]) -> str:
    doc["customer"] = "ACME"
    return "enriched"


@maf.step
async def read_only(job: Job, doc: dict[str, Any]) -> str:
    return f"{job.label}:{len(doc)}"


@maf.workflow(name="mutating")
async def mutating(_: str) -> str:
    doc: dict[str, Any] = {"id": 7}
    await read_only(Job(label="j"), doc)
    await enrich(Job(label="j"), doc)
    return await invoice(Job(label="j"), doc)


@maf.workflow(name="mutating_plain")
async def mutating_plain(_: str) -> str:
    doc: dict[str, Any] = {"id": 7}
    await enrich_plain(doc)
    return f"invoice for {doc.get('customer', 'UNKNOWN')}"


@pytest.fixture(autouse=True)
def _fresh() -> Any:
    CRASH[0] = False
    CHANGE[0] = "nothing"
    yield
    runtime_shim.uninstall()


def outputs(result: Any) -> list[Any]:
    return result.get_outputs()


@pytest.mark.parametrize("mode", ["flat", "scoped"])
def test_a_mutated_argument_is_warned_about_naming_step_and_parameter(mode: str) -> None:
    runtime_shim.install(mode=mode, on_replay_mismatch="warn")  # type: ignore[arg-type]
    with pytest.warns(ArgumentMutatedWarning) as caught:
        result = run(mutating.build(checkpoint_storage=maf.InMemoryCheckpointStorage()).run("go"))
    assert outputs(result) == ["invoice for ACME"]
    (warning,) = [w for w in caught if issubclass(w.category, ArgumentMutatedWarning)]
    assert "@step 'enrich' changed argument 'doc'" in str(warning.message)
    assert warning.filename == __file__  # the line that called the step


def test_a_mutated_argument_raises_by_option_before_the_result_is_cached() -> None:
    runtime_shim.install(mode="scoped", on_argument_mutation="error")
    storage = maf.InMemoryCheckpointStorage()
    with pytest.raises(ArgumentMutatedError) as raised:
        run(mutating.build(checkpoint_storage=storage).run("go"))
    assert raised.value.step == "enrich" and raised.value.changed == ("argument 'doc'",)
    checkpoint = run(latest(storage, "mutating"))
    assert all(not key.startswith("enrich") for key in checkpoint.state["_step_cache"])


def test_the_issue_resume_loses_the_mutation_and_the_first_run_said_so() -> None:
    """The issue's case: live ``invoice for ACME``, resumed ``invoice for UNKNOWN`` (MAF's behaviour, which the
    shim does not change: it tells the run that made the checkpoint)."""
    assert outputs(run(mutating.build().run("go"))) == ["invoice for ACME"]
    runtime_shim.install(mode="scoped")
    storage = maf.InMemoryCheckpointStorage()
    CRASH[0] = True
    with pytest.warns(ArgumentMutatedWarning), pytest.raises(Crash):
        run(mutating.build(checkpoint_storage=storage).run("go"))
    CRASH[0] = False
    checkpoint = run(latest(storage, "mutating"))
    resumed = run(mutating.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id))
    assert outputs(resumed) == ["invoice for UNKNOWN"]


@pytest.mark.parametrize("policy", ["off", "rerun"])
def test_no_warning_without_a_mutation_or_without_verification(policy: str) -> None:
    runtime_shim.install(mode="scoped", on_replay_mismatch=policy)  # type: ignore[arg-type]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ArgumentMutatedWarning)
        if policy == "off":
            run(mutating.build().run("go"))
        else:
            workflow = read_only_workflow.build(checkpoint_storage=maf.InMemoryCheckpointStorage())
            assert run(workflow.run("go")).get_outputs() == ["j:1"]


@maf.workflow(name="read_only_workflow")
async def read_only_workflow(_: str) -> str:
    return await read_only(Job(label="j"), {"id": 7})


def test_a_fingerprinted_call_is_not_checked_on_releases_with_fingerprints() -> None:
    """1.20+ keys a call with plain arguments by their fingerprint: verification records nothing, so a mutation
    there is not told (README, limits); 1.18/1.19 record every call."""
    runtime_shim.install(mode="scoped")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run(mutating_plain.build(checkpoint_storage=maf.InMemoryCheckpointStorage()).run("go"))  # can be resumed
    told = [w for w in caught if issubclass(w.category, ArgumentMutatedWarning)]
    assert len(told) == (0 if HAS_FINGERPRINTS else 1)


class Ticket(BaseModel, extra="allow"):
    """A model whose every part a body can change: a scalar field, a list field, extra fields, a private attribute."""

    title: str
    tags: list[str] = []
    _owner: str = PrivateAttr(default="nobody")


CHANGES = {
    "a scalar field rebound": ("title", lambda ticket: setattr(ticket, "title", "changed")),
    "a list field changed in place": ("tags", lambda ticket: ticket.tags.append("new")),
    "an extra field set": ("ticket", lambda ticket: setattr(ticket, "note", "added")),
    "a private attribute rebound": ("ticket", lambda ticket: setattr(ticket, "_owner", "someone")),
    "the same value rebound": (None, lambda ticket: setattr(ticket, "title", "".join(["fi", "rst"]))),
    "nothing": (None, lambda ticket: None),
}
CHANGE = ["nothing"]


@maf.step
async def edit(ticket: Ticket) -> str:
    CHANGES[CHANGE[0]][1](ticket)
    return "edited"


@maf.workflow(name="editing")
async def editing(_: str) -> str:
    return await edit(Ticket(title="first"))


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_part_of_a_model_a_body_changes_is_told_and_only_a_change(change: str) -> None:
    """The check after the body first compares the field values by identity (no second digest where every one is
    the very object it was); any other outcome digests again, so an in-place change of a list field, an extra
    field or a private attribute is told as surely as a rebound field, and an equal value rebound is not."""
    CHANGE[0] = change
    runtime_shim.install(mode="scoped")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run(editing.build(checkpoint_storage=maf.InMemoryCheckpointStorage()).run("go"))
    told = [str(w.message) for w in caught if issubclass(w.category, ArgumentMutatedWarning)]
    named = CHANGES[change][0]
    if named is None:
        assert told == []
    else:
        (message,) = told
        expected = "argument 'ticket'" if named == "ticket" else f"field ticket.{named}"
        assert "@step 'edit' changed" in message and expected in message
