"""Answers to request_info are checked like cache entries (runtime_shim.answer_check), on the real framework.

The workflow asks one question per job, in an order that changes between the pause and its answer (code
edited while the run waited, a branch on time): MAF matches answers by ``auto::<n>``, the order requests are
made in, so MAF alone hands job b the answer given for job a.
"""

from __future__ import annotations

import warnings

import agent_framework as maf
import pytest
from shim_support import Job, latest, run

from steplint import runtime_shim

pytestmark = pytest.mark.runtime

order_of_run: list[str] = ["a", "b"]


@maf.step
async def approve(job: Job, ctx: maf.RunContext) -> str:
    answer = await ctx.request_info({"question": f"approve {job.label}?"}, response_type=str)
    return f"{job.label}={answer}"


@maf.workflow(name="answers-reordered")
async def answers_reordered(_: str) -> list[str]:
    return [await approve(Job(label=label)) for label in list(order_of_run)]


def _first_pause(storage: object | None) -> tuple[object, str]:
    """Run in order a, b until job a's question; the answer given is a's."""
    order_of_run[:] = ["a", "b"]
    workflow = answers_reordered.build(checkpoint_storage=storage)
    (request,) = run(workflow.run("go")).get_request_info_events()
    assert request.data == {"question": "approve a?"}
    return workflow, request.request_id


def _resume(workflow: object, storage: object | None, responses: dict[str, str]) -> object:
    if storage is None:
        return run(workflow.run(responses=responses))
    checkpoint = run(latest(storage, "answers-reordered"))
    resumed = answers_reordered.build(checkpoint_storage=storage)
    return run(resumed.run(checkpoint_id=checkpoint.checkpoint_id, responses=responses))


STORAGES = {"none": lambda: None, "memory": maf.InMemoryCheckpointStorage}


def _paused_then_reordered(mode: str, policy: str, storage_kind: str) -> tuple[object, object | None, str]:
    """Under the shim: paused on a's question, then the order changes to b, a before the answer comes."""
    runtime_shim.install(mode=mode, on_replay_mismatch=policy)
    runtime_shim.reset_replay_report()
    storage = STORAGES[storage_kind]()
    workflow, request_id = _first_pause(storage)
    order_of_run[:] = ["b", "a"]
    return workflow, storage, request_id


@pytest.mark.parametrize("storage_kind", STORAGES)
def test_maf_alone_hands_b_the_answer_given_for_a(storage_kind: str) -> None:
    storage = STORAGES[storage_kind]()
    workflow, request_id = _first_pause(storage)
    order_of_run[:] = ["b", "a"]
    result = _resume(workflow, storage, {request_id: "yes"})
    (request,) = result.get_request_info_events()
    assert request.data == {"question": "approve a?"}  # b took a's answer; a is asked under b's id
    done = _resume(workflow, storage, {request_id: "yes", request.request_id: "no"})
    assert done.get_outputs() == [["b=yes", "a=no"]]  # both wrong


@pytest.mark.parametrize("storage_kind", STORAGES)
@pytest.mark.parametrize("mode", ["scoped", "flat"])
def test_error_refuses_an_answer_given_for_another_request(mode: str, storage_kind: str) -> None:
    workflow, storage, request_id = _paused_then_reordered(mode, "error", storage_kind)
    with pytest.raises(runtime_shim.ReplayMismatchError) as raised:
        _resume(workflow, storage, {request_id: "yes"})
    assert raised.value.answer and raised.value.key == request_id == "auto::0"
    assert raised.value.differences == ("the requesting call",)
    assert "another request's answer" in str(raised.value)
    report = runtime_shim.replay_report()
    assert (report.answers_mismatched, report.answers_verified) == (1, 0), report


@pytest.mark.parametrize("storage_kind", STORAGES)
def test_warn_hands_the_answer_over_and_says_so(storage_kind: str) -> None:
    workflow, storage, request_id = _paused_then_reordered("scoped", "warn", storage_kind)
    with pytest.warns(runtime_shim.ReplayMismatchWarning, match="answer to request 'auto::0'") as caught:
        result = _resume(workflow, storage, {request_id: "yes"})
    assert any(w.filename == __file__ for w in caught)  # at the line that asked
    (request,) = result.get_request_info_events()
    assert request.data == {"question": "approve a?"}  # as MAF alone
    assert runtime_shim.replay_report().answers_mismatched == 1


@pytest.mark.parametrize("storage_kind", STORAGES)
def test_rerun_asks_again_and_gives_each_request_its_own_answer(storage_kind: str) -> None:
    workflow, storage, request_id = _paused_then_reordered("scoped", "rerun", storage_kind)
    answers = {request_id: "yes"}  # given for a
    result = _resume(workflow, storage, answers)
    (request,) = result.get_request_info_events()
    assert request.data == {"question": "approve b?"} and request.request_id.startswith("auto::0~")
    answers[request.request_id] = "no"  # for b
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to say: each answer reaches its own request
        done = _resume(workflow, storage, answers)
    assert done.get_outputs() == [["b=no", "a=yes"]]
    report = runtime_shim.replay_report()
    assert report.answers_reasked == 1 and report.answers_moved >= 1, report
    assert report.answers_mismatched == 2, report  # b at a's id, in both replays


