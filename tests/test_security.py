"""The linter never imports, executes or evaluates the code it checks, and writes only where it is told.

A tree is planted with files whose import or execution would leave a marker
file in a folder outside the tree: package ``__init__`` files, conftest, setup,
sitecustomize/usercustomize, a ``.pth`` file, a codec module named by a coding
cookie, default values, decorators and string annotations that would run at
definition time. The CLI lints it in subprocesses (in-process and with worker
processes, with and without the cache), and the API lints it in this process:
no marker may appear. Snapshots of the tree before and after a run show that
nothing is written outside ``.steplint_cache`` and ``--output-file``.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_corpus import STEPS

from steplint.config.settings import Settings
from steplint.api import lint_paths, lint_source

STEPLINT = Path(sys.executable).with_name("steplint")  # the console script: no checked folder on sys.path


def plant(marker_dir: Path, name: str) -> str:
    """A statement that leaves the marker ``name`` when it runs."""
    return f"open({str(marker_dir / name)!r}, 'w').close()\n"


def planted_tree(root: Path, markers: Path) -> Path:
    tree = root / "tree"
    package = tree / "pkg"
    package.mkdir(parents=True)
    markers.mkdir()
    steps = STEPS + (
        "\n\n@step\n"
        f"async def evaluated(x: \"__import__('os').system('touch {markers}/annotation')\" = {plant(markers, 'default').strip()}) -> int:\n"
        "    return await inner(x)\n"
        f"\n\n@step(name=__import__('os').system('touch {markers}/decorator'))\n"
        "async def decorated(x: int) -> int:\n"
        "    return x\n"
    )
    files = {
        package / "__init__.py": plant(markers, "package_init") + "from .steps import inner\n",
        package / "steps.py": plant(markers, "module_body") + steps,
        package / "newer.py": plant(markers, "newer_syntax") + "type Alias = int\n" + STEPS,
        package / "__main__.py": plant(markers, "main"),
        package / "stub.pyi": plant(markers, "stub"),
        tree / "conftest.py": plant(markers, "conftest") + "import pkg\n",
        tree / "setup.py": plant(markers, "setup") + "from setuptools import setup\nsetup()\n",
        tree / "noxfile.py": plant(markers, "noxfile"),
        tree / "sitecustomize.py": plant(markers, "sitecustomize"),
        tree / "usercustomize.py": plant(markers, "usercustomize"),
        tree / "evil_codec.py": plant(markers, "codec"),
        tree / "encoded.py": "# -*- coding: evil_codec -*-\n" + plant(markers, "encoded"),
        tree / "user.py": plant(markers, "importer") + "import pkg.steps\nfrom pkg import *\nimport sitecustomize\n",
    }
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    (tree / "evil.pth").write_text("import os; " + plant(markers, "pth"), encoding="utf-8")
    (tree / "pyproject.toml").write_text('[project]\nname = "planted"\n\n[tool.steplint]\nextend-select = ["ALL"]\n', encoding="utf-8")
    return tree


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([str(STEPLINT), *args], cwd=cwd, capture_output=True, text=True, timeout=120, env=env, input=stdin)


def test_checked_code_is_never_run(tmp_path):
    markers = tmp_path / "markers"
    tree = planted_tree(tmp_path, markers)
    runs = [
        cli("--no-cache", "--jobs", "1", ".", cwd=tree),
        cli("--jobs", "2", ".", cwd=tree),  # worker processes, and the cache
        cli(".", cwd=tree),  # replayed from the cache
        cli("--no-cache", "pkg/steps.py", "encoded.py", "evil.pth", cwd=tree),  # named files are read, whatever they are
        cli("--no-cache", "--stdin-filename", "pkg/steps.py", "-", cwd=tree, stdin=(tree / "pkg" / "steps.py").read_text()),
    ]
    for result in runs:
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr
    assert "steps.py:12:18: STP001" in runs[0].stdout  # it did analyze the planted code (one planted line first)
    assert "encoded.py:1:1: STP900" in runs[3].stdout  # the unknown codec is reported, not imported
    before = set(sys.modules)
    lint_paths([str(tree)], Settings(project_root=tree), jobs=1)
    for path in tree.rglob("*.py"):
        lint_source(path.read_bytes(), str(path), Settings(project_root=tree))
    assert sorted(os.listdir(markers)) == []
    loaded_from_tree = [
        name for name in set(sys.modules) - before if str(tree) in str(getattr(sys.modules[name], "__file__", "") or "")
    ]
    assert loaded_from_tree == []


# --- configuration ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pyproject, message",
    [
        (b"[tool.steplint\nselect = [\n", "invalid TOML: Expected ']'"),
        (b'[tool.steplint]\nselect = ["\xff"]\n', "invalid TOML: not UTF-8"),
        (b"[tool.steplint]\nselect = " + b"[" * 50_000 + b"]" * 50_000 + b"\n", "invalid TOML: values nested too deeply"),
        (b"[tool.steplint]\nselect = \"__import__('os').system('touch evaluated')\"\n", "select"),
        (b"[tool.steplint]\nmax-file-size = \"a lot\"\n", "'max-file-size' must be a number of bytes"),
        (b"[tool.steplint]\ntarget-version = 1.2\n", "'target-version' must be a quoted version"),
        (b"[tool.steplint]\nselct = []\n", "did you mean 'select'"),
    ],
    ids=["syntax", "not-utf8", "deep", "code-as-value", "size", "float-version", "typo"],
)
def test_a_bad_pyproject_is_exit_2_with_one_clear_line(tmp_path, pyproject, message):
    (tmp_path / "pyproject.toml").write_bytes(pyproject)
    (tmp_path / "flow.py").write_text(STEPS, encoding="utf-8")
    result = cli("--no-cache", "flow.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("steplint: error: ") and message in line, line
    assert not (tmp_path / "evaluated").exists()


def test_a_deep_pyproject_that_is_not_steplints_is_ignored(tmp_path):
    """No [tool.steplint]: only the target version is looked up in it, and a file tomllib cannot read declares none."""
    (tmp_path / "pyproject.toml").write_bytes(b"[project]\ndependencies = " + b"[" * 50_000 + b"]" * 50_000 + b"\n")
    (tmp_path / "flow.py").write_text(STEPS, encoding="utf-8")
    result = cli("--no-cache", "flow.py", cwd=tmp_path)
    assert result.returncode == 1 and "flow.py:11:18: STP001" in result.stdout, result.stderr


# --- what a run writes -------------------------------------------------------------------------


def snapshot(root: Path) -> dict[str, tuple]:
    """Every path under ``root``: kind, and for files their size, mtime and content hash."""
    state: dict[str, tuple] = {}
    for directory, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(directory, name)
            info = path.lstat()
            if path.is_file() and not path.is_symlink():
                state[str(path.relative_to(root))] = ("file", info.st_size, info.st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest())
            else:
                state[str(path.relative_to(root))] = ("dir" if path.is_dir() else "other", info.st_mode)
    return state


def changed(before: dict[str, tuple], after: dict[str, tuple]) -> set[str]:
    return {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}


def test_nothing_is_written_outside_the_cache_and_the_output_file(tmp_path):
    tree = planted_tree(tmp_path, tmp_path / "markers")
    (tree / "broken.py").write_bytes(b"def broken(:\n")
    home = tmp_path / "home"
    scratch = tmp_path / "scratch"
    home.mkdir()
    scratch.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "TMPDIR": str(scratch)}
    env.pop("STEPLINT_NO_CACHE", None)
    env.pop("STEPLINT_CACHE_DIR", None)

    start = snapshot(tmp_path)
    assert cli("--no-cache", "--jobs", "2", ".", cwd=tree, env=env).returncode == 1
    assert changed(start, snapshot(tmp_path)) == set()

    assert cli("--jobs", "2", ".", cwd=tree, env=env).returncode == 1
    cached = snapshot(tmp_path)
    written = changed(start, cached)
    assert written and all(path.startswith("tree/.steplint_cache") for path in written), sorted(written)

    assert cli("--no-cache", "--output-file", "reports/findings.txt", ".", cwd=tree, env=env).returncode == 1
    assert changed(cached, snapshot(tmp_path)) == {"tree/reports", "tree/reports/findings.txt"}
    assert "STP001" in (tree / "reports" / "findings.txt").read_text(encoding="utf-8")
    assert list(home.iterdir()) == [] and list(scratch.iterdir()) == []
