"""Shared by the suppression, target-version, config, fix and rule-doc tests: a nested-step file and the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# One step calling another (STP001 at line 9, column 18); ``comment`` ends the reported line.
_NESTED = """\
from agent_framework import step

@step
async def tick(x: str) -> str:
    return x

@step
async def wrapper(x: str) -> str:
    return await tick(x){comment}
"""


def nested(comment: str = "") -> str:
    return _NESTED.format(comment=comment)


def steplint(*args: str, cwd: Path = ROOT, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``python -m steplint ARGS`` in a real subprocess, as a user runs it (``env``: added to this environment,
    without the colour switches of the environment the tests run in)."""
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "steplint", *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=120,
        env=environment,
    )
