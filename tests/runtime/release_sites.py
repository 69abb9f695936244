"""One agent-framework-core release alone under <repo>/.venvs/ (``pip install --no-deps --target``), made once.

Shared by tests/test_runtime_matrix.py (the old releases' verdict truths put one first on PYTHONPATH) and
tests/runtime/replay_suite.py (a checkpoint written by another release); standard library only, since
tests/runtime also runs alone in each release's environment.
"""

from __future__ import annotations

import fcntl  # the matrix builds POSIX environments
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
VENVS = REPO_ROOT / ".venvs"
#: Written last into a folder or environment: one without it is absent or a build that was interrupted.
STAMP = ".steplint-matrix-complete"
OUTPUT_TAIL_LINES = 80


@contextmanager
def exclusive(name: str) -> Iterator[None]:
    """An inter-process lock: pytest-xdist workers and other sessions share .venvs/."""
    VENVS.mkdir(exist_ok=True)
    with open(VENVS / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def tail(completed: subprocess.CompletedProcess[str]) -> str:
    lines = (completed.stdout + completed.stderr).splitlines()
    return "\n".join(lines[-OUTPUT_TAIL_LINES:])


def release_site(version: str) -> Path:
    """The folder holding agent-framework-core *version* alone, installed once (RuntimeError if pip fails)."""
    folder = VENVS / f"maf-wheel-{version}"
    stamp = folder / STAMP
    with exclusive(folder.name):
        if stamp.is_file() and stamp.read_text() == f"agent-framework-core=={version}":
            return folder
        shutil.rmtree(folder, ignore_errors=True)
        completed = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
             "--target", str(folder), f"agent-framework-core=={version}"],
            capture_output=True, text=True, cwd=REPO_ROOT, timeout=900, check=False,
        )
        if completed.returncode != 0:
            raise RuntimeError(f"pip install agent-framework-core=={version} failed:\n{tail(completed)}")
        stamp.write_text(f"agent-framework-core=={version}")
    return folder
