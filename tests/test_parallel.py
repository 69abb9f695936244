"""Findings do not depend on the number of jobs or on the cache; small runs stay in-process; imports stay lazy."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from expectations import FIXTURES, fixture_entries, settings_for

from steplint.run import process_pool as workers
from steplint.run.cache import Cache
from steplint.config.settings import Settings
from steplint.api import lint_paths
from steplint.report.formats import FORMATTERS


def _output(entry: Path, **options) -> str:
    result = lint_paths([str(entry)], settings_for(entry), **options)
    return FORMATTERS["json"](result.diagnostics) + FORMATTERS["text"](result.diagnostics)


@pytest.fixture
def tiny_batches(monkeypatch):
    """Use the pool even for a fixture's handful of files."""
    monkeypatch.setattr(workers, "MIN_FILES_PER_WORKER", 1)


@pytest.mark.parametrize("entry", fixture_entries(), ids=lambda p: p.name)
def test_findings_are_byte_identical_across_jobs_and_cache(entry, tmp_path, tiny_batches):
    one_job = _output(entry, jobs=1)
    assert _output(entry, jobs=2) == one_job
    cache = Cache(tmp_path / "cache")
    assert _output(entry, jobs=2, cache=cache) == one_job  # cold
    assert _output(entry, jobs=1, cache=cache) == one_job  # warm


def test_all_fixtures_in_one_run_are_identical_across_jobs(tiny_batches):
    settings = Settings(project_root=FIXTURES)
    assert lint_paths([str(FIXTURES)], settings, jobs=2).diagnostics == lint_paths([str(FIXTURES)], settings, jobs=1).diagnostics


def test_small_runs_stay_in_process():
    assert workers.workers_for(1, 8) == 1
    assert workers.workers_for(workers.MIN_FILES_PER_WORKER * 2 - 1, 8) == 1
    assert workers.workers_for(workers.MIN_FILES_PER_WORKER * 2, 8) == 2
    assert workers.workers_for(10_000, 2) == 2


def test_the_pool_returns_results_in_order(tiny_batches):
    paths = [f"p{i}" for i in range(50)]
    assert workers.map_files(len, paths, 2) == [len(p) for p in paths]


def _slow_pid(path: str) -> tuple[str, int]:
    time.sleep(0.005)
    return path, os.getpid()


def _pid_after(share: list[str]) -> int:
    time.sleep(0.3)
    return os.getpid()


def test_shares_get_every_job_even_after_a_batch_this_process_helped_with(tiny_batches):
    with workers.WorkerPool(2) as pool:
        pool.map(len, [f"p{i}" for i in range(50)])  # one worker and this process
        pids = list(pool.map_shares(_pid_after, [["a"], ["b"]]))
    assert len(set(pids)) == 2 and os.getpid() not in pids


def test_this_process_works_through_the_batch_from_its_end(tiny_batches):
    paths = [f"p{i}" for i in range(64)]
    done = workers.map_files(_slow_pid, paths, 2)
    assert [path for path, _ in done] == paths
    assert done[-1][1] == os.getpid()  # the last chunk no worker had started


_PROBE = textwrap.dedent(
    """
    import sys
    from steplint.frontends.cli import main
    sys.argv = ["steplint", *sys.argv[1:]]
    try:
        main()
    except SystemExit:
        pass
    print("LIBCST" if "libcst" in sys.modules else "NO-LIBCST", file=sys.stderr)
    """
)


def _imports_libcst(*args: str, cwd: Path) -> bool:
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    marker = done.stderr.strip().splitlines()[-1]
    assert marker in ("LIBCST", "NO-LIBCST"), done.stderr
    return marker == "LIBCST"


def test_version_does_not_import_libcst(tmp_path):
    assert not _imports_libcst("--version", cwd=tmp_path)


def test_a_run_where_every_file_is_prefiltered_out_does_not_import_libcst(tmp_path):
    for i in range(3):
        (tmp_path / f"plain_{i}.py").write_text(f"import os\nVALUE = {i}\n")
    assert not _imports_libcst(".", "--no-cache", cwd=tmp_path)


@pytest.mark.parametrize("order", ["forward", "reverse"])
def test_a_worker_checks_its_share_as_one_process_does_whatever_it_loaded_first(order):
    """In reverse order importers come first: the modules they load are then checked on those very summaries."""
    from steplint.run.checking_workers import SharedRun, check_share
    from steplint.source.discovery import discover
    from steplint.report.final_findings import final_findings as conclude
    from steplint.run.checking import rules_for
    from steplint.run.run_files import excluder_for
    from steplint.source.module_identity import module_file

    settings = Settings(project_root=FIXTURES, extend_select=("STP100",))
    files = [module_file(path) for path in discover([str(FIXTURES)], excluder_for(settings))]
    run_files: dict[str, list[str]] = {}
    for file in files:
        run_files.setdefault(file.module, []).append(file.path)
    run = SharedRun(f"test-{order}", settings, tuple(dict.fromkeys(f.root for f in files)), run_files, None)
    paths = [f.path for f in files]
    share = check_share(paths if order == "forward" else paths[::-1], run)
    by_path = {path: found for path, _, _, found in share.modules}
    reportable = {os.path.normpath(p) for p in paths}.__contains__
    diagnostics = conclude([by_path[p] for p in paths], rules_for(settings), settings, True, reportable)
    one_process = lint_paths([str(FIXTURES)], settings, prefilter=False).diagnostics
    assert FORMATTERS["json"](diagnostics) == FORMATTERS["json"](one_process)
