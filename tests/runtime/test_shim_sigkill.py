"""A real crash: a process SIGKILLed inside a nested step, resumed by a new process."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from shim_support import HAS_FINGERPRINTS

pytestmark = [pytest.mark.runtime, pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")]

APP = Path(__file__).with_name("shim_crash_app.py")


def run_app(storage: Path, phase: str, mode: str, kind: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(APP), str(storage), phase, mode, kind],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def kill_then_resume(tmp_path: Path, mode: str, kind: str) -> dict[str, list[object]]:
    storage = tmp_path / f"{mode}-{kind}"
    first = run_app(storage, "first", mode, kind)
    assert first.returncode == -signal.SIGKILL, first.stderr
    assert list(storage.glob("*.json")), "the killed process left checkpoints behind"
    resumed = run_app(storage, "resume", mode, kind)
    assert resumed.returncode == 0, resumed.stderr
    return json.loads(resumed.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kind", ["model", "str"])
def test_scoped_resume_after_sigkill_in_a_nested_step(tmp_path: Path, kind: str) -> None:
    assert kill_then_resume(tmp_path, "scoped", kind) == {"outputs": [["A", "B", "C", "D"]], "ran": ["c", "d"]}


def test_maf_alone_returns_the_first_items_results_for_the_later_ones(tmp_path: Path) -> None:
    kind = "model" if HAS_FINGERPRINTS else "str"
    assert kill_then_resume(tmp_path, "none", kind) == {"outputs": [["A", "B", "A", "B"]], "ran": []}
