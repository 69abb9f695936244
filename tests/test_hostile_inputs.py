"""The linter survives hostile input: every odd file gets its findings or one clear STP900, never a crash.

The corpus (``hostile_corpus.py``) is generated into a temporary folder. Each
file is linted alone and all of them together: the findings of a file must be
the same both ways (isolation per file), and CPython itself is the oracle of
which files are valid (a file it compiles must never get STP900).
"""

from __future__ import annotations

import collections
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from expectations import FIXTURES
from hostile_corpus import STEPS, Hostile, corpus, write_corpus

import steplint.source.downlevel
import steplint.run.checking
import steplint.summaries.file_summary
import steplint.run.pipeline
import steplint.run.run_files
from steplint.config.settings import Settings
from steplint.core.diagnostics import Diagnostic
from steplint.api import lint_paths
from steplint.summaries.file_summary import summarize_path
from steplint.source.reading import DEFAULT_MAX_FILE_SIZE
from steplint.rules.base import Rule

CASES = corpus()
NEWER_SYNTAX = {"python312.py", "python314.py"}  # valid, but not for the Python running the tests


def lint(paths: list[Path], root: Path, **settings: object) -> list[Diagnostic]:
    return lint_paths([str(p) for p in paths], Settings(project_root=root, **settings), jobs=1).diagnostics


def findings_of(diagnostics: list[Diagnostic], path: Path) -> list[Diagnostic]:
    return [d for d in diagnostics if os.path.abspath(d.path) == os.path.abspath(path)]


def check_case(case: Hostile, found: list[Diagnostic]) -> None:
    if case.broken is not None:
        assert [d.code for d in found] == ["STP900"], [(d.code, d.message) for d in found]
        assert case.broken in found[0].message, found[0].message
        if case.line is not None:
            assert found[0].line == case.line, found[0].message
        return
    assert "STP900" not in {d.code for d in found}, [d.message for d in found if d.code == "STP900"]
    if case.counts is not None:
        assert dict(collections.Counter(d.code for d in found)) == case.counts
    else:
        assert {(d.line, d.column, d.code) for d in found} == case.expected()


def run_cli(*args: str, cwd: Path, timeout: float = 120, **popen: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "steplint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,  # a FIFO that blocks a read would hang here, and fail the test
        **popen,
    )


# --- the corpus, file by file and all at once ------------------------------------------------


def test_the_corpus_is_what_it_claims():
    """Broken files do not compile, valid ones do (CPython decides, not the linter)."""
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))
    for case in CASES:
        if case.name in NEWER_SYNTAX or case.name.endswith(".pyi"):
            continue
        try:
            compile(case.data, case.name, "exec", dont_inherit=True)
            compiles = True
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            compiles = False
        assert compiles == (case.broken is None), case.name


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_hostile_file_alone(tmp_path, case):
    path = tmp_path / case.name
    path.write_bytes(case.data)
    check_case(case, findings_of(lint([path], tmp_path), path))


def test_whole_corpus_at_once_gives_each_file_its_own_findings(tmp_path, monkeypatch):
    """Isolation: every file keeps exactly the findings it has alone; libcst only sees shallow newer syntax."""
    children = []
    real_child = steplint.source.downlevel.in_child_process

    def counted_child(work, text):
        children.append(text)
        return real_child(work, text)

    monkeypatch.setattr(steplint.source.downlevel, "in_child_process", counted_child)
    written = write_corpus(tmp_path / "corpus")
    diagnostics = lint([tmp_path / "corpus"], tmp_path)
    for path, case in written:
        check_case(case, findings_of(diagnostics, path))
    # Bounded work: the deep files never reach libcst (its parse is superlinear in nesting, and
    # its native parser overflows the stack), and files without newer syntax never do either.
    assert len(children) <= sum(1 for case in CASES if b"f\"" in case.data or b"type " in case.data or case.name in NEWER_SYNTAX)
    assert not any("(" * 300 in text or "[" * 300 in text or "1 + " * 3000 in text for text in children)


def test_cli_over_the_corpus_in_worker_processes_exits_1_and_reports_every_broken_file(tmp_path):
    written = write_corpus(tmp_path / "corpus")
    shallow = [(p, c) for p, c in written if c.name not in ("thousands_of_steps.py", "long_helper_chain.py")]
    result = run_cli("--no-cache", "--jobs", "2", "--format", "json", *(str(p) for p, _ in shallow), cwd=tmp_path, timeout=300)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    reported = collections.defaultdict(list)
    for item in json.loads(result.stdout):
        reported[os.path.basename(item["path"])].append(item["code"])
    for path, case in shallow:
        if case.broken is not None:
            assert reported[case.name] == ["STP900"], case.name
        else:
            assert "STP900" not in reported[case.name], case.name


