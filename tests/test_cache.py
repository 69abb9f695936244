"""The cache: warm runs read and parse nothing they need not, edits invalidate exactly, bad entries are rebuilt.

Properties are proven by counting (the pipeline's own counters and a
recording parse function), never by timing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import steplint.summaries.file_summary
import steplint.run.pipeline
import steplint.run.source_reads
from steplint.run import cache as cache_module
from steplint.run.cache import Cache
from steplint.config.settings import Settings
from steplint.run.pipeline import LintRun

STEPS = """\
from agent_framework import step
from pkg.shared import tick


@step
async def outer{n}(x: str) -> str:
    return await tick(x)
"""


def _age(*paths: Path) -> None:
    """Move mtimes (of files and folders below) 10 s into the past: older than the cache's racy window."""
    past = time.time() - 10
    for root in paths:
        for folder, _, names in os.walk(root):
            for name in names:
                os.utime(os.path.join(folder, name), (past, past))
            os.utime(folder, (past, past))
        os.utime(root, (past, past))


@pytest.fixture
def project(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "shared.py").write_text("from agent_framework import step\n\n\n@step\nasync def tick(x: str) -> str:\n    return x\n")
    for n in range(4):
        (pkg / f"steps{n}.py").write_text(STEPS.format(n=n))
    (pkg / "plain.py").write_text("VALUE = 1\n")
    _age(tmp_path)
    return tmp_path


@pytest.fixture
def parses(monkeypatch):
    """Every file parsed in this process (for a summary, or for a syntax check), in order."""
    seen: list[str] = []
    original_bytes, original_quiet = steplint.summaries.file_summary.parse_bytes, steplint.run.source_reads.quiet_parse

    def parse_bytes(data, filename="<unknown>"):
        seen.append(Path(filename).name)
        return original_bytes(data, filename)

    def quiet_parse(source, filename="<unknown>", mode="exec"):
        seen.append(Path(filename).name)
        return original_quiet(source, filename, mode)

    monkeypatch.setattr(steplint.summaries.file_summary, "parse_bytes", parse_bytes)
    monkeypatch.setattr(steplint.run.source_reads, "quiet_parse", quiet_parse)
    return seen


def _lint(project: Path, **settings) -> LintRun:
    run = LintRun(Settings(project_root=project, **settings), cache=Cache(project / ".steplint_cache"))
    run.result = run.run([str(project / "pkg")])  # type: ignore[attr-defined]
    return run


def _uncached(project: Path) -> list:
    return LintRun(Settings(project_root=project)).run([str(project / "pkg")]).diagnostics


def test_a_warm_run_reads_and_parses_nothing(project, parses):
    cold = _lint(project)
    assert cold.stats.summarized == 6 and cold.result.diagnostics
    parses.clear()
    warm = _lint(project)
    assert warm.stats.replayed and warm.stats.read == 0 and parses == []
    assert warm.result.diagnostics == cold.result.diagnostics == _uncached(project)


def test_one_changed_file_is_the_only_one_summarized_again(project, parses):
    _lint(project)
    parses.clear()
    path = project / "pkg" / "steps2.py"
    path.write_text(STEPS.format(n=2).replace("return await tick(x)", "return x"))
    _age(path)
    changed = _lint(project)
    assert not changed.stats.replayed
    assert changed.stats.read == 1 and changed.stats.summarized == 1 and parses == ["steps2.py"]
    assert changed.result.diagnostics == _uncached(project)
    assert not any(d.path.endswith("steps2.py") for d in changed.result.diagnostics)


def test_a_touched_file_with_the_same_bytes_is_read_but_not_parsed(project, parses):
    _lint(project)
    parses.clear()
    os.utime(project / "pkg" / "steps1.py", (time.time() - 5, time.time() - 5))
    touched = _lint(project)
    assert touched.stats.read == 1 and touched.stats.summarized == 0 and parses == []


def test_a_new_module_where_an_import_found_none_invalidates_the_run(project):
    (project / "pkg" / "user.py").write_text("from agent_framework import step\nfrom pkg.later import later\n\n\n@step\nasync def u(x: str) -> str:\n    return await later(x)\n")
    _age(project)
    before = _lint(project)
    assert not any(d.path.endswith("user.py") for d in before.result.diagnostics)
    (project / "pkg" / "later.py").write_text("from agent_framework import step\n\n\n@step\nasync def later(x: str) -> str:\n    return x\n")
    _age(project / "pkg" / "later.py", project / "pkg")
    after = _lint(project)
    assert not after.stats.replayed
    assert any(d.path.endswith("user.py") and d.code == "STP001" for d in after.result.diagnostics)


def test_other_settings_are_another_run(project):
    everything = _lint(project)
    ignoring = _lint(project, ignore=("STP001",))
    assert not ignoring.stats.replayed and ignoring.stats.summarized == 0
    assert {d.code for d in everything.result.diagnostics} - {d.code for d in ignoring.result.diagnostics} == {"STP001"}


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_a_corrupt_cache_file_is_rebuilt_not_trusted(project, damage):
    cold = _lint(project)
    cache = Cache(project / ".steplint_cache")
    for path in [cache.files_path, *cache.folder.glob("runs/*.pickle")]:
        data = path.read_bytes()
        if damage == "truncate":
            data = data[: len(data) // 2]
        elif damage == "flip":
            middle = len(data) // 2
            data = data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :]
        else:
            data = b"not a cache"
        path.write_bytes(data)
    rebuilt = _lint(project)
    assert not rebuilt.stats.replayed and rebuilt.stats.summarized == 6
    assert rebuilt.result.diagnostics == cold.result.diagnostics
    assert _lint(project).stats.replayed  # and written again, whole


def test_the_cache_folder_ignores_itself_and_holds_no_temporary_files(project):
    _lint(project)
    root = project / ".steplint_cache"
    assert (root / ".gitignore").read_text().splitlines()[-1] == "*"
    assert not [p for p in root.rglob(".tmp-*")]


def test_a_new_steplint_version_uses_a_new_cache_folder(project, monkeypatch):
    before = Cache(project / ".steplint_cache").folder
    monkeypatch.setattr(cache_module, "__version__", "999.0")
    assert Cache(project / ".steplint_cache").folder != before


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "steplint", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_command_line_caches_in_the_project_and_no_cache_writes_nothing(project):
    (project / "pyproject.toml").write_text("[tool.steplint]\n")
    first = _cli("pkg", cwd=project)
    assert (project / ".steplint_cache" / ".gitignore").is_file()
    elsewhere = project / "elsewhere"
    second = _cli("pkg", "--cache-dir", str(elsewhere), cwd=project)
    assert (elsewhere / ".gitignore").is_file()
    third = _cli("pkg", "--no-cache", "--cache-dir", str(project / "never"), cwd=project)
    assert not (project / "never").exists()
    assert first.stdout == second.stdout == third.stdout and first.returncode == 1


def test_concurrent_runs_never_see_a_half_written_cache(project):
    (project / "pyproject.toml").write_text("[tool.steplint]\n")
    runs = [subprocess.Popen([sys.executable, "-m", "steplint", "pkg"], cwd=project, stdout=subprocess.PIPE, text=True) for _ in range(4)]
    outputs = {process.communicate(timeout=120)[0] for process in runs}
    assert len(outputs) == 1
    assert _cli("pkg", cwd=project).stdout in outputs
