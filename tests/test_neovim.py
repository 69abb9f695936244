"""A real editor: headless Neovim, its built-in LSP client configured by the README's snippet, starts
``steplint lsp``, shows the nested step's diagnostic and its hover, applies the quick fix, and the buffer
is fixed and clean. (.ci/run installs Debian's neovim, 0.7.2, when it is missing; the snippet covers 0.7 and 0.8+.)"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from integrations import BIN, installed_tool, snippet

DATA = Path(__file__).parent / "data"
FLOW = '''\
from agent_framework import step


@step
async def tick(label: str) -> str:
    return label


@step
async def wrapper(label: str) -> str:
    return await tick(label)
'''


@pytest.fixture()
def nvim() -> str:
    return installed_tool("nvim", "apt-get install neovim")


def test_neovim_shows_the_finding_and_applies_the_quick_fix(nvim: str, tmp_path: Path):
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[project]\nname = "sample"\nversion = "0"\n')
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "flow.py").write_text(FLOW)
    init = tmp_path / "init.lua"
    init.write_text(snippet("Editors", "lua"))  # the README's snippet exactly as printed, nothing before it
    out = tmp_path / "out.json"
    environment = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "STEPLINT_NVIM_OUT": str(out),
                   "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
                   "XDG_STATE_HOME": str(tmp_path / "state")}
    done = subprocess.run(
        [nvim, "--headless", "-n", "-i", "NONE", "-u", str(init), "-c", f"luafile {DATA / 'nvim_drive.lua'}", "pkg/flow.py"],
        cwd=project, env=environment, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    record = json.loads(out.read_text()) if out.exists() else {}
    assert done.returncode == 0 and "error" not in record, (record, done.stdout[-2000:], done.stderr[-2000:])
    assert record["filetype"] == "python"
    diagnostic = record["diagnostic"]
    assert (diagnostic["lnum"], diagnostic["col"], diagnostic["code"], diagnostic["source"]) == (10, 17, "STP001", "steplint")
    assert diagnostic["message"].startswith("step 'wrapper' calls step 'tick'")
    assert record["hover"].startswith("**STP001 step-calls-step**")
    assert record["titles"] == ["Call 'tick.__wrapped__(...)' inline (unsafe)", "Disable STP001 for this line"]
    assert record["lines"][-1] == "    return await tick.__wrapped__(label)"
    assert record["cleared"] is True  # the edited buffer was linted again: nothing left
    assert (project / "pkg" / "flow.py").read_text() == FLOW  # the buffer changed, not the file
