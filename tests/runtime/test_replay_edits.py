"""Issue 30: replay-check's verdict on each kind of edit of the suite's workflow, and its truth by a real resume.

The original code (tests/runtime/replay_suite.py) crashes in its 11th step
call with a FileCheckpointStorage; each edit is applied to a copy;
check_checkpoints judges the latest checkpoint (taken after 10 calls) with the
original code as baseline. The check must leave the folder byte for byte as
it was and run no step body. Then MAF itself says whether the verdict is true:
the new code resumes a copy of the checkpoint and its output is compared with
the new code's uninterrupted run (right, wrong or stale, replay_suite.judged_resume);
a refusal is a ValueError from MAF, and a false refusal is proven by
re-stamping the copy (steplint.replay.restamp) and resuming it right.

EXPECTED is README's verdict table. The full table runs on 1.18.0 and
1.26.0; the other releases run SAMPLE (CI time), or the full table with
STEPLINT_REPLAY_FULL_TABLE=1. Every edit is judged against the same original
run, so the baseline's replay of it is observed once, in one process.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import agent_framework as maf
import pytest
from replay_suite import (
    EDITS,
    SAMPLE,
    copy_storage,
    crashed_run,
    crashed_run_under,
    imported,
    judged_resume,
    run,
    write_code,
)

from steplint.replay import check_checkpoints, restamp

pytestmark = pytest.mark.runtime

VERSION = metadata.version("agent-framework-core")
FINGERPRINTS = tuple(int(p) for p in VERSION.split(".")[:2]) >= (1, 20)
FULL_TABLE_RELEASES = ("1.18.0", "1.26.0")

# edit -> (verdict on 1.18-1.19, verdict on 1.20-1.26); "refused, false_refusal" when a re-stamped resume is
# right; "ok, live" when calls run live before the resume point (warnings)
EXPECTED = {
    "none": ("ok", "ok"),
    "reorder in a helper of the workflow's module": ("wrong", "refused, false_refusal"),
    "reorder in a helper imported by name": ("wrong", "refused, false_refusal"),
    "reorder in a helper called as module.func()": ("wrong", "ok"),
    "an argument in a helper called as module.func()": ("wrong", "ok, live"),
    "a literal in the workflow body that feeds a step": ("wrong", "refused, false_refusal"),
    "a module constant passed to a step": ("wrong", "ok, live"),
    "a module constant read inside a step": ("stale", "stale"),
    "a step's default argument": ("wrong", "refused"),
    "reorder calls whose arguments cannot be fingerprinted": ("wrong", "wrong"),
    "a step body edit": ("stale", "refused"),
    "a comment line at the top of the workflow's module": ("ok", "refused, false_refusal"),
    "a comment line at the top of the helpers' module": ("ok", "refused, false_refusal"),
    "a comment line at the top of the steps' module": ("ok", "refused"),
    "a formatting-helper edit": ("ok", "refused, false_refusal"),
    "the workflow's file run under another module name": ("ok", "refused, false_refusal"),
    "a docstring added to the workflow": ("refused, false_refusal", "refused, false_refusal"),
    "a local variable of the workflow renamed": ("ok", "refused, false_refusal"),
    "calls of two different steps swapped in the workflow": ("refused, false_refusal", "refused, false_refusal"),
    "a step call added before the resume point": ("refused, false_refusal", "refused, false_refusal"),
    "a step call removed before the resume point": ("refused, unjudged", "refused, false_refusal"),
    "every call of a step removed (in a helper called as module.func())": ("unjudged", "refused, unjudged"),
    "a live call's result passed to a step before the resume point": ("unjudged", "refused, unjudged"),
    "the baseline does not import": ("unjudged", "unjudged"),
    "agent-framework-core upgraded between crash and resume": ("ok", "refused, false_refusal"),
    "Python upgraded between crash and resume": ("refused, false_refusal", "refused"),
}
# what a real resume does where the verdict is "unjudged" (or "refused, unjudged": re-stamped by hand): the
# rows that show why the check cannot say ok there
TRUTH_UNJUDGED = {
    "a step call removed before the resume point": ("right", "right"),
    "every call of a step removed (in a helper called as module.func())": ("wrong", "wrong"),
    "a live call's result passed to a step before the resume point": ("wrong", "right"),
    "the baseline does not import": ("right", "right"),
}
# the release that wrote the checkpoint in the upgrade row: the one before the installed release (1.19.0,
# the last of 1.18's hash scheme, for 1.20+)
WRITER = "1.19.0" if FINGERPRINTS else {"1.18.0": "1.17.0", "1.19.0": "1.18.0"}.get(VERSION)
UPGRADE = "agent-framework-core upgraded between crash and resume"
# STEPLINT_REPLAY_FULL_TABLE=1 runs the whole table on any release (for a closing note; CI runs the sample)
FULL_TABLE = VERSION in FULL_TABLE_RELEASES or os.environ.get("STEPLINT_REPLAY_FULL_TABLE") == "1"
EDIT_NAMES = sorted(EDITS) if FULL_TABLE else list(SAMPLE)
# the Python-upgrade row needs an older interpreter with this agent-framework-core release installed
# (e.g. a Python 3.10 venv): STEPLINT_REPLAY_OLDER_PYTHON names it; CI has none, so the row is skipped there
PYTHON_UPGRADE = "Python upgraded between crash and resume"
OLDER_PYTHON = os.environ.get("STEPLINT_REPLAY_OLDER_PYTHON")
_BASELINES: dict[tuple[str, str, tuple[str, ...]], object] = {}


@pytest.fixture(autouse=True)
def one_baseline_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every edit is judged against the same baseline code and the same checkpoint bytes (a fresh copy each):
    its replay is observed once per original run, in one process, and shared."""
    from steplint.replay import checking

    observe_baseline = checking.observe_baseline

    def shared(folder: Path, spec: str, storage_folder: Path, ids: list[str]) -> object:
        key = (str(folder), spec, tuple(ids))
        if key not in _BASELINES:
            _BASELINES[key] = observe_baseline(folder, spec, storage_folder, ids)
        return _BASELINES[key]

    monkeypatch.setattr(checking, "observe_baseline", shared)


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str | None], tuple[Path, Path, Path]]:
    """The original code, its checkpoints (the run crashed in its 11th call) and the step log, made once per
    release that writes them (None: the installed one, in this process; "python": the installed release under
    STEPLINT_REPLAY_OLDER_PYTHON)."""
    made: dict[str | None, tuple[Path, Path, Path]] = {}

    def original(writer: str | None) -> tuple[Path, Path, Path]:
        if writer not in made:
            root = tmp_path_factory.mktemp(f"original-{writer or VERSION}")
            code, storage, log = root / "code", root / "checkpoints", root / "log" / "steps.txt"
            for folder in (code, log.parent):
                folder.mkdir()
            write_code(code)
            if writer is None:
                _crashed_here(code, storage, log)
            elif writer == "python":
                crashed_run_under(VERSION, code, storage, log, python=OLDER_PYTHON)
            else:
                crashed_run_under(writer, code, storage, log)
            made[writer] = code, storage, log
        return made[writer]

    return original


