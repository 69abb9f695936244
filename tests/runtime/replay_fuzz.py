"""The replay fuzzer's invariants (issue 27, item 6), checked for each generated program and configuration.

Each program runs under MAF alone and under the shim in each mode and policy,
on its storage: uninterrupted (the ground truth is each call's own value),
crashed, and resumed. The invariants, counted per check:

- ``other_value``: a call never receives another call's value unless the shim
  said so (``"warn"`` warned); under ``"off"`` only checked when the order did
  not change;
- ``completed_rerun``: a body whose result is in the resumed checkpoint never
  runs again, except under ``"rerun"`` after a mismatch;
- ``false_verified``: every wrong value handed over was counted mismatched,
  unrecorded or undigestable, never verified;
- ``shim_raised``: the shim raises nothing but ``ReplayMismatchError`` under
  ``"error"`` on a resume whose order changed (and ``NestedStepError`` in flat
  mode where the program nests, which is ``flat_refuses``);
- ``state_left``: no run context outlives its run, and ``uninstall()`` is done
  at once;
- ``kept_path``: a run keeps the code path it started on: one started before
  an ``install()`` made while it ran stays on MAF's code (and, without pauses,
  ends exactly as under MAF alone), every other run of a configuration starts
  under the shim.

Where the generator says so (``Program.other_process``) the resume runs in a
second process with another hash seed (``replay_fuzz_worker``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import gc
import logging
import tempfile
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import agent_framework as maf
import replay_fuzz_runner as runner
from replay_fuzz_model import MEMO_LABEL, Color, Program, answer_for, canonical, expected_value, generate, walk
from replay_fuzz_worker import worker
from shim_support import chain

from steplint import runtime_shim
from steplint.runtime_shim import NestedStepError, ReplayMismatchError, ReplayMismatchWarning, UnverifiedReplayWarning

INVARIANTS = ("other_value", "completed_rerun", "false_verified", "shim_raised", "state_left", "flat_refuses",
              "kept_path")
MODES = (None, "flat", "scoped")
POLICIES = ("error", "warn", "rerun", "off")
NAME = "replay_fuzz"


@dataclass
class Phase:
    """One logical run (with the resumes that answer its pauses)."""

    outputs: list[Any] | None
    error: BaseException | None
    trace: runner.Trace
    report: Any
    warned: int
    unverified: int = 0  # UnverifiedReplayWarning: the run took entries of a cache made without records
    removed: bool | None = None  # uninstall variant: the shim was gone once the phase's runs ended
    alive: int | None = None  # run contexts still alive after the phase, when counted in another process


Phases = tuple[Phase, Phase, Phase, set[str]]  # uninterrupted, crashed, resumed, labels in the resumed checkpoint


@dataclass
class Tally:
    programs: int = 0
    runs: int = 0
    checks: Counter[str] = field(default_factory=Counter)
    violations: Counter[str] = field(default_factory=Counter)
    maf_resumes: int = 0
    maf_wrong: int = 0
    examples: list[str] = field(default_factory=list)

    def judge(self, invariant: str, holds: bool, where: str) -> None:
        self.checks[invariant] += 1
        if not holds:
            self.violations[invariant] += 1
            if len(self.examples) < 40:
                self.examples.append(f"{invariant}: {where}")

    def describe(self) -> str:
        lines = [f"programs {self.programs}, runs {self.runs}, MAF alone wrong on {self.maf_wrong} of "
                 f"{self.maf_resumes} resumes"]
        lines += [f"  {name}: {self.checks[name]} checks, {self.violations[name]} violations" for name in INVARIANTS]
        return "\n".join(lines + [f"  example {example}" for example in self.examples])


async def _answered(workflow: Any, storage: Any, result: Any, before: set[str]) -> Any:
    """Answer each pause of *result* (by the label it asks about) from the run's latest checkpoint, until none.

    Every answer given so far goes with each resume: MAF keeps none across resumes, so a body that asked and did
    not complete (it paused again, deeper) asks again on the next replay, as an application must expect."""
    responses: dict[str, Any] = {}
    for _ in range(20):
        requests = result.get_request_info_events()
        if not requests:
            return result
        responses.update({request.request_id: answer_for(request.data["label"]) for request in requests})
        if storage is None:  # MAF's response-only replay of the paused run, from the cache it kept
            result = await workflow.run(responses=responses)
            continue
        made = await chain(storage, NAME, exclude=before)
        # gathered calls save concurrently, so the chain branches: the last one saved is the latest
        newest = max(range(len(made)), key=lambda index: (made[index].timestamp, index), default=None)
        where = {"checkpoint_id": made[newest].checkpoint_id} if newest is not None else {}
        result = await workflow.run(responses=responses, **where)
    raise AssertionError("a run kept pausing")


async def drive(storage: Any, groups: Any, crash_at: int = 0, checkpoint_id: str | None = None,
                memo: bool = False, install: Any = None) -> Phase:
    runner.plan(groups, crash_at, memo, install)
    runtime_shim.reset_replay_report()
    before = {c.checkpoint_id for c in await storage.list_checkpoints(workflow_name=NAME)} if storage else set()
    workflow = runner.fuzz_workflow.build(checkpoint_storage=storage)
    outputs, error = None, None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            first = await (workflow.run(checkpoint_id=checkpoint_id) if checkpoint_id else workflow.run("go"))
            outputs = (await _answered(workflow, storage, first, before)).get_outputs()
        except Exception as exc:  # crashes are the point; the invariants judge the rest
            error = exc.with_traceback(None)  # its frames would keep the run's context alive
    warned = sum(issubclass(w.category, ReplayMismatchWarning) for w in caught)
    unverified = sum(issubclass(w.category, UnverifiedReplayWarning) for w in caught)
    return Phase(outputs, error, runner.TRACE[0], runtime_shim.replay_report(), warned, unverified)


def truth(program: Program) -> list[Any]:
    return [[expected_value(call) for group in program.second for call in group.calls]]


def labels_in(checkpoint: Any) -> set[str]:
    return {value[0] for value in checkpoint.state.get("_step_cache", {}).values()
            if isinstance(value, (list, tuple)) and value and isinstance(value[0], str)}


# The result's enum, which FileCheckpointStorage pickles inside a tuple and unpickles only if allowed.
ALLOWED_TYPES = [f"{Color.__module__}:{Color.__qualname__}"]


def make_storage(kind: str, directory: str) -> Any:
    if kind == "none":  # no checkpoints: a pause is answered by MAF's response-only replay, a crash is final
        return None
    if kind == "file":
        return maf.FileCheckpointStorage(directory, allowed_checkpoint_types=ALLOWED_TYPES)
    return maf.InMemoryCheckpointStorage()


async def scenario(program: Program, directory: str, mode: str | None, policy: str, midway: Any = None,
                   reinstall: Any = None) -> Phases:
    """Uninterrupted (order ``second``), crashed (order ``first``), resumed (``second``) from the picked checkpoint.
    With *midway* (the install function) the crashed run starts without the shim and is installed under it; with
    ``program.uninstall_midway`` it starts under the shim, is uninstalled from the loop, and *reinstall* (the
    install function) runs before the resume."""
    uninterrupted = await drive(make_storage(program.storage, f"{directory}/u"), program.second, memo=program.memo)
    storage = make_storage(program.storage, f"{directory}/c")
    if midway is not None:
        runtime_shim.uninstall()
    if program.uninstall_midway and mode is not None:
        # the removal waits for the run that started under the shim to end; the resume is installed again
        crashed = await drive(storage, program.first, crash_at=program.crash_at, memo=program.memo,
                              install=(program.uninstall_midway, runtime_shim.uninstall))
        if runner.PLAN["install"] is None:  # the entry was reached (a run refused at once never gets there)
            await asyncio.sleep(0)  # the loop runs the uninstall() it was handed, if the run ended first
            crashed.removed = runtime_shim.installed_mode() is None
        runtime_shim.uninstall()  # the run ended before that entry: removed between the runs
        reinstall()
    else:
        crashed = await drive(storage, program.first, crash_at=program.crash_at, memo=program.memo,
                              install=(program.install_midway, midway) if midway is not None else None)
    if midway is not None and runtime_shim.installed_mode() is None:
        midway()  # the run ended before that entry: installed between the runs
    made = await chain(storage, NAME) if storage is not None else []
    if not made:
        return uninterrupted, crashed, crashed, set()
    picked = made[round(program.resume_pick * (len(made) - 1))]
    if program.other_process:
        resumed = await asyncio.to_thread(worker.resume, program, mode, policy, f"{directory}/c", picked.checkpoint_id)
    else:
        resumed = await drive(storage, program.second, checkpoint_id=picked.checkpoint_id, memo=program.memo)
    return uninterrupted, crashed, resumed, labels_in(picked)


def installs_midway(program: Program, mode: str | None) -> bool:
    """Whether the configuration's crashed run starts without the shim (flat mode refuses a nesting program at once,
    which is judged on its own)."""
    return bool(program.install_midway) and mode is not None and not (mode == "flat" and program.nests)


def uninstalls_midway(program: Program, mode: str | None) -> bool:
    """Whether the configuration's crashed run is uninstalled while in flight: the replays that answer its pauses
    then start on MAF's code, and the resume takes a cache they may have extended without records."""
    return bool(program.uninstall_midway) and mode is not None


