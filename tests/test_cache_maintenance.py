"""The cache over months and under contention: pruning by age and size, other versions' folders, `steplint clean`,
and eight real processes on one cache folder at once, with edits between, each giving the findings a cacheless
run gives."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from steplint.config.settings import Settings
from steplint.run import cache as cache_module
from steplint.run.cache import Cache
from steplint.run.pipeline import LintRun

SHARED = "from agent_framework import step\n\n\n@step\nasync def tick(x: str) -> str:\n    return x\n"
CALLER = "from agent_framework import step\nfrom pkg.shared import tick\n\n\n@step\nasync def outer{n}(x: str) -> str:\n    return {body}\n"


def _project(root: Path, files: int = 6) -> Path:
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "shared.py").write_text(SHARED)
    for n in range(files):
        (pkg / f"steps{n}.py").write_text(CALLER.format(n=n, body="await tick(x)" if n % 2 else "x"))
    (root / "pyproject.toml").write_text('[project]\nname = "sample"\nversion = "0"\n')
    _set_age([p for p in root.rglob("*")] + [root], 10)  # older than the cache's racy window: stat keys are trusted
    return root


def _lint(root: Path, paths: list[str], cache: Cache) -> list:
    return LintRun(Settings(project_root=root), cache=cache).run(paths).diagnostics


def _set_age(paths, seconds: float) -> None:
    when = time.time() - seconds
    for path in paths:
        os.utime(path, (when, when))


def _stored(cache: Cache, kind: str) -> list[Path]:
    folder = cache.folder / kind
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def test_prune_removes_what_was_not_used_for_the_max_age(tmp_path):
    root = _project(tmp_path)
    cache = Cache(root / ".steplint_cache")
    for index in range(3):  # three path lists, as pre-commit makes on three commits
        _lint(root, [str(root / "pkg" / f"steps{index}.py")], cache)
    runs, summaries = _stored(cache, "runs"), _stored(cache, "summaries")
    assert len(runs) == 6 and summaries  # a record and a module store per path list
    old_runs = [p for p in runs if p.name.startswith(runs[0].name.split(".")[0])]
    _set_age(old_runs, cache_module.MAX_AGE + 60)
    _set_age(summaries[:1], cache_module.MAX_AGE + 60)
    temporary = cache.folder / "runs" / ".tmp-left-by-a-killed-run.pickle"
    temporary.write_bytes(b"x")
    _set_age([temporary], 7200)
    removed = cache.prune()
    assert removed == len(old_runs) + 1 + 1
    assert _stored(cache, "runs") == [p for p in runs if p not in old_runs]
    assert _stored(cache, "summaries") == summaries[1:]
    # What was pruned is rebuilt, never missed: the findings are the cacheless run's.
    for index in range(3):
        paths = [str(root / "pkg" / f"steps{index}.py")]
        assert _lint(root, paths, cache) == LintRun(Settings(project_root=root)).run(paths).diagnostics


def test_a_replayed_run_counts_as_used(tmp_path):
    root = _project(tmp_path)
    cache = Cache(root / ".steplint_cache")
    paths = [str(root / "pkg")]
    _lint(root, paths, cache)
    [record] = [p for p in _stored(cache, "runs") if not p.name.endswith(".modules.pickle")]
    _set_age([record], cache_module.MAX_AGE + 60)
    run = LintRun(Settings(project_root=root), cache=cache)
    run.run(paths)
    assert run.stats.replayed
    cache.prune()
    assert record.exists()


def test_prune_keeps_the_cache_under_the_size_cap_oldest_first(tmp_path):
    root = _project(tmp_path, files=12)
    cache = Cache(root / ".steplint_cache")
    _lint(root, [str(root / "pkg")], cache)
    summaries = _stored(cache, "summaries")
    for age, path in enumerate(reversed(summaries)):  # the first is the oldest
        _set_age([path], 1000 + age)
    sizes = {p: p.stat().st_size for p in summaries}
    others = sum(p.stat().st_size for p in _stored(cache, "runs")) + cache.files_path.stat().st_size
    cap = others + sum(sizes.values()) - sizes[summaries[0]] - sizes[summaries[1]]
    cache.prune(max_bytes=cap)
    assert _stored(cache, "summaries") == summaries[2:]


def test_other_versions_folders_go_when_unused_or_beyond_the_newest_few(tmp_path):
    root = _project(tmp_path)
    cache = Cache(root / ".steplint_cache")
    _lint(root, [str(root / "pkg")], cache)
    versions = cache.root / "v1"
    made = []
    for index in range(4):
        folder = versions / f"fingerprint{index}"
        (folder / "summaries").mkdir(parents=True)
        (folder / "files.pickle").write_bytes(b"x")
        _set_age([folder / "files.pickle"], 100 * (index + 1))
        made.append(folder)
    stale = versions / "stale"
    stale.mkdir()
    (stale / "files.pickle").write_bytes(b"x")
    _set_age([stale / "files.pickle"], cache_module.MAX_AGE + 60)
    cache.prune()
    kept = sorted(p.name for p in versions.iterdir() if p.is_dir())
    assert kept == sorted([cache.folder.name, "fingerprint0", "fingerprint1"])  # the two newest others


def test_a_run_prunes_at_most_once_a_day(tmp_path):
    root = _project(tmp_path)
    cache = Cache(root / ".steplint_cache")
    _lint(root, [str(root / "pkg")], cache)
    assert not cache.prune_if_due()  # the first run pruned and left the stamp
    stamp = cache.root / "v1" / ".last-prune"
    _set_age([stamp], cache_module.PRUNE_EVERY + 60)
    assert cache.prune_if_due()
    assert not cache.prune_if_due()


def test_steplint_clean_removes_every_cache_under_the_folder(tmp_path):
    root = _project(tmp_path)
    other = _project(tmp_path / "nested")
    for where in (root, other):
        done = subprocess.run([sys.executable, "-m", "steplint", "-q", "pkg"], cwd=where, capture_output=True, text=True)
        assert done.returncode == 1 and (where / ".steplint_cache").is_dir()
    lookalike = tmp_path / "docs" / ".steplint_cache"
    lookalike.mkdir(parents=True)
    (lookalike / "notes.txt").write_text("someone's folder, not a cache\n")
    done = subprocess.run([sys.executable, "-m", "steplint", "clean"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0
    assert sorted(done.stdout.splitlines()) == sorted(
        ["Removing cache at: .steplint_cache", f"Removing cache at: {os.path.join('nested', '.steplint_cache')}"]
    )
    assert not (root / ".steplint_cache").exists() and not (other / ".steplint_cache").exists()
    assert lookalike.is_dir() and "does not look like a steplint cache" in done.stderr


def _cli(args: list[str], cwd: Path, cache: Path | None) -> subprocess.Popen:
    flags = ["--cache-dir", str(cache)] if cache is not None else ["--no-cache"]
    return subprocess.Popen([sys.executable, "-m", "steplint", "--format", "json", *flags, *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_eight_processes_on_one_cache_at_once_each_give_the_cacheless_findings(tmp_path):
    root = _project(tmp_path / "project", files=16)
    cache = tmp_path / "shared-cache"
    chooser = random.Random(9383)
    argument_lists = [["pkg"], ["."], ["pkg/steps1.py", "pkg/steps2.py"], ["pkg/steps3.py"], ["pkg"],
                      ["pkg/steps5.py", "pkg/shared.py"], ["."], ["pkg/steps7.py"]]
    for round_number in range(3):
        if round_number:  # edits between rounds: other steps nest, one file breaks, one is new
            for n in chooser.sample(range(16), 5):
                nested = chooser.random() < 0.5
                (root / "pkg" / f"steps{n}.py").write_text(CALLER.format(n=n, body="await tick(x)" if nested else "x"))
            (root / "pkg" / f"broken{round_number}.py").write_text("def broken(:\n")
        processes = [_cli(args, root, cache) for args in argument_lists]  # all at once
        outputs = [process.communicate(timeout=300) for process in processes]
        for args, process, (out, err) in zip(argument_lists, processes, outputs):
            assert process.returncode in (0, 1), err
            reference = _cli(args, root, None)
            expected, reference_err = reference.communicate(timeout=300)
            assert reference.returncode in (0, 1), f"the cacheless run exited {reference.returncode}: {reference_err}"
            assert json.loads(out) == json.loads(expected), f"round {round_number}, steplint {' '.join(args)}"
    # And a warm sequential run after all that still agrees.
    assert json.loads(_cli(["."], root, cache).communicate()[0]) == json.loads(_cli(["."], root, None).communicate()[0])


@pytest.mark.parametrize("name", ["files.pickle"])
def test_a_cache_removed_under_a_running_process_is_rebuilt(tmp_path, name):
    root = _project(tmp_path)
    cache = Cache(root / ".steplint_cache")
    paths = [str(root / "pkg")]
    first = _lint(root, paths, cache)
    cache_module.remove_tree(cache.root)  # steplint clean in another terminal
    assert _lint(root, paths, cache) == first
