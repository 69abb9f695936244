"""Issue 30: a small workflow for the command-line tests, and the Python API on a storage object.

One workflow of three steps (``a`` twice through a helper, ``b`` once with a
literal, then ``c``) crashes in ``c``; EDITS are the edits the command-line
tests deploy. The verdicts of every kind of edit, each proven by a real
resume, are tests/runtime/test_replay_edits.py's.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
from importlib import metadata
from pathlib import Path

import agent_framework as maf
import pytest

from steplint.replay import check_checkpoints

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