def run_configuration(program: Program, mode: str | None, policy: str) -> Phases:
    runtime_shim.uninstall()
    install = None
    if mode is not None:
        install = functools.partial(runtime_shim.install, mode=mode, on_replay_mismatch=policy)
        install()
    try:
        with tempfile.TemporaryDirectory() as directory:
            midway = install if installs_midway(program, mode) else None
            return asyncio.run(scenario(program, directory, mode, policy, midway, install))
    finally:
        runtime_shim.uninstall()


def _right(phase: Phase, program: Program) -> bool:
    return phase.error is None and not phase.trace.wrong and canonical(phase.outputs) == truth(program)


def _allowed_error(phase: Phase, alone: Phase, program: Program, policy: str) -> bool:
    """The shim raised nothing MAF alone did not raise (but the crash), but a real mismatch under "error": MAF
    alone's run of the program went wrong, or every call the shim refused was a top-level one and its entry another
    call's (the run's cache said so at the refusal). The second reading is needed where gathered siblings reach MAF's call counter in
    another order than in MAF alone's runs (a file storage's saves run in threads; a pause's replay, where a
    flaky sibling no longer fails first), so MAF alone can be right where the shim meets another call's entry."""
    if phase.error is None or isinstance(phase.error, runner.Crash) or type(phase.error) is type(alone.error):
        return True
    if policy != "error" or not isinstance(phase.error, ReplayMismatchError):
        return False
    # only a top-level call's key is MAF's own: a nested key is the shim's, so a refusal there stays the shim's doing
    refused, top = phase.trace.refused, _top_labels(program)
    return _reordered(program, alone) or (bool(refused) and all(
        label in top and maker is not None and maker != label for label, _key, maker in refused))


