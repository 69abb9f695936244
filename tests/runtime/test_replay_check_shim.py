"""Issue 30: replay-check with the runtime shim installed (its replay records and, in scoped mode, scoped keys).

The shim wraps ``StepWrapper.__call__`` too and keeps a replay record of each
call in the step cache. With it installed in the checking process, the
original code writes the checkpoints, the baseline process installs it in the
same mode, and each verdict is proven as in test_replay_edits: a real resume
(the shim installed) compared with the new code's uninterrupted run. A step
that calls a step gets a key scoped by its parent's (scoped mode): the nested
workflow below has one.
"""

from __future__ import annotations

import json
from pathlib import Path

import agent_framework as maf
import pytest
from replay_suite import copy_storage, crashed_run, imported, judged_resume, run, write_code
from test_replay_edits import EXPECTED, FINGERPRINTS, FULL_TABLE_RELEASES, VERSION, completed_calls, described

from steplint import runtime_shim
from steplint.replay import check_checkpoints

pytestmark = [
    pytest.mark.runtime,
    pytest.mark.skipif(VERSION not in FULL_TABLE_RELEASES, reason="runs where the full table runs (CI time)"),
]

SHIM_EDITS = ("none", "reorder in a helper called as module.func()", "a module constant passed to a step",
              "a step body edit")
# pack calls a (a nested step: its key is scoped by pack's); then the unfingerprintable pack calls are reordered
# where the shim changes the verdict: on 1.18/1.19 it sees that b(6, "m") is not the call that made the entry
# it would take (its replay record), and runs it live (scoped mode's on_replay_mismatch="rerun"): right, with a warning
SHIM_CHANGES = {("a module constant passed to a step", False): "ok, live"}
NESTED_STEP = ('return said(f"pack({box.value})", f"p{box.value}")',
               'return said(f"pack({box.value})", f"p{box.value}" + await a(box.value + 100))')
NESTED_EDITS = {"none": ("ok", "ok"), "reorder calls whose arguments cannot be fingerprinted": ("wrong", "wrong")}


def nested(folder: Path) -> None:
    steps = folder / "sfsteps.py"
    steps.write_text(steps.read_text().replace(*NESTED_STEP))


@pytest.fixture
def shim() -> object:
    runtime_shim.install(mode="scoped")
    yield
    runtime_shim.uninstall()


@pytest.mark.parametrize("edit", SHIM_EDITS)
def test_verdict_is_true_with_the_shim(edit: str, shim: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = checked(edit, tmp_path, monkeypatch)
    assert described(verdict) == SHIM_CHANGES.get((edit, FINGERPRINTS), EXPECTED[edit][FINGERPRINTS]), verdict


@pytest.mark.parametrize("edit", sorted(NESTED_EDITS))
def test_scoped_keys_of_a_nested_step(edit: str, shim: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = checked(edit, tmp_path, monkeypatch, variant=nested)
    assert described(verdict) == NESTED_EDITS[edit][FINGERPRINTS], verdict


def checked(edit: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: object = None) -> object:
    """The verdict on the latest checkpoint of the original code crashed with the shim, proven by a real resume."""
    code, new, log_folder = tmp_path / "code", tmp_path / "new", tmp_path / "log"
    for folder in (code, new, log_folder):
        folder.mkdir()
    write_code(code)
    if variant is not None:
        variant(code)
    log = log_folder / "steps.txt"
    monkeypatch.setenv("STEPLINT_SUITE_LOG", str(log))
    storage = tmp_path / "checkpoints"
    crashed_run(code, storage, log)
    original_calls = completed_calls(log)
    log.unlink()
    records = [json.loads(path.read_text()) for path in storage.glob("*.json")]
    assert any("steplint-replay" in json.dumps(record) for record in records), "the shim wrote no replay record"
    target = write_code(new, edit)
    if variant is not None:
        variant(new)
    definition = imported(new, target)
    before = {path.name: path.read_bytes() for path in storage.iterdir()}
    [verdict] = check_checkpoints(definition, storage, baseline=code, latest=True)
    assert {path.name: path.read_bytes() for path in storage.iterdir()} == before
    assert not log.exists(), "a step body ran during the check"
    uninterrupted = run(definition, message=1)
    log.unlink()
    copy = copy_storage(storage, tmp_path / "resume")
    try:
        resumed = run(definition, checkpoint_id=verdict.checkpoint_id, checkpoint_storage=maf.FileCheckpointStorage(str(copy)))
    except ValueError:
        assert verdict.verdict == "refused"
        return verdict
    ran = set(log.read_text().splitlines()) if log.exists() else set()
    truth = judged_resume(resumed, uninterrupted, original_calls & ran)
    assert truth == {"ok": "right"}.get(verdict.verdict, verdict.verdict), (truth, verdict)
    return verdict
