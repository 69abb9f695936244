"""Differential test: without nesting, the shim changes nothing MAF produces.

Random workflows of top-level step calls (sequential or gathered, string or
pydantic arguments, explicit replay keys on 1.20+, human-in-the-loop requests)
run without the shim, in flat mode and in scoped mode; each is crashed once or
interrupted by a request and then resumed, with an in-memory or a file
checkpoint storage. Outputs, errors, every event and every checkpoint must be
identical: whole checkpoints in memory, and the checkpoint files byte for byte
(only ids and timestamps, which differ between any two runs, are replaced by
stable placeholders; gathered calls only in memory, see ``comparable``). The
one allowed difference: the workflow-level failure event's traceback text,
which gains the shim's own ``__call__`` frame.

Replay verification (on by default) adds its records to the checkpoints'
``_step_cache_auto_request_info_counts``: with it, checkpoints must be
identical once the records are taken out (re-serialized exactly as
FileCheckpointStorage writes them), and with ``on_replay_mismatch="off"``
byte for byte as they are.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import agent_framework as maf
import pytest
from hypothesis import given
from hypothesis import strategies as st
from shim_strategies import example_settings
from shim_support import ARG_KINDS, HAS_FINGERPRINTS, chain, label_of, latest, make_arg, run
from shim_trees import storage_of

from steplint import runtime_shim

pytestmark = pytest.mark.runtime


@dataclass(frozen=True)
class Call:
    step: str
    label: str


@dataclass
class FlatScenario:
    batches: tuple[tuple[Call, ...], ...]  # a batch of one is awaited, a longer one gathered
    kind: str
    crash: tuple[int, int] | None
    crashed: bool = False


SCENARIO: FlatScenario | None = None


def _maybe_crash(job: Any) -> None:
    assert SCENARIO is not None
    position = label_of(job).rsplit(".", 1)[0]
    if SCENARIO.crash is not None and not SCENARIO.crashed and position == crash_label(SCENARIO.crash):
        SCENARIO.crashed = True
        raise RuntimeError(f"crash at {label_of(job)}")


def crash_label(position: tuple[int, int]) -> str:
    return f"{position[0]}.{position[1]}"


@maf.step
async def one(job: Any) -> str:
    _maybe_crash(job)
    return "one:" + label_of(job)


@maf.step
async def two(job: Any) -> dict[str, str]:
    _maybe_crash(job)
    return {"two": label_of(job)}


@maf.step
async def ask(job: Any, ctx: maf.RunContext) -> str:
    _maybe_crash(job)
    answer = await ctx.request_info({"about": label_of(job)}, response_type=str)
    return f"ask:{label_of(job)}={answer}"


if HAS_FINGERPRINTS:

    @maf.step(replay_key=lambda job: "keyed:" + label_of(job))
    async def keyed(job: Any) -> str:
        _maybe_crash(job)
        return "keyed:" + label_of(job)

    STEPS = {"one": one, "two": two, "ask": ask, "keyed": keyed}
else:
    STEPS = {"one": one, "two": two, "ask": ask}


async def _call(position: tuple[int, int], call: Call) -> Any:
    assert SCENARIO is not None
    # The position makes labels unique, so explicit replay keys never collide.
    return await STEPS[call.step](make_arg(SCENARIO.kind, f"{crash_label(position)}.{call.label}"))


@maf.workflow(name="flat-diff")
async def flat_diff(_: str) -> list[Any]:
    assert SCENARIO is not None
    outputs: list[Any] = []
    for b, batch in enumerate(SCENARIO.batches):
        if len(batch) == 1:
            outputs.append(await _call((b, 0), batch[0]))
        else:
            outputs.extend(await asyncio.gather(*(_call((b, c), call) for c, call in enumerate(batch))))
    return outputs


_SHIM_FRAME = re.compile(r'  File "[^"]*runtime_shim[^"]*", line \d+, in [^\n]*\n(?:    [^\n]*\n)*')


def normalized(value: Any) -> Any:
    if isinstance(value, maf.WorkflowErrorDetails) or type(value).__name__ == "WorkflowErrorDetails":
        traceback = _SHIM_FRAME.sub("", value.traceback or "")
        return ("details", value.error_type, value.message, traceback, value.executor_id)
    return repr(value)


def event_record(event: Any) -> dict[str, Any]:
    return {name: normalized(value) for name, value in sorted(vars(event).items())}


async def stream(workflow: Any, **run_kwargs: Any) -> tuple[list[dict[str, Any]], str | None]:
    events: list[dict[str, Any]] = []
    try:
        async for event in workflow.run(stream=True, **run_kwargs):
            events.append(event_record(event))
    except Exception as exc:
        return events, f"{type(exc).__name__}: {exc}"
    return events, None


SHIM_RECORDS = ("steplint-replay", "steplint-shim")


def without_shim_records(checkpoint: dict) -> dict:
    counts = checkpoint.get("state", {}).get("_step_cache_auto_request_info_counts")
    if isinstance(counts, dict):
        for key in [key for key in counts if any(name in key for name in SHIM_RECORDS)]:
            del counts[key]
    return checkpoint


async def checkpoint_contents(storage: Any, strip_records: bool = False) -> list[bytes]:
    """Every checkpoint, oldest first, byte for byte, with only its id and timestamp made stable.

    FileCheckpointStorage: the files themselves (and nothing else may be in
    the directory). InMemoryCheckpointStorage: the repr of the whole
    checkpoint. Ids (also as previous_checkpoint_id and file names) become
    their position in the chain; timestamps a placeholder.
    """
    checkpoints = await chain(storage, "flat-diff")
    stable = {checkpoint.checkpoint_id: f"checkpoint-{index}" for index, checkpoint in enumerate(checkpoints)}
    stable.update((checkpoint.timestamp, "<timestamp>") for checkpoint in checkpoints)
    if isinstance(storage, maf.FileCheckpointStorage):
        directory = Path(storage.storage_path)
        files = [directory / f"{checkpoint.checkpoint_id}.json" for checkpoint in checkpoints]
        assert sorted(directory.iterdir()) == sorted(files), "only complete checkpoint files are left"
        raw = [file.read_bytes() for file in files]
        if strip_records:  # as FileCheckpointStorage writes: json.dump(..., indent=2, ensure_ascii=False)
            raw = [json.dumps(without_shim_records(json.loads(data)), indent=2, ensure_ascii=False).encode() for data in raw]
        contents = [file.name.encode() + b"\n" + data for file, data in zip(files, raw)]
    else:
        dicts = [checkpoint.to_dict() for checkpoint in checkpoints]
        contents = [repr(without_shim_records(d) if strip_records else d).encode() for d in dicts]
    for original, replacement in stable.items():
        contents = [content.replace(original.encode(), replacement.encode()) for content in contents]
    return contents


async def observe(scenario: FlatScenario, storage: Any, resume_mode: str | None = "same",
                  strip_records: bool = False) -> list[Any]:
    """Run, then resume after a crash or answer requests; everything observable, in order.

    With *resume_mode* other than "same", the runs after the first one happen
    in that mode ("flat", "scoped" or None for MAF alone).
    """
    global SCENARIO
    SCENARIO = scenario
    workflow = flat_diff.build(checkpoint_storage=storage)
    observed: list[Any] = [await stream(workflow, message="go")]
    if resume_mode != "same":
        use_mode(resume_mode)
    for _ in range(4):
        requests = [event for event in observed[-1][0] if event["type"] == repr("request_info")]
        if scenario.crashed and observed[-1][1] is not None:
            checkpoint = await latest(storage, "flat-diff")
            resumed = flat_diff.build(checkpoint_storage=storage)
            kwargs = {"checkpoint_id": checkpoint.checkpoint_id} if checkpoint else {"message": "go"}
            observed.append(await stream(resumed, **kwargs))
        elif requests:
            # each answer names the request it was given for, so an answer handed to another request shows
            responses = {eval(event["_request_id"]): f"yes:{eval(event['data'])['about']}" for event in requests}
            observed.append(await stream(workflow, responses=responses))
        else:
            break
    observed.append(await checkpoint_contents(storage, strip_records))
    return observed


def use_mode(mode: str | None) -> None:
    """None: MAF alone; "flat" or "scoped": the defaults (verification on); "flat/off": verification off."""
    runtime_shim.uninstall()
    if mode is not None:
        name, _, verification = mode.partition("/")
        runtime_shim.install(mode=name, on_replay_mismatch=verification or None)


def records(mode: str | None) -> bool:
    return mode is not None and "/" not in mode


def observe_under_each_mode(
    scenario_args: dict[str, Any], storage_kind: str = "memory", crossings: tuple[tuple[Any, Any], ...] = ()
) -> dict[str, list[Any]]:
    """Observations keyed by mode ("None", "flat", "scoped"), and by "first->then" for each crossing."""
    results: dict[str, list[Any]] = {}
    plans = [(mode, "same") for mode in (None, "flat", "scoped", "flat/off", "scoped/off")] + list(crossings)
    for first, then in plans:
        use_mode(first)
        with storage_of(storage_kind) as storage:
            strip = records(first) or records(then if then != "same" else None)
            observed = run(observe(FlatScenario(**scenario_args), storage, then, strip))
        results[str(first) if then == "same" else f"{first}->{then}"] = observed
    runtime_shim.uninstall()
    return results


CALLS = st.builds(Call, step=st.sampled_from(sorted(STEPS)), label=st.sampled_from("ab"))
BATCHES = st.lists(st.lists(CALLS, min_size=1, max_size=3).map(tuple), min_size=1, max_size=5).map(tuple)


def comparable(batches: tuple[tuple[Call, ...], ...], storage_kind: str) -> tuple[tuple[Call, ...], ...]:
    """Gathered calls only for the in-memory storage.

    FileCheckpointStorage saves from threads: even without the shim, which
    checkpoint of gathered steps links to which varies from run to run, and the
    save of a sibling of a crashed step may land after the run failed. So the
    files are compared for sequential calls.
    """
    if storage_kind == "file":
        return tuple((call,) for batch in batches for call in batch)
    return batches


FLAT_WORKFLOWS = {
    "batches": BATCHES,
    "kind": st.sampled_from(ARG_KINDS),
    "storage_kind": st.sampled_from(["memory", "file"]),
    "data": st.data(),
}


def drawn_scenario(
    batches: tuple[tuple[Call, ...], ...], kind: str, storage_kind: str, data: st.DataObject, crash_always: bool
) -> dict[str, Any]:
    """FlatScenario arguments: the batches for *storage_kind*, and a crash drawn among their calls."""
    batches = comparable(batches, storage_kind)
    positions = st.sampled_from([(b, c) for b, batch in enumerate(batches) for c in range(len(batch))])
    crash = data.draw(positions if crash_always else st.one_of(st.none(), positions), label="crash")
    return {"batches": batches, "kind": kind, "crash": crash}


_ANSWERED = re.compile(r"ask:(\d+\.\d+\.[ab])=yes:(\d+\.\d+\.[ab])")  # the labels _call makes


def misrouted(observed: Any) -> bool:
    """Whether a request got the answer given for another (MAF matches answers by call order: a gathered sibling
    that crashed once asks in another place on the replay)."""
    return any(asked != given for asked, given in _ANSWERED.findall(repr(observed)))


def assert_like_maf_alone(results: dict[str, list[Any]]) -> None:
    assert results["flat/off"] == results["None"]  # byte for byte
    assert results["scoped/off"] == results["None"]
    if not misrouted(results["None"]):
        assert results["flat"] == results["None"]  # records taken out
        assert results["scoped"] == results["None"]
    else:  # MAF alone was wrong: verification refuses ("error") or gets each request its own answer ("rerun")
        assert not misrouted(results["scoped"])
        # (the harness resumes again after the refusal, from a checkpoint; what MAF hands out then is not judged)
        assert "ReplayMismatchError" in repr(results["flat"])


@example_settings(40)  # each example runs five ways; STEPLINT_SHIM_EXAMPLES raises it
@given(**FLAT_WORKFLOWS)
def test_flat_workflows_are_identical_with_and_without_the_shim(
    batches: tuple[tuple[Call, ...], ...], kind: str, storage_kind: str, data: st.DataObject
) -> None:
    assert_like_maf_alone(observe_under_each_mode(drawn_scenario(batches, kind, storage_kind, data, False),
                                                  storage_kind))


# Checkpoints (and paused runs) made without the shim, finished under it, and the other way.
CROSSINGS = ((None, "flat"), (None, "scoped"), ("flat", None), ("scoped", None))


@example_settings(25)  # each example crosses four ways; STEPLINT_SHIM_EXAMPLES raises it
@given(**FLAT_WORKFLOWS)
def test_flat_checkpoints_cross_the_shim_both_ways_unchanged(
    batches: tuple[tuple[Call, ...], ...], kind: str, storage_kind: str, data: st.DataObject
) -> None:
    scenario = drawn_scenario(batches, kind, storage_kind, data, True)
    results = observe_under_each_mode(scenario, storage_kind, CROSSINGS)
    for first, then in CROSSINGS:
        assert results[f"{first}->{then}"] == results["None"], (first, then)


@pytest.mark.parametrize("storage_kind", ["memory", "file"])
def test_the_comparison_sees_events_checkpoints_and_errors(storage_kind: str) -> None:
    """Guard against a vacuous differential: the observation holds real events, keys and files."""
    batches = comparable(((Call("one", "a"),), (Call("ask", "b"),), (Call("two", "a"), Call("one", "b"))), storage_kind)
    observed = observe_under_each_mode({"batches": batches, "kind": "str", "crash": None}, storage_kind)["None"]
    first_events, error = observed[0]
    assert error is None
    assert [event["type"] for event in first_events].count(repr("executor_completed")) == 1
    assert any(event["type"] == repr("request_info") for event in first_events)
    contents = observed[-1]
    assert len(contents) >= 4, "a checkpoint per completed step and per pause"
    assert all(b"<timestamp>" in content for content in contents), "timestamps made stable"
    assert sum(b"checkpoint-0" in content for content in contents) >= 2, "ids and links to them made stable"
    assert b"one:0.0.a" in contents[-1] and b"ask:1.0.b=yes" in contents[-1], "cached results"
    if storage_kind == "file":
        assert contents[0].startswith(b"checkpoint-0.json\n{")
    crash = (2, 1) if storage_kind == "memory" else (3, 0)  # one(b), gathered or not
    crashed = observe_under_each_mode({"batches": batches, "kind": "str", "crash": crash}, storage_kind)
    errors = [error for events, error in crashed["None"][:-1]]
    assert errors == [None, f"RuntimeError: crash at {crash_label(crash)}.b", None]  # request, crash, resume
    assert crashed["scoped"] == crashed["None"]
    # The records are there to be taken out: verification's checkpoints are not MAF's byte for byte.
    with storage_of(storage_kind) as storage:
        use_mode("scoped")
        raw = run(observe(FlatScenario(batches=batches, kind="model", crash=None), storage))[-1]
        runtime_shim.uninstall()
    assert any(b"steplint-replay" in content for content in raw)


def test_gathered_requests_answered_after_a_crash_get_their_own_answers() -> None:
    """Found by the example above in CI (session 24): three gathered calls each ask, the second crashes once; on the
    resume it asks in the place its sibling had, so MAF alone (1.18/1.19) hands it the sibling's answer. Flat mode
    ("error") refuses it, scoped mode ("rerun") gets each request its own answer; without verification the shim
    changes nothing."""
    batches = comparable(((Call("ask", "a"), Call("ask", "a"), Call("ask", "a")),), "memory")
    results = observe_under_each_mode({"batches": batches, "kind": "model", "crash": (0, 1)}, "memory")
    assert_like_maf_alone(results)
    if not HAS_FINGERPRINTS:
        assert misrouted(results["None"])