# --- things on disk that are not plain files ---------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A folder with one ordinary file holding one STP001 finding."""
    (tmp_path / "good.py").write_text(STEPS, encoding="utf-8")
    return tmp_path


def stp001_in_good(diagnostics: list[Diagnostic], project: Path) -> bool:
    return [(d.code, d.line) for d in findings_of(diagnostics, project / "good.py")] == [("STP001", 11)]


def test_a_folder_named_like_a_module_is_walked_not_read(project):
    folder = project / "x.py"
    folder.mkdir()
    (folder / "inner.py").write_text(STEPS, encoding="utf-8")
    for named in ([project], [folder]):
        diagnostics = lint(named, project)
        assert [d.code for d in findings_of(diagnostics, folder / "inner.py")] == ["STP001"]
        assert "STP900" not in {d.code for d in diagnostics}


def test_symlink_loops_end(project):
    (project / "a.py").symlink_to("b.py")
    (project / "b.py").symlink_to("a.py")
    (project / "sub").mkdir()
    (project / "sub" / "up").symlink_to("..", target_is_directory=True)
    walked = lint([project], project)
    assert stp001_in_good(walked, project)
    assert len(walked) == 1  # the loop is not a file, and the folder loop is walked once
    named = lint([project / "a.py", project / "good.py"], project)
    assert [(d.code, "symbolic link loop" in d.message) for d in findings_of(named, project / "a.py")] == [("STP900", True)]
    assert stp001_in_good(named, project)


def test_dangling_symlink(project):
    (project / "gone.py").symlink_to("nowhere.py")
    assert lint([project], project) == lint([project / "good.py"], project)  # walked: not a file, skipped
    named = lint([project / "gone.py", project / "good.py"], project)
    found = [(d.path, d.code, d.message) for d in named if d.code == "STP900"]
    assert len(found) == 1 and "dangling symbolic link" in found[0][2] and "nowhere.py" in found[0][2]
    assert stp001_in_good(named, project)


def test_a_fifo_is_never_read(project):
    """Reading a FIFO nobody writes to would block forever: walked it is skipped, named it is STP900."""
    os.mkfifo(project / "pipe.py")
    walked = run_cli("--no-cache", ".", cwd=project, timeout=60)
    assert walked.returncode == 1 and "good.py:11" in walked.stdout and "pipe.py" not in walked.stdout
    named = run_cli("--no-cache", "pipe.py", "good.py", cwd=project, timeout=60)
    assert named.returncode == 1, named.stderr
    assert "pipe.py:1:1: STP900" in named.stdout and "named pipe (FIFO)" in named.stdout
    assert "good.py:11" in named.stdout


def test_a_device_is_never_read(project):
    diagnostics = lint([Path(os.devnull), project / "good.py"], project)
    assert [d.code for d in findings_of(diagnostics, Path(os.devnull))] == ["STP900"]
    assert "character device" in findings_of(diagnostics, Path(os.devnull))[0].message
    assert stp001_in_good(diagnostics, project)


