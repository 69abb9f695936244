"""A namespace package is found wherever the app is linted from: the case's own folder, a folder far
above it, one file from inside it, or from the importing file's own folder (no project file anywhere)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_samples import steplint
from expectations import FIXTURES, expected_for

from steplint.source.import_search import ImportSearch

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


def test_a_top_level_module_beside_the_namespace_packages_changes_nothing(placed):
    # The project's folder is then a root of the run too: ``shared.models`` found there is still the portion's module.
    (placed / "app.py").write_text("print('entry')\n")
    for cwd in (placed, placed.parent):
        result = steplint("--no-cache", "--isolated", "--output-format", "json", ".", cwd=cwd)
        assert _codes(result, cwd) == _expected(placed)


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


# PEP 420 as the path finder does it: each tree is built in tmp_path under the sys.path entries
# ``a`` and ``b`` (in that order); ``importlib.util.find_spec`` in a fresh interpreter says which file
# a name means, and the import search must name the same one (or none where Python finds no file).
PATH_FINDER_CASES = {
    "a-namespace-package-beside-a-top-level-module": (
        ["a/app.py", "a/shared/models.py", "a/agents/main.py"],
        ["shared.models", "agents.main", "app", "shared"],
    ),
    "a-regular-package-on-a-later-entry-beats-an-earlier-portion": (
        ["a/pkg/mod.py", "b/pkg/__init__.py", "b/pkg/mod.py"],
        ["pkg.mod", "pkg"],
    ),
    "portions-on-several-entries-merge": (
        ["a/pkg/one.py", "b/pkg/two.py", "b/pkg/sub/three.py"],
        ["pkg.one", "pkg.two", "pkg.sub.three"],
    ),
    "a-module-file-beats-a-namespace-folder-of-the-same-name": (
        ["a/tool/extra.py", "a/tool.py"],
        ["tool", "tool.extra"],
    ),
    "a-regular-package-beats-a-module-file-beside-it": (
        ["a/tool/__init__.py", "a/tool.py", "a/tool/extra.py"],
        ["tool", "tool.extra"],
    ),
    "a-module-on-a-later-entry-beats-an-earlier-portion": (
        ["a/tool/extra.py", "b/tool.py"],
        ["tool", "tool.extra"],
    ),
    "a-regular-package-hides-the-same-package-on-a-later-entry": (
        ["a/pkg/__init__.py", "b/pkg/__init__.py", "b/pkg/only_here.py"],
        ["pkg", "pkg.only_here"],
    ),
    "a-namespace-portion-inside-a-regular-package": (
        ["a/pkg/__init__.py", "a/pkg/inner/deep.py"],
        ["pkg.inner.deep", "pkg.inner"],
    ),
}


def _python_finds(entries: list[Path], names: list[str]) -> dict[str, str | None]:
    script = (
        "import importlib.util, json, sys\n"
        "found = {}\n"
        "for name in sys.argv[1:]:\n"
        "    try:\n"
        "        spec = importlib.util.find_spec(name)\n"
        "    except ImportError:\n"
        "        spec = None\n"
        "    found[name] = spec.origin if spec is not None and spec.has_location else None\n"
        "print(json.dumps(found))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path[:0] = {[str(e) for e in entries]!r}\n" + script, *names],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize("files, names", PATH_FINDER_CASES.values(), ids=PATH_FINDER_CASES.keys())
def test_the_import_search_finds_what_python_finds(tmp_path, files, names):
    for file in files:
        (tmp_path / file).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / file).write_text("")
    entries = [tmp_path / "a", tmp_path / "b"]
    for entry in entries:
        entry.mkdir(exist_ok=True)
    python = _python_finds(entries, names)
    search = ImportSearch([str(e) for e in entries], [])
    assert {name: search.on_path(name) for name in names} == python


def test_a_copy_of_agent_framework_in_the_tree_is_not_what_its_imports_run(tmp_path):
    # agent-framework's own repository holds the framework's source beside its samples: linting the whole tree
    # made the samples' ``from agent_framework import Agent`` run that copy, and its STP031 went silent.
    from steplint.api import lint_paths
    from steplint.config.settings import Settings

    framework = tmp_path / "packages" / "core" / "agent_framework"
    framework.mkdir(parents=True)
    (framework / "__init__.py").write_text(
        "class Agent:\n    def __init__(self, name):\n        self.name = name\n\n"
        "    async def run(self, prompt):\n        return prompt\n\n\n"
        "def workflow(function):\n    return function\n")
    (tmp_path / "samples").mkdir()
    (tmp_path / "samples" / "poem.py").write_text(
        "from agent_framework import Agent, workflow\n\nwriter = Agent(name='writer')\n\n\n"
        "@workflow\nasync def poem(topic: str) -> str:\n    return (await writer.run(topic)).text\n")
    settings = Settings(project_root=tmp_path)
    for linted in (tmp_path, tmp_path / "samples"):
        found = {(Path(d.path).name, d.line, d.code) for d in lint_paths([str(linted)], settings).diagnostics}
        assert found == {("poem.py", 8, "STP031")}, linted
