"""Human-in-the-loop (ctx.request_info) inside nested steps resumes correctly in scoped mode."""

from __future__ import annotations

import agent_framework as maf
import pytest
from shim_support import ARG_KINDS, HAS_FINGERPRINTS, Job, label_of, latest, make_arg, run

from steplint import runtime_shim

pytestmark = pytest.mark.runtime

ticks: list[str] = []
kind_of_run: list[str] = ["model"]


@maf.step
async def hitl_tick(job: object) -> str:
    ticks.append(label_of(job))
    return label_of(job).upper()


@maf.step
async def hitl_wrapper(job: object) -> str:
    return await hitl_tick(job)


@maf.step
async def ask(job: object, ctx: maf.RunContext) -> str:
    answer = await ctx.request_info({"question": label_of(job)}, response_type=str)
    return f"{label_of(job)}={answer}"


@maf.step
async def ask_after_a_sibling(job: object) -> str:
    before = await hitl_tick(make_arg(kind_of_run[0], "s"))
    return before + ":" + await ask(job)


@maf.workflow(name="hitl-nested")
async def hitl_nested(kind: str) -> list[str]:
    return [
        await hitl_wrapper(make_arg(kind, "a")),
        await ask_after_a_sibling(make_arg(kind, "q")),
        await hitl_wrapper(make_arg(kind, "b")),
    ]


EXPECTED = [["A", "S:q=yes", "B"]]


def first_run(kind: str, storage: object) -> tuple[object, str]:
    kind_of_run[0] = kind
    ticks.clear()
    workflow = hitl_nested.build(checkpoint_storage=storage)
    result = run(workflow.run(kind))
    (request,) = result.get_request_info_events()
    assert ticks == ["a", "s"]
    ticks.clear()
    return workflow, request.request_id


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_response_only_resume_of_a_nested_request(kind: str) -> None:
    runtime_shim.install(mode="scoped")
    workflow, request_id = first_run(kind, None)
    result = run(workflow.run(responses={request_id: "yes"}))
    assert result.get_outputs() == EXPECTED
    assert ticks == ["b"]


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_checkpoint_resume_of_a_nested_request(kind: str) -> None:
    runtime_shim.install(mode="scoped")
    storage = maf.InMemoryCheckpointStorage()
    _, request_id = first_run(kind, storage)
    checkpoint = run(latest(storage, "hitl-nested"))
    resumed = hitl_nested.build(checkpoint_storage=storage)
    result = run(resumed.run(checkpoint_id=checkpoint.checkpoint_id, responses={request_id: "yes"}))
    assert result.get_outputs() == EXPECTED
    assert ticks == ["b"]


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_maf_alone_replays_the_wrong_tick_after_the_request(kind: str) -> None:
    workflow, request_id = first_run(kind, None)
    result = run(workflow.run(responses={request_id: "yes"}))
    if kind == "str" and HAS_FINGERPRINTS:
        assert result.get_outputs() == EXPECTED
    else:
        assert result.get_outputs() != EXPECTED


order_of_run: list[str] = ["a", "b"]


@maf.workflow(name="hitl-reordered")
async def hitl_reordered(_: str) -> list[str]:
    first, second = order_of_run
    return [await hitl_tick(Job(label=first)), await hitl_tick(Job(label=second)), await ask(Job(label="q"))]


@pytest.mark.parametrize("mode", ["scoped", "flat"])
def test_a_storage_less_pause_hands_its_records_to_the_response_only_replay(mode: str) -> None:
    """The records a run queues reach the response-only replay of a run without a storage (MAF copies the
    counts after the body ends, on 1.18/1.19 without an export), so a replay in another order is caught."""
    runtime_shim.install(mode=mode)
    runtime_shim.reset_replay_report()
    order_of_run[:] = ["a", "b"]
    workflow = hitl_reordered.build()
    (request,) = run(workflow.run("go")).get_request_info_events()
    order_of_run[:] = ["b", "a"]  # MAF alone hands call b the entry of call a: [["A", "B", ...]]
    if mode == "flat":
        with pytest.raises(runtime_shim.ReplayMismatchError, match="hitl_tick"):
            run(workflow.run(responses={request.request_id: "yes"}))
    else:
        answered = run(workflow.run(responses={request.request_id: "yes"}))
        assert answered.get_outputs() == [["B", "A", "q=yes"]]
    report = runtime_shim.replay_report()
    assert report.mismatched >= 1 and report.unrecorded == 0, report