def _top_labels(program: Program) -> set[str]:
    return {call.label for group in program.second for call in group.calls}


def _shifted_by_a_retry(program: Program, retried: set[str]) -> set[str]:
    """Top-level calls after a retried top-level call of their step. In a pause's replay the retried call's first
    attempt no longer fails, so it takes the call-order key its failed attempt had left without an entry, and MAF's
    counter for that step is one behind from there on: a later call keyed by call order misses and runs again (seed
    44227: MAF alone's resume of the program without its nested calls runs such a call again too)."""
    shifted: set[str] = set()
    steps_retried: set[str] = set()
    for call in (call for group in program.second for call in group.calls):
        if call.step in steps_retried:
            shifted.add(call.label)
        if call.label in retried:
            steps_retried.add(call.step)
    return shifted


def _reordered(program: Program, alone: Phase, phase: Phase | None = None) -> bool:
    """The calls came in another order: the generator's, or gathered calls scheduled otherwise (MAF alone was wrong,
    or in *phase* a top-level call took another's entry: top-level keys are MAF's own in every mode, so that was
    MAF's call counter meeting the siblings in another order than the run that made the entry, a file storage's
    threaded saves or a pause's replay having moved them)."""
    if program.reordered or alone.trace.wrong:
        return True
    top = _top_labels(program)
    return phase is not None and any(label in top for label, _ in phase.trace.wrong)


def _other_value_holds(phase: Phase, alone: Phase, program: Program, policy: str, legacy: bool = False) -> bool:
    """*legacy*: the run took a cache made by a run without the shim, which it says (``UnverifiedReplayWarning``)."""
    said = policy == "warn" and phase.warned > 0 or legacy and phase.unverified > 0
    return not phase.trace.wrong or said or (policy == "off" and _reordered(program, alone, phase))


def ran_again(phases: Phases) -> set[str]:
    """Bodies whose result was in the resumed checkpoint and that completed again in the resume."""
    return {label for label in phases[2].trace.completed if label in phases[3]} if phases[2] is not phases[1] else set()