def _findings_as(uid: int | None, paths: list[Path], root: Path) -> list[tuple[str, str, str]]:
    """(file name, code, message) of a run, as the user ``uid`` (a forked child drops root's privileges)."""
    if uid is None:
        return [(Path(d.path).name, d.code, d.message) for d in lint(paths, root)]
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: everything it needs is imported already
        status = 1
        try:
            os.close(read_end)
            os.setgid(uid)
            os.setuid(uid)
            found = [(Path(d.path).name, d.code, d.message) for d in lint(paths, root)]
            os.write(write_end, json.dumps(found).encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        payload = pipe.read()
    _, status = os.waitpid(pid, 0)
    assert status == 0 and payload, "the unprivileged run failed"
    return [tuple(item) for item in json.loads(payload)]


def test_an_unreadable_file(project):
    """chmod 000 does not stop root (these tests run as root): then the run drops to 'nobody' first."""
    uid = None
    if os.geteuid() == 0:
        try:
            uid = pwd.getpwnam("nobody").pw_uid
        except KeyError:
            pytest.skip("no 'nobody' user to drop privileges to")
    shared = Path(tempfile.mkdtemp(prefix="steplint-unreadable-", dir="/tmp"))
    try:
        shared.chmod(0o755)
        (shared / "good.py").write_text(STEPS, encoding="utf-8")
        secret = shared / "secret.py"
        secret.write_text(STEPS, encoding="utf-8")
        secret.chmod(0)
        found = _findings_as(uid, [shared], shared)
    finally:
        shutil.rmtree(shared)
    assert sorted((name, code) for name, code, _ in found) == [("good.py", "STP001"), ("secret.py", "STP900")]
    assert "cannot read: Permission denied" in [m for name, _, m in found if name == "secret.py"][0]


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs Linux's /proc")
def test_a_read_that_fails_midway(project):
    """/proc/self/mem is a regular file whose read fails (address 0 is never mapped): a real I/O error, as root too."""
    (project / "memory.py").symlink_to("/proc/self/mem")
    diagnostics = lint([project], project)
    memory = findings_of(diagnostics, project / "memory.py")
    assert [d.code for d in memory] == ["STP900"] and "cannot read: Input/output error" in memory[0].message
    assert stp001_in_good(diagnostics, project)


def test_a_path_given_twice_is_linted_once(project):
    paths = [project / "good.py", project / "good.py", project / "." / "good.py", project]
    result = lint_paths([str(p) for p in paths], Settings(project_root=project), jobs=1)
    assert result.files == 1
    assert [d.code for d in result.diagnostics] == ["STP001"]


def test_a_file_that_vanishes_after_discovery(project, monkeypatch):
    (project / "brief.py").write_text(STEPS, encoding="utf-8")
    real_discover = steplint.run.run_files.discover

    def discover_then_delete(*args, **kwargs):
        found = real_discover(*args, **kwargs)
        os.unlink(project / "brief.py")  # gone between discovery and reading
        return found

    monkeypatch.setattr(steplint.run.run_files, "discover", discover_then_delete)
    diagnostics = lint([project], project)
    brief = [d for d in diagnostics if d.path.endswith("brief.py")]
    assert [d.code for d in brief] == ["STP900"] and "deleted or moved while steplint ran" in brief[0].message
    assert stp001_in_good(diagnostics, project)
    assert "deleted or moved" in summarize_path(str(project / "brief.py")).error.message


# --- size ---------------------------------------------------------------------------------------


def test_a_file_over_the_default_size_limit_is_not_read(project):
    huge = project / "huge.py"
    with open(huge, "wb") as handle:
        handle.truncate(DEFAULT_MAX_FILE_SIZE + 1)  # sparse: nothing is written, and nothing must be read
    diagnostics = lint([project], project)
    [finding] = findings_of(diagnostics, huge)
    assert finding.code == "STP900"
    assert f"too large ({DEFAULT_MAX_FILE_SIZE + 1} bytes > max-file-size {DEFAULT_MAX_FILE_SIZE} bytes)" in finding.message
    assert stp001_in_good(diagnostics, project)


def test_max_file_size_from_config_and_cli(project):
    (project / "pyproject.toml").write_text('[tool.steplint]\nmax-file-size = "100B"\n', encoding="utf-8")
    small_limit = run_cli("--no-cache", ".", cwd=project)
    assert small_limit.returncode == 1 and "good.py:1:1: STP900" in small_limit.stdout
    assert "max-file-size 100 bytes" in small_limit.stdout
    override = run_cli("--no-cache", "--max-file-size", "1MB", ".", cwd=project)
    assert "STP900" not in override.stdout and "good.py:11" in override.stdout
    unlimited = run_cli("--no-cache", "--max-file-size", "0", ".", cwd=project)
    assert "STP900" not in unlimited.stdout and "good.py:11" in unlimited.stdout
    bad_flag = run_cli("--max-file-size", "lots", ".", cwd=project)
    assert bad_flag.returncode == 2 and "Traceback" not in bad_flag.stderr and "--max-file-size" in bad_flag.stderr
    (project / "pyproject.toml").write_text("[tool.steplint]\nmax-file-size = -5\n", encoding="utf-8")
    bad_config = run_cli(".", cwd=project)
    assert bad_config.returncode == 2 and "'max-file-size' must be a number of bytes" in bad_config.stderr
    assert len(bad_config.stderr.strip().splitlines()) == 1


# --- isolation inside the run: a broken module, a failing summarizer, a failing rule -------------


def test_a_broken_module_leaves_the_rest_of_the_index_working(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "steps.py").write_text(STEPS.replace("    return await inner(x)", "    return x"), encoding="utf-8")
    (package / "broken.py").write_bytes(b"def broken(:\n    pass\n")
    (package / "flow.py").write_text(
        "from agent_framework import step\n"
        "from pkg.broken import broken\n"
        "from pkg.steps import inner\n\n\n"
        "@step\nasync def caller(x: int) -> int:\n    broken()\n    return await inner(x)\n",
        encoding="utf-8",
    )
    diagnostics = lint([package], tmp_path)
    assert {(Path(d.path).name, d.line, d.code) for d in diagnostics} == {("broken.py", 1, "STP900"), ("flow.py", 9, "STP001")}


def test_an_internal_error_while_summarizing_one_file_is_that_files_stp900(project, monkeypatch):
    (project / "other.py").write_text(STEPS, encoding="utf-8")
    real = steplint.summaries.file_summary.summarize
    faults = {"other.py": KeyError("boom")}

    def faulty(parsed, path, module, is_package):
        fault = faults.get(os.path.basename(path))
        if fault is not None:
            raise fault
        return real(parsed, path, module, is_package)

    monkeypatch.setattr(steplint.summaries.file_summary, "summarize", faulty)
    for fault, reason in (
        (KeyError("boom"), "internal error while summarizing (KeyError: 'boom')"),
        (MemoryError(), "out of memory"),
        (RecursionError(), "nesting too deep"),
    ):
        faults["other.py"] = fault
        diagnostics = lint([project], project)
        other = findings_of(diagnostics, project / "other.py")
        assert [d.code for d in other] == ["STP900"] and reason in other[0].message
        assert stp001_in_good(diagnostics, project)


class _FailsOnOneModule(Rule):
    """
    ## What it does
    Raises on the module named ``other``: a stand-in for a bug in a rule.

    ## Why is this bad?
    It is a test double.

    ## Example
    ```python
    x = 1
    ```

    ## Use instead
    ```python
    x = 1
    ```
    """

    code = "STP999"
    name = "fails-on-one-module"
    summary = "raises on the module 'other'"

    def check(self, analysis, module):
        if module.module == "other":
            raise ZeroDivisionError("division by zero")
        return iter(())


def test_a_rule_that_fails_on_one_module_becomes_that_modules_stp900(project, monkeypatch):
    (project / "other.py").write_text(STEPS, encoding="utf-8")
    real_selected = steplint.run.checking.selected_rules
    monkeypatch.setattr(steplint.run.checking, "selected_rules", lambda settings: [*real_selected(settings), _FailsOnOneModule])
    diagnostics = lint([project], project)
    other = findings_of(diagnostics, project / "other.py")
    assert sorted(d.code for d in other) == ["STP001", "STP900"]  # its other rules still report
    internal = [d for d in other if d.code == "STP900"][0]
    assert "internal error in STP999 (ZeroDivisionError: division by zero)" in internal.message
    assert stp001_in_good(diagnostics, project)


# --- a file's findings depend on what it imports, not on what else is linted -------------------


def _placed(diagnostics: list[Diagnostic]) -> set[tuple[str, int, int, str, str]]:
    return {(os.path.abspath(d.path), d.line, d.column, d.code, d.message) for d in diagnostics}


#: Rules whose verdict reads every file of the run by design (which storages the run's files give a workflow: README,
#: STP050): a file linted alone sees only the storages given in the files linted with it.
RUN_WIDE = ("STP050", "STP052")


def test_each_fixture_file_alone_has_the_findings_it_has_among_all_the_others():
    files = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".py", ".pyi") and not p.name.endswith(".fixed.py"))
    settings = Settings(project_root=FIXTURES)
    together = _placed(lint_paths([str(p) for p in files], settings, jobs=1).diagnostics)
    assert together
    for path in files:
        alone = _placed(lint_paths([str(path)], settings, jobs=1).diagnostics)
        expected = {f for f in together if f[0] == str(path)}
        assert {f for f in alone if f[3] not in RUN_WIDE} == {f for f in expected if f[3] not in RUN_WIDE}, \
            path.relative_to(FIXTURES)
        assert {f for f in alone if f[3] in RUN_WIDE} <= expected, path.relative_to(FIXTURES)


