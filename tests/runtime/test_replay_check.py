"""Issue 30: `steplint replay-check`'s verdicts on the real framework, each checked by resuming for real.

One workflow of three steps (``a`` twice through a helper, ``b`` once with a
literal, then ``c``) crashes in ``c`` with a FileCheckpointStorage; the code
is edited; check_checkpoints judges the latest checkpoint with the old code
as baseline. Each verdict is then made true or false by MAF itself: the new
code resumes a copy of the checkpoint, and its output is compared with the
uninterrupted run of the new code.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import shutil
import sys
from importlib import metadata
from pathlib import Path

import agent_framework as maf
import pytest

from steplint.replay import check_checkpoints, restamp

pytestmark = pytest.mark.runtime

MODULE = "replayflow"
FINGERPRINTS = tuple(int(p) for p in metadata.version("agent-framework-core").split(".")[:2]) >= (1, 20)

SOURCE = '''\
import os
import pathlib

import agent_framework as maf


def note(label):
    log = pathlib.Path(os.environ["STEPLINT_REPLAY_LOG"])
    with log.open("a") as handle:
        handle.write(label + "\\n")
    if label.startswith("c") and (log.parent / "crash").exists():
        raise RuntimeError("crash")


@maf.step
async def a(x: int) -> str:
    note(f"a{x}")
    return f"a{x}"


@maf.step
async def b(x: int) -> str:
    note(f"b{x}")
    return f"b{x}"


@maf.step
async def c(text: str) -> str:
    note(f"c{text}")
    return f"c:{text}"


async def parts(n):
    first = await a(n)
    second = await a(n + 1)
    return first, second


@maf.workflow
async def pipeline(n: int) -> str:
    first, second = await parts(n)
    extra = await b(n + 10)
    return await c(first + second + extra)
'''

EDITS = {
    "none": lambda s: s,
    "reorder": lambda s: s.replace(
        "    first = await a(n)\n    second = await a(n + 1)\n", "    second = await a(n + 1)\n    first = await a(n)\n"
    ),
    "literal": lambda s: s.replace("await b(n + 10)", "await b(n + 20)"),
    "comment": lambda s: "# deployed on Tuesday\n" + s,
    "body": lambda s: s.replace('return f"a{x}"', 'return f"A{x}"'),
}

# edit -> (verdict on 1.18/1.19, verdict on 1.20+); FALSE_REFUSALS: refused on 1.20+ although a re-stamped resume is right
FALSE_REFUSALS = {"reorder", "literal"}
EXPECTED = {
    "none": ("ok", "ok"),
    "reorder": ("wrong", "refused"),
    "literal": ("wrong", "refused"),
    "comment": ("ok", "refused"),
    "body": ("stale", "refused"),
}


def imported(folder: Path) -> object:
    """The workflow module of *folder*, imported afresh under the one module name both versions share."""
    sys.modules.pop(MODULE, None)
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(MODULE)
    finally:
        sys.path.remove(str(folder))


def run(definition: object, **kwargs: object) -> object:
    return asyncio.run(definition.build().run(**kwargs)).get_outputs()


def restamped_resume(definition: object, storage: Path, checkpoint_id: str) -> object:
    """MAF's own resume of *checkpoint_id* with its signature hash rewritten to the new code's."""
    workflow = definition.build()
    asyncio.run(workflow.run(message=1))  # the hash a run of the new code computes
    path = storage / f"{checkpoint_id}.json"
    data = json.loads(path.read_text())
    data["graph_signature_hash"] = workflow.graph_signature_hash
    path.write_text(json.dumps(data))
    return run(definition, checkpoint_id=checkpoint_id, checkpoint_storage=maf.FileCheckpointStorage(str(storage)))


def log_lines(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_verdict_is_true(edit: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old, new, storage = tmp_path / "old", tmp_path / "new", tmp_path / "checkpoints"
    for folder, text in ((old, SOURCE), (new, EDITS[edit](SOURCE))):
        folder.mkdir()
        (folder / f"{MODULE}.py").write_text(text)
    log = tmp_path / "log" / "steps.txt"
    log.parent.mkdir()
    monkeypatch.setenv("STEPLINT_REPLAY_LOG", str(log))
    (log.parent / "crash").touch()
    with pytest.raises(Exception, match="crash"):
        run(imported(old).pipeline, message=1, checkpoint_storage=maf.FileCheckpointStorage(str(storage)))
    (log.parent / "crash").unlink()

    definition = imported(new).pipeline
    before = {path.name: path.read_bytes() for path in storage.iterdir()}
    ran_before = log_lines(log)
    [verdict] = check_checkpoints(definition, storage, baseline=old, latest=True)
    assert {path.name: path.read_bytes() for path in storage.iterdir()} == before
    assert log_lines(log) == ran_before, "a step body ran during the check"
    assert verdict.verdict == EXPECTED[edit][FINGERPRINTS], verdict

    uninterrupted = run(definition, message=1)
    resumed_copy = tmp_path / "resume"
    shutil.copytree(storage, resumed_copy)
    try:
        resumed = run(definition, checkpoint_id=verdict.checkpoint_id, checkpoint_storage=maf.FileCheckpointStorage(str(resumed_copy)))
    except ValueError:
        assert verdict.verdict == "refused"
        assert verdict.false_refusal == (edit in FALSE_REFUSALS)
        if verdict.false_refusal:
            assert restamp(resumed_copy, [verdict])[0] == [verdict.checkpoint_id]
            again = run(definition, checkpoint_id=verdict.checkpoint_id, checkpoint_storage=maf.FileCheckpointStorage(str(resumed_copy)))
            assert again == uninterrupted
        elif edit == "comment":  # 1.20+ keys carry the steps' line numbers: MAF's call-time check refuses too
            assert "still refuses" in verdict.reason
            with pytest.raises(ValueError, match="different step definition"):
                restamped_resume(definition, resumed_copy, verdict.checkpoint_id)
        return
    assert verdict.verdict != "refused"
    assert (resumed == uninterrupted) == (verdict.verdict == "ok"), (resumed, uninterrupted, verdict)
    if verdict.verdict == "wrong":
        assert verdict.first_divergence is not None


def test_a_storage_object_without_baseline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python API on any storage: MAF resumes every checkpoint, so each is ok (nothing to compare with)."""
    (tmp_path / "code").mkdir()
    (tmp_path / "code" / f"{MODULE}.py").write_text(SOURCE)
    monkeypatch.setenv("STEPLINT_REPLAY_LOG", str(tmp_path / "steps.txt"))
    (tmp_path / "crash").touch()
    storage = maf.InMemoryCheckpointStorage()
    definition = imported(tmp_path / "code").pipeline
    with pytest.raises(Exception, match="crash"):
        run(definition, message=1, checkpoint_storage=storage)
    verdicts = check_checkpoints(definition, storage)
    assert [v.verdict for v in verdicts] == ["ok"] * 3
    assert all("no baseline" in v.reason for v in verdicts)