def judge_resume(tally: Tally, program: Program, mode: str, policy: str, phases: Phases, alone: Phases,
                 where: str) -> None:
    resumed = phases[2]
    report, wrong = resumed.report, resumed.trace.wrong
    # uninstalled midway, the crashed run's later replays ran on MAF's code: the checkpoint may be theirs
    legacy = installs_midway(program, mode) or (uninstalls_midway(program, mode) and not all(phases[1].trace.shimmed))
    holds = _other_value_holds(resumed, alone[2], program, policy, legacy)
    tally.judge("other_value", holds, f"{where} got {wrong}")
    # after a mismatch, the call whose entry another call took misses and runs ("warn"), as does a sibling
    # that started before the mismatch stopped the run ("error"); under "rerun" the body runs by design. With no
    # records to compare ("off", or a checkpoint made without the shim, said by UnverifiedReplayWarning) the
    # top-level keys are MAF's call order alone: where the order moved, a body runs again as under MAF alone
    # (seed 40142 on 1.18: from a checkpoint holding c1 and a retried c3, MAF alone runs c3 again in 16 of 20 runs)
    rerun_allowed = report.mismatched > 0 or ((policy == "off" or legacy) and _reordered(program, alone[2], resumed))
    # MAF alone runs some again too (a retried call's failed attempt took the fingerprint occurrence 0); and MAF's
    # own counter runs a call again in a pause's replay when its first attempt failed before the pause: that
    # attempt's key got no entry, and the replay's first attempt, which no longer fails, takes it and misses (MAF
    # alone's uninterrupted run of seed 42093 completes such top-level bodies twice, and of seed 44259 a nested one:
    # a nested call's scoped key counts its occurrences as MAF counts them). MAF alone's resume is no oracle for it
    # where that resume went another way (took another call's value, so never paused).
    retried = resumed.trace.replayed_retries
    again = sorted(ran_again(phases) - ran_again(alone) - retried - _shifted_by_a_retry(program, retried))
    if policy == "off":  # a shared load is adopted by its record, which "off" does not write (README, limits)
        again = [label for label in again if label != MEMO_LABEL]
    # a scoped resume of a checkpoint made without the shim is a legacy replay, which runs nested calls and
    # unclaimed entries again by design (README, "Checkpoints made without the shim"): not judged there
    if not (legacy and mode == "scoped"):
        tally.judge("completed_rerun", not again or rerun_allowed, f"{where} ran again {again}")
    if policy != "off":
        tally.judge("false_verified", len(wrong) <= _told(report), f"{where} {len(wrong)} wrong, {report}")


def _told(report: Any) -> int:
    """How many of a run's values the shim said it could not vouch for: mismatched, unrecorded or undigestable
    entries and answers."""
    return (report.mismatched + report.unrecorded + report.undigestable + report.answers_mismatched
            + report.answers_unchecked)


def _outcome(phase: Phase, program: Program) -> Any:
    """What a run started on MAF's code must share with MAF alone's. Which gathered siblings complete before a
    crash cancels them is not part of it with a file storage: its saves run in threads, so the siblings'
    interleaving depends on their timing (MAF alone's own crashed run of seed 246 completes three different
    sets in six runs)."""
    gathers = any(group.gathered for group in (*program.first, *(g for c in walk(program.first) for g in c.children)))
    timed = program.storage == "file" and gathers
    return (type(phase.error), canonical(phase.outputs), phase.trace.wrong, None if timed else phase.trace.completed)


def judge_paths(tally: Tally, program: Program, mode: str, runs: tuple[Phase, ...], alone: Phases, where: str) -> None:
    """``kept_path``: each run of the configuration started on the code path it should have, and a run the shim
    judged its own kept its frames to the end (an install or uninstall while it ran changes neither)."""
    midway = installs_midway(program, mode)
    for index, phase in enumerate(runs):
        tally.judge("kept_path", phase.trace.unframed == 0,
                    f"{where}: run {index} entered {phase.trace.unframed} bodies without the shim's frame")
        if uninstalls_midway(program, mode) and index == 1:
            # the run in flight keeps the shim to its end (its replays after the removal start on MAF's code)
            tally.judge("kept_path", phase.trace.shimmed[:1] == [True], f"{where}: crashed run {phase.trace.shimmed}")
            if phase.removed is not None:
                tally.judge("kept_path", phase.removed, f"{where}: the shim outlived the uninstalled run")
        elif midway and index == 1:  # started before install(): MAF's code to its end, then its pauses' replays
            first = phase.trace.shimmed[:1]
            tally.judge("kept_path", first in ([], [False]), f"{where}: crashed run started {first}")
            if not any(call.pause for call in walk(program.first)):
                mine, maf_alone = _outcome(phase, program), _outcome(alone[1], program)
                tally.judge("kept_path", mine == maf_alone, f"{where}: crashed run {mine} vs {maf_alone}")
        else:
            tally.judge("kept_path", all(phase.trace.shimmed), f"{where}: run {index} started {phase.trace.shimmed}")