@pytest.mark.parametrize("storage_kind", STORAGES)
@pytest.mark.parametrize("policy", ["error", "warn", "rerun"])
def test_answers_in_the_order_they_were_asked_are_verified(policy: str, storage_kind: str) -> None:
    runtime_shim.install(mode="scoped", on_replay_mismatch=policy)
    runtime_shim.reset_replay_report()
    storage = STORAGES[storage_kind]()
    workflow, first_id = _first_pause(storage)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = _resume(workflow, storage, {first_id: "yes"})
        (request,) = result.get_request_info_events()
        assert request.data == {"question": "approve b?"}
        done = _resume(workflow, storage, {first_id: "yes", request.request_id: "no"})
    assert done.get_outputs() == [["a=yes", "b=no"]]
    report = runtime_shim.replay_report()
    assert (report.answers_verified, report.answers_mismatched) == (2, 0), report  # a, then b (a is cached)


def test_a_request_with_its_own_id_is_taken_as_it_is() -> None:
    runtime_shim.install(mode="scoped", on_replay_mismatch="error")
    runtime_shim.reset_replay_report()

    @maf.workflow(name="answers-named")
    async def named(_: str) -> str:
        ctx = maf.get_run_context()
        return await ctx.request_info({"question": order_of_run[0]}, response_type=str, request_id="approval")

    order_of_run[:] = ["a"]
    workflow = named.build()
    (request,) = run(workflow.run("go")).get_request_info_events()
    order_of_run[:] = ["b"]
    assert run(workflow.run(responses={request.request_id: "yes"})).get_outputs() == ["yes"]
    report = runtime_shim.replay_report()
    assert report.answers_verified == report.answers_mismatched == report.answers_unchecked == 0, report


passes: list[int] = []


@maf.step
async def approve_at(job: Job, ctx: maf.RunContext) -> str:
    passes.append(1)  # a prompt made afresh in each pass (a time, an id): the same request all the same
    answer = await ctx.request_info({"question": f"approve {job.label}? (pass {len(passes)})"}, response_type=str)
    return f"{job.label}={answer}"


@maf.workflow(name="answers-fresh-prompt")
async def fresh_prompt(_: str) -> list[str]:
    return [await approve_at(Job(label="a")), await approve_at(Job(label="b"))]


@pytest.mark.parametrize("storage_kind", STORAGES)
@pytest.mark.parametrize("policy", ["error", "warn", "rerun"])
def test_a_request_whose_data_changes_between_passes_is_the_same_request(policy: str, storage_kind: str) -> None:
    runtime_shim.install(mode="scoped", on_replay_mismatch=policy)
    runtime_shim.reset_replay_report()
    passes.clear()
    storage = STORAGES[storage_kind]()
    workflow = fresh_prompt.build(checkpoint_storage=storage)
    answers: dict[str, str] = {}
    result = run(workflow.run("go"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for answer in ("yes", "no"):
            (request,) = result.get_request_info_events()
            answers[request.request_id] = answer
            if storage is None:
                result = run(workflow.run(responses=dict(answers)))
            else:
                checkpoint = run(latest(storage, "answers-fresh-prompt"))
                result = run(fresh_prompt.build(checkpoint_storage=storage).run(
                    checkpoint_id=checkpoint.checkpoint_id, responses=dict(answers)))
    assert result.get_outputs() == [["a=yes", "b=no"]]
    report = runtime_shim.replay_report()
    assert (report.answers_verified, report.answers_mismatched) == (2, 0), report


@pytest.mark.parametrize("policy", ["error", "warn", "rerun"])
def test_an_answer_to_a_request_asked_before_install_is_taken_and_said_unverified(policy: str) -> None:
    """The pause happened without the shim (no record): the answer is MAF's to give, and the run says it could not
    check it, once, at the asking line."""
    order_of_run[:] = ["a", "b"]
    workflow = answers_reordered.build()
    (request,) = run(workflow.run("go")).get_request_info_events()
    runtime_shim.install(mode="scoped", on_replay_mismatch=policy)
    runtime_shim.reset_replay_report()
    with pytest.warns(runtime_shim.UnverifiedReplayWarning, match="answer to request 'auto::0'") as caught:
        result = run(workflow.run(responses={request.request_id: "yes"}))
    assert sum(issubclass(w.category, runtime_shim.UnverifiedReplayWarning) for w in caught) == 1
    (second,) = result.get_request_info_events()
    assert second.data == {"question": "approve b?"}
    assert runtime_shim.replay_report().answers_unchecked == 1
