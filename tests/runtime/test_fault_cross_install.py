"""Checkpoints that cross the shim: written without it and resumed under it, and the other way.

Random trees of nested step calls (some children gathered), crashed once. The
same checkpoint is then resumed with and without the shim:

* written without the shim, resumed in scoped mode: never worse than MAF
  alone. Wherever the shim's output is wrong (or it fails), MAF alone's is
  wrong too, and without nesting both resumes are identical;
* written in scoped mode, resumed without the shim: the right output (nested
  steps run again, since their scoped keys mean nothing to MAF alone), or the
  very error MAF alone raises for that tree anyway; never a wrong output.

Flat workflows cross the shim byte for byte: test_shim_differential.py.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar
from typing import Any

import agent_framework as maf
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from shim_strategies import example_settings, trees
from shim_support import ARG_KINDS, HAS_FINGERPRINTS, label_of, latest, make_arg, run
from shim_trees import (
    Crash,
    Node,
    Outcome,
    crash_first_run,
    crash_points,
    expected_output,
    has_nesting,
    resume,
    run_uninterrupted,
)

from steplint import runtime_shim

pytestmark = pytest.mark.runtime

N = Node
TREES = trees(concurrent=True)
KINDS = st.sampled_from(ARG_KINDS)
# How the property tests' examples came out, for the closing report and the README.


def first_run_checkpoint(roots: tuple[Node, ...], kind: str, crash: Any, mode: str | None) -> tuple[Any, Any]:
    """Crash a first run (under *mode*, or MAF alone); its storage and latest checkpoint.

    An example where MAF refuses the tree before the crash point (e.g. gathered
    steps without a replay identity on 1.20+) is not about crossing the shim.
    """
    runtime_shim.uninstall()
    if mode is not None:
        runtime_shim.install(mode=mode)
    storage = maf.InMemoryCheckpointStorage()
    try:
        run(crash_first_run(roots, kind, crash, storage))
    except (ValueError, AssertionError) as exc:
        assert not isinstance(exc, Crash)
        assume(False)
    return storage, run(latest(storage, "tree"))


def drawn_crash(roots: tuple[Node, ...], data: st.DataObject) -> Any:
    return data.draw(st.sampled_from(crash_points(roots)), label="crash")


def resumed(roots: tuple[Node, ...], kind: str, storage: Any, checkpoint: Any, mode: str | None) -> Outcome:
    runtime_shim.uninstall()
    if mode is not None:
        runtime_shim.install(mode=mode)
    return run(resume(roots, kind, storage, checkpoint))


def right(outcome: Outcome, roots: tuple[Node, ...]) -> bool:
    return outcome.error is None and outcome.output == expected_output(roots)


@example_settings(80)
@given(roots=TREES, kind=KINDS, data=st.data())
def test_checkpoint_made_without_the_shim_resumes_under_it_never_worse_than_maf_alone(
    roots: tuple[Node, ...], kind: str, data: st.DataObject
) -> None:
    storage, checkpoint = first_run_checkpoint(roots, kind, drawn_crash(roots, data), None)
    shimmed = resumed(roots, kind, storage, checkpoint, "scoped")
    alone = resumed(roots, kind, storage, checkpoint, None)
    # The README's promise: never worse than MAF alone (right wherever MAF alone is right).
    assert right(shimmed, roots) or not right(alone, roots), (shimmed.described(), alone.described())
    if not has_nesting(roots):
        assert shimmed.described() == alone.described()
    assert right(shimmed, roots) or not right(alone, roots), (shimmed.described(), alone.described())


@example_settings(50)
@given(roots=TREES, kind=KINDS, data=st.data())
def test_checkpoint_made_under_the_shim_resumes_without_it_by_running_nested_steps_again(
    roots: tuple[Node, ...], kind: str, data: st.DataObject
) -> None:
    storage, checkpoint = first_run_checkpoint(roots, kind, drawn_crash(roots, data), "scoped")
    alone = resumed(roots, kind, storage, checkpoint, None)
    if right(alone, roots):
        return
    # Not a wrong output: the error MAF alone raises for this tree without any crash.
    assert alone.error is not None, alone.described()
    runtime_shim.uninstall()
    uninterrupted = run(run_uninterrupted(roots, kind))
    assert uninterrupted.error is not None, alone.described()
    assert (type(alone.error), str(alone.error)) == (type(uninterrupted.error), str(uninterrupted.error))


# A step called inside another, then at top level with the same argument; crashed
# after the nested call completed. Without the shim the old checkpoint holds
# beta::0 (or occurrence 0 of beta(a)) for the nested call, which MAF alone gives
# back to the nested call on resume; a scoped resume that counted only top-level
# calls would give it to the top-level call instead.
SHARED = (N("alpha", "a", (N("beta", "a"),)), N("beta", "a"))
SHARED_CRASH = ((0,), "after")


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_an_old_nested_entry_is_not_taken_for_a_top_level_call(kind: str) -> None:
    """The case a plain scoped resume got wrong (and MAF alone right) before the shim counted like MAF."""
    storage, checkpoint = first_run_checkpoint(SHARED, kind, SHARED_CRASH, None)
    shimmed = resumed(SHARED, kind, storage, checkpoint, "scoped")
    assert right(shimmed, SHARED), shimmed.described()
    # The nested call is recomputed (its old entry is not scoped), then everything after it.
    assert sorted(shimmed.completions) == [(0,), (0, 0), (1,)]
    assert right(resumed(SHARED, kind, storage, checkpoint, None), SHARED)


# Two steps nesting the same call, then a top-level call of it: the old checkpoint
# holds beta::0 and beta::1, both nested, which a top-level beta(b) must never get.
TWICE = (N("alpha", "a", (N("beta", "a"),)), N("alpha", "a", (N("beta", "a"),)), N("beta", "b"))
TWICE_CRASH = ((1,), "after")


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_a_run_resumed_from_an_old_checkpoint_leaves_no_old_nested_entries_for_the_next_resume(kind: str) -> None:
    """Crash without the shim, resume in scoped mode and crash again, resume again.

    The second run's checkpoints hold scoped keys, so the third run trusts
    every unscoped entry in them: the second run must not carry the old nested
    entries over (it drops whatever no top-level call claimed, at its first
    checkpoint).
    """
    storage, old = first_run_checkpoint(TWICE, kind, TWICE_CRASH, None)
    runtime_shim.install(mode="scoped")
    run(crash_first_run(TWICE, kind, TWICE_CRASH, storage, old))
    newest = run(latest(storage, "tree"))
    assert newest.previous_checkpoint_id is not None and newest.checkpoint_id != old.checkpoint_id
    third = resumed(TWICE, kind, storage, newest, "scoped")
    assert right(third, TWICE), third.described()


WHERE: ContextVar[str] = ContextVar("cross_install_where", default="top")
crash_outer_once: list[bool] = []


@maf.step
async def shared_tick(job: Any) -> str:
    await asyncio.sleep(0)  # the other gathered call allocates its key meanwhile
    return f"{WHERE.get()}:{label_of(job)}"


@maf.step
async def outer_tick(job: Any) -> str:
    WHERE.set("nested")
    result = await shared_tick(job)
    if crash_outer_once:
        crash_outer_once.clear()
        raise Crash("crash after the nested call")
    return f"outer({result})"


@maf.workflow(name="gathered-shared")
async def gathered_shared(kind: str) -> list[str]:
    # The same step, with the same argument, nested in the first call and at top level in the second.
    return list(await asyncio.gather(outer_tick(make_arg(kind, "a")), shared_tick(make_arg(kind, "a"))))


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_a_gathered_top_level_call_does_not_take_the_entry_of_a_nested_call_still_running(kind: str) -> None:
    """The old checkpoint holds shared_tick's first key for the nested call; on resume the
    top-level call asks for that key while the nested call is still running (no checkpoint
    has been written yet in the resumed run), so only counting like MAF tells them apart."""
    if kind == "model" and HAS_FINGERPRINTS:
        pytest.skip("MAF 1.20+ refuses gathered steps without a replay identity")
    storage = maf.InMemoryCheckpointStorage()
    crash_outer_once.append(True)
    with pytest.raises(Crash):
        run(gathered_shared.build(checkpoint_storage=storage).run(kind))
    old = run(latest(storage, "gathered-shared"))
    assert old is not None
    outputs = {}
    for mode in (None, "scoped"):
        runtime_shim.uninstall()
        if mode is not None:
            runtime_shim.install(mode=mode)
        resumed_run = gathered_shared.build(checkpoint_storage=storage).run(checkpoint_id=old.checkpoint_id)
        outputs[mode] = run(resumed_run).get_outputs()
    assert outputs == {None: [["outer(nested:a)", "top:a"]], "scoped": [["outer(nested:a)", "top:a"]]}


late_runs: list[str] = []
crash_before_nesting: list[bool] = []


@maf.step
async def inner_note(job: Any) -> str:
    return f"inner:{label_of(job)}"


@maf.step
async def nesting_note(job: Any) -> str:
    if crash_before_nesting:
        await asyncio.sleep(0.2)  # the gathered late call completes first
        crash_before_nesting.clear()
        raise Crash("crash before the nested call")
    return f"nesting({await inner_note(job)})"


@maf.step
async def late_note(job: Any) -> str:
    late_runs.append(label_of(job))
    return f"late:{label_of(job)}"


async def after_a_while(job: Any) -> str:
    await asyncio.sleep(0.1)  # asks for its entry once the nesting call's nested call completed (a checkpoint)
    return await late_note(job)


@maf.workflow(name="late-claim")
async def late_claim(kind: str) -> list[str]:
    return list(await asyncio.gather(nesting_note(make_arg(kind, "a")), after_a_while(make_arg(kind, "b"))))


@pytest.mark.parametrize("kind", ARG_KINDS)
@pytest.mark.parametrize("made_under", [None, "scoped-off"])
def test_a_gathered_call_that_asks_after_the_first_nested_call_keeps_its_entry(kind: str, made_under: str | None) -> None:
    """A checkpoint without the shim's record (MAF alone's, or scoped mode's without verification before the run
    nested) holds a gathered call's result; on resume the other call nests, and a checkpoint is written, before
    that call asks for its entry. It gets it, as from MAF alone (replay fuzzer seed 41144: the checkpoint the
    nested call's completion wrote dropped it, and the body ran again)."""
    if kind == "model" and HAS_FINGERPRINTS:
        pytest.skip("MAF 1.20+ refuses gathered steps without a replay identity")
    late_runs.clear()
    runtime_shim.uninstall()
    if made_under is not None:
        runtime_shim.install(mode="scoped", on_replay_mismatch="off")
    storage = maf.InMemoryCheckpointStorage()
    crash_before_nesting.append(True)
    with pytest.raises(Crash):
        run(late_claim.build(checkpoint_storage=storage).run(kind))
    old = run(latest(storage, "late-claim"))
    assert old is not None and late_runs == ["b"]
    outputs, reruns = {}, {}
    for mode in (None, "scoped"):
        runtime_shim.uninstall()
        if mode is not None:
            runtime_shim.install(mode=mode, on_replay_mismatch="off")
        late_runs.clear()
        resumed_run = late_claim.build(checkpoint_storage=storage).run(checkpoint_id=old.checkpoint_id)
        outputs[mode], reruns[mode] = run(resumed_run).get_outputs(), list(late_runs)
    runtime_shim.uninstall()
    assert outputs == {None: [["nesting(inner:a)", "late:b"]], "scoped": [["nesting(inner:a)", "late:b"]]}
    assert reruns == {None: [], "scoped": []}
    # the resumed run's own checkpoints carry the record and its claimed entry: a second resume takes them whole
    newest = run(latest(storage, "late-claim"))
    runtime_shim.install(mode="scoped", on_replay_mismatch="off")
    late_runs.clear()
    again = run(late_claim.build(checkpoint_storage=storage).run(checkpoint_id=newest.checkpoint_id)).get_outputs()
    runtime_shim.uninstall()
    assert again == [["nesting(inner:a)", "late:b"]] and late_runs == []


pause_runs: list[str] = []
crash_first_pause_run: list[bool] = []


@maf.step
async def pause_tick(label: str) -> str:
    pause_runs.append(f"tick:{label}")
    return f"tick:{label}"


@maf.step
async def pause_claim(label: str) -> str:
    pause_runs.append(f"claim:{label}")
    return f"claim:{label}"


@maf.step
async def pause_asker(label: str, ctx: maf.RunContext) -> str:
    nested = await pause_tick("n")
    await asyncio.sleep(0.1)
    answer = await ctx.request_info({"q": label}, response_type=str)
    return f"{nested}/{label}={answer}"


async def tick_later() -> str:
    await asyncio.sleep(0.05)
    return await pause_tick("top")


@maf.workflow(name="withheld-pause")
async def withheld_pause(kind: str) -> list[str]:
    if crash_first_pause_run:
        crash_first_pause_run.clear()
        await pause_claim("c")
        raise Crash("first run")
    got = list(await asyncio.gather(pause_asker("q"), tick_later()))
    got.append(await pause_claim("c"))
    return got


def test_a_pause_after_a_legacy_replay_withheld_an_entry_keeps_the_runs_own_results():
    """A legacy replay that nested wrote a checkpoint (so it withholds the entry nothing claimed yet), completed a
    gathered call, then paused: the response-only replay (no checkpoint; 1.18/1.19 copy the live cache) takes
    the run's own results and runs only what is left (it ran the completed call again when the cache MAF kept
    still held the withheld entry and so no longer matched the run's record)."""
    runtime_shim.uninstall()
    storage = maf.InMemoryCheckpointStorage()
    crash_first_pause_run.append(True)
    with pytest.raises(Crash):
        run(withheld_pause.build(checkpoint_storage=storage).run("x"))
    old = run(latest(storage, "withheld-pause"))
    runtime_shim.install(mode="scoped", on_replay_mismatch="off")
    try:
        built = withheld_pause.build(checkpoint_storage=storage)
        pause_runs.clear()
        (request,) = run(built.run(checkpoint_id=old.checkpoint_id)).get_request_info_events()
        assert pause_runs == ["tick:n", "tick:top"]
        pause_runs.clear()
        answered = run(built.run(responses={request.request_id: "yes"}))
    finally:
        runtime_shim.uninstall()
    assert answered.get_outputs() == [["tick:n/q=yes", "tick:top", "claim:c"]]
    assert pause_runs == ["claim:c"]
