"""The reproductions from real applications (tests/data/realworld, from the lead's shared/realworld): each linted
alone in a folder of its own, and all of them from their parent folder, as a user runs ``steplint check .``.

Every ``# expect: CODE`` line is reported and nothing else is, except the one expectation MAF contradicts
(``CONTRADICTED``; the data's README says why).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CASES = Path(__file__).resolve().parent / "data" / "realworld"
EXPECT = re.compile(r"#\s*expect:\s*([A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)")
#: fn10's clock reading reaches no step, branch or state a step reads: a resume replays right
#: (tests/runtime/test_rule_verdicts.py::test_a_clock_reading_no_step_or_branch_reads_resumes_right).
CONTRADICTED = {("fn10_namespace_pkg_beside_top_module/agents/main_agent.py", 16, "STP030")}
NAMES = sorted(path.name for path in CASES.iterdir() if path.name != "README.md")


def _copy(case: Path, into: Path) -> None:
    if case.is_dir():
        shutil.copytree(case, into / case.name)
    else:
        shutil.copy(case, into / case.name)


def _expected(root: Path) -> set[tuple[str, int, str]]:
    found = set()
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = EXPECT.search(line)
            if match:
                found.update((path.relative_to(root).as_posix(), number, code.strip()) for code in match.group(1).split(","))
    return found - CONTRADICTED


def _reported(folder: Path) -> set[tuple[str, int, str]]:
    # fn5 needs a Python before 3.12 (asyncio.wait_for's task); the others read the same on any.
    done = subprocess.run(
        [sys.executable, "-m", "steplint", "check", "--no-cache", "--target-python", "3.11", "--output-format", "json", "."],
        cwd=folder, capture_output=True, text=True, check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return {
        (Path(item["filename"]).resolve().relative_to(folder.resolve()).as_posix(), item["location"]["row"], item["code"])
        for item in json.loads(done.stdout)
    }


def test_there_are_the_seventeen_cases():
    assert len(NAMES) == 17


@pytest.mark.parametrize("name", NAMES)
def test_a_case_alone_in_its_folder(name, tmp_path):
    _copy(CASES / name, tmp_path)
    assert _reported(tmp_path) == _expected(tmp_path)


def test_every_case_from_the_parent_folder(tmp_path):
    for name in NAMES:
        _copy(CASES / name, tmp_path)
    assert _reported(tmp_path) == _expected(tmp_path)
