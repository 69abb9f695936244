"""A namespace package is found wherever the app is linted from: the case's own folder, a folder far
above it, one file from inside it, or from the importing file's own folder (no project file anywhere)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_samples import steplint
from expectations import FIXTURES, expected_for

CASE = FIXTURES / "namespace_packages"


def _codes(result, prefix: Path) -> set[tuple[str, int, str]]:
    assert result.returncode in (0, 1), result.stderr
    found = set()
    for item in json.loads(result.stdout):
        path = Path(item["path"])
        found.add(((path if path.is_absolute() else prefix / path).as_posix(), item["line"], item["code"]))
    return found


@pytest.fixture
def placed(tmp_path) -> Path:
    """The case two folders below a folder that holds no project file."""
    case = tmp_path / "work" / "apps" / "desk_app"
    shutil.copytree(CASE, case)
    return case


def _expected(case: Path) -> set[tuple[str, int, str]]:
    return {((case / path).as_posix(), line, code) for path, line, code in expected_for(CASE)}


@pytest.mark.parametrize(
    "where, args",
    [
        ("case", ["."]),
        ("top", ["."]),
        ("case", ["agents/desk.py"]),
        ("agents", ["desk.py"]),
    ],
    ids=["the-case", "a-folder-above", "one-file-from-the-case", "from-the-file's-folder"],
)
def test_a_namespace_package_beside_the_importer_is_found(placed, where, args):
    cwd = {"case": placed, "top": placed.parent.parent.parent, "agents": placed / "agents"}[where]
    result = steplint("--no-cache", "--isolated", "--output-format", "json", *args, cwd=cwd)
    reported = _codes(result, cwd)
    expected = _expected(placed)
    if args != ["."]:  # one file given: only its findings
        expected = {e for e in expected if e[0].endswith("agents/desk.py")}
    assert reported == expected


def test_the_nearest_folder_that_has_the_module_wins(placed):
    # A decoy ``shared/models.py`` further up, where Ticket is a TypedDict too: the app's own beside it is the one.
    decoy = placed.parent / "shared"
    decoy.mkdir()
    (decoy / "models.py").write_text("from typing import TypedDict\nclass Ticket(TypedDict):\n    text: str\n")
    result = steplint("--no-cache", "--isolated", "--output-format", "json", "desk.py", cwd=placed / "agents")
    assert ("desk.py", 13, "STP010") in {(Path(i["path"]).name, i["line"], i["code"]) for i in json.loads(result.stdout)}


def test_the_walk_up_stops_at_a_project_file(placed):
    # ``pyproject.toml`` in the case marks where its imports start: a ``shared`` above it is not seen.
    shutil.move(str(placed / "shared"), str(placed.parent / "shared"))
    (placed / "pyproject.toml").write_text("[project]\nname = 'desk'\n")
    result = steplint("--no-cache", "--isolated", "--output-format", "json", "desk.py", cwd=placed / "agents")
    reported = {(Path(i["path"]).name, i["line"], i["code"]) for i in json.loads(result.stdout)}
    # Payload is no longer known to be a TypedDict: it is a class from outside the analyzed code.
    assert ("desk.py", 8, "STP010") in reported


def test_a_cached_run_sees_the_namespace_package_appear_beside_the_importer(placed, tmp_path):
    shared = placed.parent / "shared-later"
    shutil.move(str(placed / "shared"), str(shared))
    args = ("--cache-dir", str(tmp_path / "cache"), "--isolated", "--output-format", "json", "desk.py")

    def reported() -> set[tuple[int, str]]:
        return {(i["line"], i["code"]) for i in json.loads(steplint(*args, cwd=placed / "agents").stdout)}

    assert (8, "STP010") in reported()  # Payload cannot be resolved: a class from outside
    assert (8, "STP010") in reported()  # the same from the cache
    shutil.move(str(shared), str(placed / "shared"))
    assert reported() == {(13, "STP010")}