def _crashed_here(code: Path, storage: Path, log: Path) -> None:
    previous = os.environ.get("STEPLINT_SUITE_LOG")
    os.environ["STEPLINT_SUITE_LOG"] = str(log)
    try:
        crashed_run(code, storage, log)
    finally:
        if previous is None:
            os.environ.pop("STEPLINT_SUITE_LOG")
        else:
            os.environ["STEPLINT_SUITE_LOG"] = previous


def described(verdict: object) -> str:
    text = verdict.verdict
    if verdict.false_refusal:
        text += ", false_refusal"
    if verdict.false_refusal_unjudged:
        text += ", unjudged"
    if verdict.live_before_resume:
        text += ", live"
    return text


def completed_calls(log: Path) -> set[str]:
    """The calls that completed in the original run (the last line is the call that crashed)."""
    return set(log.read_text().splitlines()[:-1])


@pytest.mark.parametrize("edit", EDIT_NAMES)
def test_verdict_is_true(edit: str, originals: Callable[[str | None], tuple[Path, Path, Path]], tmp_path: Path,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    if edit == PYTHON_UPGRADE and not OLDER_PYTHON:
        pytest.skip("STEPLINT_REPLAY_OLDER_PYTHON names no older interpreter with this release")
    code, storage, original_log = originals({UPGRADE: WRITER, PYTHON_UPGRADE: "python"}.get(edit))
    if edit == "the baseline does not import":  # e.g. a deploy folder copied half-way
        code = tmp_path / "broken-baseline"
        code.mkdir()
        (code / "sfflow.py").write_text('raise ImportError("sfhelpers is missing")\n')
    new = tmp_path / "new"
    new.mkdir()
    target = write_code(new, edit)
    checkpoints = copy_storage(storage, tmp_path / "checkpoints")
    log = tmp_path / "steps.txt"
    monkeypatch.setenv("STEPLINT_SUITE_LOG", str(log))
    definition = imported(new, target)

    before = {path.name: path.read_bytes() for path in checkpoints.iterdir()}
    [verdict] = check_checkpoints(definition, checkpoints, baseline=code, baseline_target="sfflow:pipeline", latest=True)
    assert {path.name: path.read_bytes() for path in checkpoints.iterdir()} == before, "the check wrote to the folder"
    assert not log.exists(), "a step body ran during the check"
    assert described(verdict) == EXPECTED[edit][FINGERPRINTS], verdict

    uninterrupted = run(definition, message=1)
    log.unlink()
    resume_copy = copy_storage(storage, tmp_path / "resume")
    try:
        resumed = run(definition, checkpoint_id=verdict.checkpoint_id,
                      checkpoint_storage=maf.FileCheckpointStorage(str(resume_copy)))
    except ValueError as refusal:
        assert verdict.verdict == "refused", refusal
        _refusal_is_true(edit, verdict, definition, resume_copy, uninterrupted, completed_calls(original_log), log)
        return
    ran = log.read_text().splitlines()
    completed = completed_calls(original_log)
    truth = judged_resume(resumed, uninterrupted, completed & set(ran), completed)
    if verdict.verdict == "unjudged":
        assert truth == TRUTH_UNJUDGED[edit][FINGERPRINTS], (truth, verdict, resumed, uninterrupted)
    else:
        assert truth == {"ok": "right"}.get(verdict.verdict, verdict.verdict), (truth, verdict, resumed, uninterrupted)
    if verdict.verdict == "wrong":
        assert verdict.first_divergence is not None
    # the warned calls are exactly the ones that ran live before the resume point (final, the crash point, on);
    # a replay that ended early warns of those it reached
    live = [_call_text(line) for line in ran[: ran.index("final(1)")]]
    if verdict.verdict == "unjudged":
        live = live[: len(verdict.live_before_resume)]
    assert verdict.live_before_resume == live


def _call_text(log_line: str) -> str:
    step, _, arguments = log_line.partition("(")
    values = [json.dumps(int(v) if v.isdigit() else v) for v in arguments.rstrip(")").split(",")]
    return f"{step}({', '.join(values)})"


def _refusal_is_true(edit: str, verdict: object, definition: object, copy: Path, uninterrupted: object,
                     completed: set[str], log: Path) -> None:
    """A false refusal resumes right once re-stamped; any other refusal does not (MAF refuses again, or it is wrong)."""
    if verdict.false_refusal:
        assert restamp(copy, [verdict])[0] == [verdict.checkpoint_id]
    else:  # re-stamp by hand with the hash a run of the new code computes
        workflow = definition.build()
        asyncio.run(workflow.run(message=1))
        log.unlink()
        path = copy / f"{verdict.checkpoint_id}.json"
        data = json.loads(path.read_text())
        data["graph_signature_hash"] = workflow.graph_signature_hash
        path.write_text(json.dumps(data))
    try:
        resumed = run(definition, checkpoint_id=verdict.checkpoint_id, checkpoint_storage=maf.FileCheckpointStorage(str(copy)))
    except ValueError:
        assert not verdict.false_refusal, "a proven false refusal is still refused once re-stamped"
        return
    ran = set(log.read_text().splitlines()) if log.exists() else set()
    truth = judged_resume(resumed, uninterrupted, completed & ran, completed)
    if verdict.false_refusal_unjudged:
        assert truth == TRUTH_UNJUDGED[edit][FINGERPRINTS], (truth, verdict)
    else:
        assert (truth == "right") == verdict.false_refusal, (truth, verdict)
