"""Shared by the integration tests: a small project on disk, the README's snippets, the installed tools."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent

# A step module and a module whose step calls it: the finding in flow.py needs steps.py
# to know that 'tick' is a step. steps.py has a finding of its own, which a run given
# only flow.py must not report; flow.py's sync step is ignored by the project's config.
STEPS = '''\
from agent_framework import step


@step
async def tick(label: str) -> str:
    return label


@step
async def tock(label: str) -> str:
    return await tick(label)
'''
FLOW = '''\
from agent_framework import step

from pkg.steps import tick


@step
async def wrapper(label: str) -> str:
    return await tick(label)


@step
def blocking(label: str) -> str:
    return label
'''
FLOW_FINDING = ("pkg/flow.py", 8, 18, "STP001")
STEPS_FINDING = ("pkg/steps.py", 11, 18, "STP001")
PYPROJECT = '''\
[project]
name = "sample"
version = "0"

[tool.steplint]
ignore = ["STP040"]
'''
CLEAN = '''\
from agent_framework import step, workflow


@step
async def fetch(url: str) -> str:
    return url


@workflow
async def crawl(url: str) -> str:
    return await fetch(url)
'''


def make_project(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "steps.py").write_text(STEPS)
    (root / "pkg" / "flow.py").write_text(FLOW)
    return root


def tool(name: str) -> str:
    """The console script of this environment (the venv's bin first, whatever PATH says)."""
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    assert found, f"{name} is not installed"
    return found


def installed_tool(name: str, how: str) -> str:
    """An outside program a test drives for real (Graphviz's dot, Neovim, Node.js).

    Missing, the test skips with one line saying how to get it, so that ``bash tests/run.sh`` passes on
    a fresh machine; under CI (``CI`` set, as ``.ci/run`` sets it, and which installs them) it fails.
    """
    found = shutil.which(name)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is not installed: {how} (.ci/run installs it)")
        pytest.skip(f"{name} is not installed: {how}")
    return found


def snippet(heading: str, language: str) -> str:
    """The first ```language block under the README heading ``### heading`` of "Use it in..."."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Use it in...", 1)[1].split("<!-- shim:start -->", 1)[0]
    part = re.split(r"^### ", section, flags=re.MULTILINE)
    for block in part:
        if block.startswith(heading):
            match = re.search(rf"^```{re.escape(language)}\n(.*?)^```", block, re.MULTILINE | re.DOTALL)
            assert match, f"no {language} block under '### {heading}'"
            return match.group(1)
    raise AssertionError(f"no '### {heading}' in the README's 'Use it in...' section")