def test_a_dotted_file_name_is_no_submodule(tmp_path):
    """``helpers.extra.py`` cannot be imported as ``helpers.extra``: linting it alongside changes nothing."""
    (tmp_path / "helpers.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "helpers.extra.py").write_text(STEPS.split("\n\n\n@step\nasync def outer")[0] + "\n", encoding="utf-8")
    (tmp_path / "flow.py").write_text(
        "from agent_framework import step\n\nfrom helpers import extra\n\n\n"
        "@step\nasync def outer(x: int) -> int:\n    return await extra.inner(x)\n",
        encoding="utf-8",
    )
    assert lint([tmp_path / "flow.py", tmp_path / "helpers.py"], tmp_path) == []
    assert lint([tmp_path / "flow.py", tmp_path / "helpers.py", tmp_path / "helpers.extra.py"], tmp_path) == []


# --- libcst runs where it cannot take the linter down --------------------------------------------


@pytest.mark.skipif(not steplint.source.downlevel._FORK_IS_SAFE, reason="the child process is used on Linux")
def test_a_crash_or_a_hang_in_the_libcst_child_only_costs_the_rewrite(monkeypatch):
    assert steplint.source.downlevel.in_child_process(lambda text: text.upper(), "type x = 1") == "TYPE X = 1"
    assert steplint.source.downlevel.in_child_process(lambda text: os.kill(os.getpid(), signal.SIGSEGV), "type x = 1") is None
    assert steplint.source.downlevel.in_child_process(lambda text: 1 / 0, "type x = 1") is None
    monkeypatch.setattr(steplint.source.downlevel, "CHILD_TIMEOUT_SECONDS", 0.5)
    assert steplint.source.downlevel.in_child_process(lambda text: time.sleep(60), "type x = 1") is None


def _busy(seconds: float) -> str:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return "done"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the child's CPU time is read from /proc")
def test_the_libcst_child_is_timed_by_its_cpu_not_by_a_busy_machine(monkeypatch):
    """dataforge-agent's 315 KB orchestrator.py took 6.6 s of CPU and 40 s of wall time on a loaded machine: a
    wall-clock limit made a valid file a syntax error. A child that waits (as one starved of CPU does) finishes;
    one that spends its CPU budget is stopped long before the wall-clock backstop."""
    monkeypatch.setattr(steplint.source.downlevel, "CHILD_TIMEOUT_SECONDS", 0.5)
    assert steplint.source.downlevel.in_child_process(lambda text: time.sleep(1.5) or text, "type x = 1") == "type x = 1"
    started = time.monotonic()
    assert steplint.source.downlevel.in_child_process(lambda text: _busy(60), "type x = 1") is None
    assert time.monotonic() - started < 4.5


def test_libcst_is_not_asked_about_nesting_python_rejects_anyway():
    shallow = "type X = int\n" + "x = " + "(" * 200 + "1" + ")" * 200 + "\n"
    assert steplint.source.downlevel.shallow_enough(shallow)
    assert not steplint.source.downlevel.shallow_enough(shallow.replace("(" * 200, "(" * 201).replace(")" * 200, ")" * 201))
    assert not steplint.source.downlevel.shallow_enough("type X = int\nx = " + "1 + " * 1000 + "1\n")
    # Brackets and operators inside strings and comments do not count.
    assert steplint.source.downlevel.shallow_enough("type X = int\nx = '" + "(" * 5000 + "'  # " + "[" * 5000 + "\n")


# --- positions survive odd encodings and newer syntax -----------------------------------------


def test_columns_are_characters_not_bytes(tmp_path):
    """A latin-1 file with accents before the call: the column counts characters, as editors do."""
    case = next(c for c in CASES if c.name == "latin1_cookie.py")
    path = tmp_path / case.name
    path.write_bytes(case.data)
    text = case.data.decode("latin-1").splitlines()
    [finding] = lint([path], tmp_path)
    line = text[finding.line - 1]
    assert line[finding.column - 1 : finding.end_column - 1] == "inner(x)"


def test_newer_syntax_keeps_exact_positions(tmp_path):
    for name in sorted(NEWER_SYNTAX):
        case = next(c for c in CASES if c.name == name)
        path = tmp_path / name
        path.write_bytes(case.data)
        text = case.data.decode().splitlines()
        [finding] = lint([path], tmp_path)
        assert text[finding.line - 1][finding.column - 1 : finding.end_column - 1] == "inner(x)", name
