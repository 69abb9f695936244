"""``steplint --stdin-filename path -``: the buffer is linted as that file, in its project."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from integrations import FLOW, FLOW_FINDING, make_project, tool


def lint_stdin(buffer: str, filename: str, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [tool("steplint"), *args, "--format", "json", "--stdin-filename", filename, "-"],
        cwd=cwd,
        input=buffer,
        capture_output=True,
        text=True,
        timeout=60,
    )


def places(done: subprocess.CompletedProcess) -> set[tuple[str, int, int, str]]:
    return {(f["path"], f["line"], f["column"], f["code"]) for f in json.loads(done.stdout)}


def test_unsaved_buffer_is_linted_with_its_projects_modules_and_config(tmp_path):
    make_project(tmp_path)
    (tmp_path / "pkg" / "flow.py").write_text("")  # what is on disk does not matter
    done = lint_stdin(FLOW, "pkg/flow.py", tmp_path)
    assert done.returncode == 1, done.stderr
    # tick is known as a step from pkg/steps.py (never passed), steps.py's own finding is not
    # reported, and the project's pyproject ignores flow.py's STP040.
    assert places(done) == {FLOW_FINDING}


def test_absolute_filename_from_another_folder_finds_the_project(tmp_path):
    project = make_project(tmp_path / "project")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    flow = project / "pkg" / "flow.py"
    done = lint_stdin(FLOW, str(flow), elsewhere)
    assert places(done) == {(str(flow), *FLOW_FINDING[1:])}


def test_without_the_project_the_same_buffer_has_no_cross_module_finding(tmp_path):
    # The control: the finding above needs pkg/steps.py, and STP040 is only ignored by that pyproject.
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    done = lint_stdin(FLOW, "pkg/flow.py", tmp_path)
    assert {code for *_, code in places(done)} == {"STP040"}