def judge(tally: Tally, program: Program, mode: str, policy: str, phases: Phases, alone: Phases) -> None:
    uninterrupted, crashed, resumed, _ = phases
    where = f"seed {program.seed} {mode}/{policy} {program.storage}"
    runs = (uninterrupted, crashed, resumed) if resumed is not crashed else (uninterrupted, crashed)
    tally.runs += len(runs)
    judge_paths(tally, program, mode, runs, alone, where)
    for phase in runs:
        gc.collect()
        alive = phase.alive if phase.alive is not None else sum(ref() is not None for ref in phase.trace.contexts)
        tally.judge("state_left", alive == 0, f"{where}: {alive} run contexts alive")
    tally.judge("state_left", runtime_shim.installed_mode() is None, f"{where}: still installed")
    if mode == "flat" and program.nests:
        error = uninterrupted.error
        if error is None and not uninterrupted.trace.nested:
            # no body got as far as its nested calls: each parent took a cached value (a pause's replay after a
            # retried sibling moved MAF's call counter), so there was nothing to refuse; judged as any value is
            holds = _other_value_holds(uninterrupted, alone[0], program, policy)
            tally.judge("other_value", holds, f"{where} uninterrupted run got {uninterrupted.trace.wrong}")
            return
        refused = isinstance(error, NestedStepError) or _allowed_error(uninterrupted, alone[0], program, policy)
        tally.judge("flat_refuses", refused and error is not None, f"{where}: {error!r}")
        return
    holds = _right(uninterrupted, program) or not _right(alone[0], program)
    tally.judge("shim_raised", holds, f"{where} uninterrupted {uninterrupted.error!r}")
    # its pauses were answered by replays (response-only ones without a storage), where MAF alone hands nested calls'
    # entries to other calls: the shim's replays get each call its own value, or say so
    holds = _other_value_holds(uninterrupted, alone[0], program, policy)
    tally.judge("other_value", holds, f"{where} uninterrupted run got {uninterrupted.trace.wrong}")
    if policy != "off":
        report = uninterrupted.report
        tally.judge("false_verified", len(uninterrupted.trace.wrong) <= _told(report),
                    f"{where} uninterrupted {len(uninterrupted.trace.wrong)} wrong, {report}")
    tally.judge("shim_raised", _allowed_error(crashed, alone[1], program, policy), f"{where} crashed {crashed.error!r}")
    if any(crashed.trace.shimmed):
        holds = _other_value_holds(crashed, alone[1], program, policy, installs_midway(program, mode))
    else:
        # installed midway, but the phase's runs (the crashed run and its pauses' replays) all ended before the
        # install entry: none ran under the shim, so they are MAF alone's, value for value
        holds = crashed.trace.wrong == alone[1].trace.wrong
    if not (uninstalls_midway(program, mode) and not all(crashed.trace.shimmed)):
        # (uninstalled midway: the replays that answered the crashed run's pauses ran on MAF's code, with MAF's limits)
        tally.judge("other_value", holds, f"{where} crashed run got {crashed.trace.wrong}")
    if resumed is crashed:
        return
    tally.judge("shim_raised", _allowed_error(resumed, alone[2], program, policy), f"{where} resumed {resumed.error!r}")
    if resumed.error is None and not resumed.trace.wrong and policy != "off":
        tally.judge("other_value", canonical(resumed.outputs) == truth(program), f"{where} outputs {resumed.outputs}")
    judge_resume(tally, program, mode, policy, phases, alone, where)


def fuzz(seeds: range, tally: Tally | None = None, storage_less: bool = False, uninstall: bool = False) -> Tally:
    """Run every program of *seeds* under MAF alone and under each mode and policy; count the checks. With
    *storage_less*, each program runs without a checkpoint storage: its pauses are answered by MAF's response-only
    replays (a path of its own in MAF and in the shim), and its crash is final. With *uninstall*, ``uninstall()`` is
    called from the loop while the crashed run is in flight, and the resume is installed again."""
    logging.getLogger("agent_framework").setLevel(logging.ERROR)  # a restore over a pending request is the point
    tally = tally or Tally()
    for seed in seeds:
        program = generate(seed)
        if storage_less:
            program = dataclasses.replace(program, storage="none", other_process=False)
        if uninstall:  # from the middle of the entries before the crash
            program = dataclasses.replace(program, install_midway=0, other_process=False,
                                          uninstall_midway=max(1, (program.crash_at + 1) // 2))
        tally.programs += 1
        alone = run_configuration(program, None, "off")
        tally.runs += 3
        if alone[2] is not alone[1]:
            tally.maf_resumes += 1
            tally.maf_wrong += not _right(alone[2], program)
        for mode in MODES[1:]:
            for policy in POLICIES:
                judge(tally, program, mode, policy, run_configuration(program, mode, policy), alone)
    return tally
