"""The command line: every issue-2 flag and exit code, some through a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli_samples import nested

from steplint.frontends.cli import cli

ROOT = Path(__file__).resolve().parent.parent
REPRO = ROOT / "fixtures" / "repro_9383.py"

# cli_samples' nested-step file, and a sync step after it (STP040).
NESTED = nested() + """
@step
def blocking(x: str) -> str:
    return x
"""
CLEAN = """\
from agent_framework import step

@step
async def tick(x: str) -> str:
    return x
"""


def run(args: list[str], cwd: Path | None = None, stdin: str | None = None):
    runner = CliRunner()
    old = os.getcwd()
    os.chdir(cwd or ROOT)
    try:
        return runner.invoke(cli, args, input=stdin, catch_exceptions=False)
    finally:
        os.chdir(old)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "nested.py").write_text(NESTED)
    (tmp_path / "clean.py").write_text(CLEAN)
    return tmp_path


def codes(output: str) -> list[str]:
    return [line.split(": ", 1)[1].split(" ", 1)[0] for line in output.splitlines() if ": STP" in line]


def reported_files(output: str) -> set[str]:
    return {line.split(":")[0] for line in output.splitlines() if ": STP" in line}


def test_findings_exit_1_in_flake8_format(project):
    result = run(["nested.py"], cwd=project)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("nested.py:9:18: STP001 warning: step 'wrapper' calls step 'tick'")
    assert lines[1].startswith("nested.py:12:1: STP040 error: step 'blocking' is not async")
    assert codes(result.output) == ["STP001", "STP040"]
    assert lines[2:] == ["Found 2 findings (1 error, 1 warning).", "1 hidden fix can be enabled with `--unsafe-fixes`."]


def test_clean_exit_0(project):
    result = run(["clean.py"], cwd=project)
    assert result.exit_code == 0
    assert result.output == "All checks passed!\n"
    assert run(["-q", "clean.py"], cwd=project).output == ""


def test_default_path_is_the_current_folder(project):
    result = run([], cwd=project)
    assert result.exit_code == 1
    assert reported_files(result.output) == {"nested.py"}


def test_a_missing_path_is_a_finding_and_the_other_paths_are_linted(project):
    """As ruff's E902: a path that does not exist is an STP900 finding for it, not an abort."""
    done = subprocess.run([sys.executable, "-m", "steplint", "--no-cache", "nope.py", "nested.py"], cwd=project,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "nope.py:1:1: STP900" in done.stdout and "No such file or directory" in done.stdout
    assert "nested.py:" in done.stdout and "Traceback" not in done.stderr


@pytest.mark.parametrize("selection", [["--select", "STP001"], ["--ignore", "STP900"], ["--ignore", "ALL"]])
def test_a_broken_or_missing_file_is_reported_whatever_the_selection(project, selection):
    """As ruff's syntax errors: a file that was not checked never passes as checked."""
    (project / "broken.py").write_text("def broken(:\n    pass\n")
    (project / "pyproject.toml").write_text('[tool.steplint.per-file-ignores]\n"broken.py" = ["STP900"]\n')
    (project / "silenced.py").write_text("# steplint: disable-file=all\ndef broken(:  # noqa: STP900\n    pass\n")
    done = subprocess.run([sys.executable, "-m", "steplint", "--no-cache", *selection, "broken.py", "silenced.py",
                           "nope.py"], cwd=project, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert reported_files(done.stdout) == {"broken.py", "silenced.py", "nope.py"}
    assert set(codes(done.stdout)) == {"STP900"} and "All checks passed!" not in done.stdout


def test_no_python_files_is_a_warning_as_in_ruff(project):
    (project / "empty").mkdir()
    (project / "empty" / "notes.txt").write_text("not python\n")
    done = subprocess.run([sys.executable, "-m", "steplint", "--no-cache", "empty"], cwd=project,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, "All checks passed!\n")
    assert done.stderr == "warning: No Python files found under the given path(s)\n"
    quiet = subprocess.run([sys.executable, "-m", "steplint", "--no-cache", "-q", "empty"], cwd=project,
                           capture_output=True, text=True, timeout=120)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    clean = subprocess.run([sys.executable, "-m", "steplint", "--no-cache", "clean.py"], cwd=project,
                           capture_output=True, text=True, timeout=120)
    assert "No Python files" not in clean.stderr


def test_unknown_option_is_a_usage_error(project):
    assert run(["--bogus"], cwd=project).exit_code == 2


def test_exit_zero(project):
    result = run(["--exit-zero", "nested.py"], cwd=project)
    assert result.exit_code == 0
    assert codes(result.output) == ["STP001", "STP040"]


def test_select_and_extend_select_and_ignore(project):
    assert codes(run(["--select", "STP040", "nested.py"], cwd=project).output) == ["STP040"]
    assert codes(run(["--select", "STP04", "--extend-select", "STP001", "nested.py"], cwd=project).output) == [
        "STP001",
        "STP040",
    ]
    assert codes(run(["--ignore", "STP0", "nested.py"], cwd=project).output) == []
    bad = run(["--select", "XYZ9", "nested.py"], cwd=project)
    assert bad.exit_code == 2 and "unknown rule selector 'XYZ9'" in bad.output


def test_exclude_extend_exclude_and_force_exclude(project):
    (project / "sub").mkdir()
    (project / "sub" / "more.py").write_text(NESTED)
    assert reported_files(run(["."], cwd=project).output) == {"nested.py", "sub/more.py"}
    assert reported_files(run(["--extend-exclude", "sub", "."], cwd=project).output) == {"nested.py"}
    assert run(["--exclude", "nested.py,sub", "."], cwd=project).exit_code == 0
    # A file named on the command line is linted unless --force-exclude.
    assert run(["--exclude", "nested.py", "nested.py"], cwd=project).exit_code == 1
    assert run(["--exclude", "nested.py", "--force-exclude", "nested.py"], cwd=project).exit_code == 0


def test_json_format_follows_the_contract(project):
    result = run(["--format", "json", "nested.py"], cwd=project)
    items = json.loads(result.output)
    assert [i["code"] for i in items] == ["STP001", "STP040"]
    first = items[0]
    ruff_keys = {"cell", "code", "end_location", "filename", "fix", "location", "message", "noqa_row", "url"}
    assert set(first) == ruff_keys | {"path", "line", "column", "end_line", "end_column", "name", "severity"}
    assert (first["line"], first["column"], first["end_line"], first["end_column"]) == (9, 18, 9, 25)
    assert first["name"] == "step-calls-step" and first["severity"] == "warning"


def test_json_chain_for_stp002(tmp_path):
    (tmp_path / "chain.py").write_text(
        "from agent_framework import step\n\n@step\nasync def tick(x: str) -> str:\n    return x\n\n"
        "async def helper(x: str) -> str:\n    return await tick(x)\n\n"
        "@step\nasync def outer(x: str) -> str:\n    return await helper(x)\n"
    )
    items = json.loads(run(["--format", "json", "chain.py"], cwd=tmp_path).output)
    assert [i["code"] for i in items] == ["STP002"]
    assert items[0]["chain"] == ["chain.outer", "chain.helper", "chain.tick"]
    assert "outer -> helper -> tick" in items[0]["message"]


def test_output_file(project):
    result = run(["--output-file", "out.txt", "nested.py"], cwd=project)
    assert result.exit_code == 1 and result.output == ""
    assert codes((project / "out.txt").read_text()) == ["STP001", "STP040"]


def test_statistics(project):
    result = run(["--statistics", "nested.py"], cwd=project)
    assert result.output.split() == ["1", "STP001", "step-calls-step", "1", "STP040", "sync-step"]


def test_config_from_pyproject_and_cli_override(project):
    (project / "pyproject.toml").write_text('[tool.steplint]\nignore = ["STP040"]\n')
    assert codes(run(["nested.py"], cwd=project).output) == ["STP001"]
    assert codes(run(["--isolated", "nested.py"], cwd=project).output) == ["STP001", "STP040"]
    # The command line is the last layer, as in ruff: its --select starts over, so the file's ignore is gone too.
    assert codes(run(["--select", "STP040", "nested.py"], cwd=project).output) == ["STP040"]
    assert codes(run(["--extend-select", "STP040", "nested.py"], cwd=project).output) == ["STP001", "STP040"]
    assert codes(run(["--ignore", "STP001", "nested.py"], cwd=project).output) == []


def test_config_file_flag(project):
    (project / "custom.toml").write_text('[tool.steplint]\nselect = ["STP040"]\n')
    assert codes(run(["--config", "custom.toml", "nested.py"], cwd=project).output) == ["STP040"]
    missing = run(["--config", "missing.toml", "nested.py"], cwd=project)
    assert missing.exit_code == 2 and "config file not found" in missing.output


def test_config_unknown_key_and_bad_value_exit_2(project):
    (project / "pyproject.toml").write_text('[tool.steplint]\nselct = ["STP040"]\n')
    result = run(["nested.py"], cwd=project)
    assert result.exit_code == 2 and "unknown key 'selct'" in result.output
    (project / "pyproject.toml").write_text("[tool.steplint]\nignore = 3\n")
    result = run(["nested.py"], cwd=project)
    assert result.exit_code == 2 and "'ignore' must be a list of strings" in result.output


def test_per_file_ignores(project):
    (project / "pyproject.toml").write_text('[tool.steplint.per-file-ignores]\n"nest*.py" = ["STP001"]\n')
    assert codes(run(["nested.py"], cwd=project).output) == ["STP040"]


def test_noqa_on_the_reported_line(project):
    source = NESTED.replace("return await tick(x)", "return await tick(x)  # noqa: STP001")
    (project / "nested.py").write_text(source.replace("def blocking(x: str) -> str:", "def blocking(x: str) -> str:  # noqa: STP010"))
    assert codes(run(["nested.py"], cwd=project).output) == ["STP040"]
    (project / "nested.py").write_text(NESTED.replace("return await tick(x)", "return await tick(x)  # noqa"))
    assert codes(run(["nested.py"], cwd=project).output) == ["STP040"]


def test_noqa_on_the_first_line_of_a_multiline_call(tmp_path):
    (tmp_path / "multi.py").write_text(
        "from agent_framework import step\n\n@step\nasync def tick(x: str, y: str) -> str:\n    return x\n\n"
        "@step\nasync def wrapper(x: str) -> str:\n    return await tick(  # noqa: STP001\n        x,\n        x,\n    )\n"
    )
    assert run(["multi.py"], cwd=tmp_path).exit_code == 0


def test_stdin_with_filename(project):
    result = run(["--stdin-filename", "virtual.py", "-"], cwd=project, stdin=NESTED)
    assert result.exit_code == 1
    assert result.output.splitlines()[0].startswith("virtual.py:9:18: STP001")


def test_verbose_reports_counts(project):
    # Click mixes stderr into the runner's output (8.1) or keeps both in it (8.2+).
    result = run(["-v", "nested.py"], cwd=project)
    assert "1 file(s) checked, 2 finding(s)" in result.output


def test_verbose_says_what_the_cache_spared(project):
    past = time.time() - 10  # older than the cache's racy window, so the run can be replayed
    os.utime(project / "nested.py", (past, past))
    first = run(["-v", "nested.py"], cwd=project)
    assert "1 file(s) read, 1 summarized, 1 reported, 1 analyzed\n" in first.output  # nothing kept: not said
    again = run(["-v", "nested.py"], cwd=project)
    assert "its findings were replayed from the cache" in again.output
    (project / "other.py").write_text("x = 1\n")
    os.utime(project / "other.py", (past, past))
    run(["-v", "nested.py", "other.py"], cwd=project)
    with open(project / "other.py", "a") as other:
        other.write("# edited\n")
    both = run(["-v", "nested.py", "other.py"], cwd=project)
    assert "2 reported, 1 analyzed (1 file(s)' findings were kept from the cache)" in both.output


def test_target_version_flag_validates(project):
    result = run(["--target-version", "banana", "nested.py"], cwd=project)
    assert result.exit_code == 2 and "target-version" in result.output


def test_broken_file_is_stp900_and_other_files_still_report(project):
    (project / "broken.py").write_text("def broken(:\n    pass\n")
    result = run(["."], cwd=project)
    assert result.exit_code == 1
    assert "broken.py:1:12: STP900 error: cannot analyze this file: syntax error" in result.output
    assert "nested.py:9:18: STP001" in result.output


def test_rules_and_rule_commands():
    listing = run(["rules"])
    assert listing.exit_code == 0 and "STP001  step-calls-step" in listing.output
    doc = run(["rule", "stp001"])
    assert doc.exit_code == 0 and "## What it does" in doc.output
    assert run(["rule", "step-calls-step"]).output == doc.output
    unknown = run(["rule", "STP999"])
    assert unknown.exit_code == 2 and "unknown rule 'STP999': not a code or a name" in unknown.output


def _subprocess(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "steplint", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_subprocess_version_and_module_entry():
    from steplint import __version__

    result = _subprocess("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"steplint {__version__}"


def test_subprocess_repro_gives_exactly_the_expected_findings():
    result = _subprocess(str(REPRO))
    assert result.returncode == 1
    found = [(line.split(":")[1], line.split(": ")[1].split()[0]) for line in result.stdout.splitlines() if ": STP" in line]
    assert found == [("15", "STP010"), ("23", "STP010"), ("24", "STP001")]
    assert result.stdout.splitlines()[-2:] == ["Found 3 findings (3 errors).", "1 hidden fix can be enabled with `--unsafe-fixes`."]


def test_subprocess_internal_error_is_one_line(tmp_path):
    # A pyproject that is not TOML is a configuration error: exit 2, one line, no traceback.
    (tmp_path / "pyproject.toml").write_text("[tool.steplint\n")
    (tmp_path / "a.py").write_text(CLEAN)
    result = _subprocess("a.py", cwd=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "invalid TOML" in result.stderr


def test_console_script_is_installed():
    script = Path(sys.executable).parent / "steplint"
    result = subprocess.run([str(script), str(REPRO), "--select", "STP001"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and ": STP001 " in result.stdout
