"""The command line a ruff user expects, each through a real ``steplint`` subprocess: paths, stdin, ignore files,
selection layers, the text a person reads, statistics, --show-settings/--show-files, --add-noqa, rules by name,
exit codes."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from cli_samples import nested, steplint

NESTED = nested()  # STP001 at 9:18, an unsafe fix
CLEAN = "from agent_framework import step\n\n@step\nasync def tick(x: str) -> str:\n    return x\n"
ANSI = "\x1b["


def findings(output: str) -> list[str]:
    return [line for line in output.splitlines() if ": STP" in line]


def reported(output: str) -> list[tuple[str, str]]:
    return [(line.split(":")[0], line.split(": ")[1].split()[0]) for line in findings(output)]


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "nested.py").write_text(NESTED)
    (tmp_path / "clean.py").write_text(CLEAN)
    return tmp_path


# --- paths and standard input ------------------------------------------------------------------


def test_a_dangling_symlink_named_on_the_command_line_is_a_finding(project):
    (project / "gone.py").symlink_to(project / "nowhere.py")
    done = steplint("--no-cache", "gone.py", "nested.py", cwd=project)
    assert done.returncode == 1, done.stderr
    assert reported(done.stdout) == [("gone.py", "STP900"), ("nested.py", "STP001")]
    assert "dangling symbolic link" in findings(done.stdout)[0] and "its target does not exist" in done.stdout
    assert done.stderr == ""


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_file_is_a_finding(project):
    (project / "secret.py").write_text(CLEAN)
    (project / "secret.py").chmod(0)
    done = steplint("--no-cache", "secret.py", "nested.py", cwd=project)
    assert reported(done.stdout) == [("nested.py", "STP001"), ("secret.py", "STP900")]
    assert "Permission denied" in done.stdout


def test_a_path_below_a_file_is_a_finding_too(project):
    done = steplint("--no-cache", "clean.py/inner.py", "nested.py", cwd=project)
    assert done.returncode == 1
    assert reported(done.stdout) == [("clean.py/inner.py", "STP900"), ("nested.py", "STP001")]


def test_stdin_filename_alone_reads_standard_input(project):
    (project / "src").mkdir()
    done = steplint("--stdin-filename", "src/a.py", cwd=project, stdin=NESTED)
    assert done.returncode == 1, done.stderr
    assert reported(done.stdout) == [("src/a.py", "STP001")]  # nested.py in the folder is not linted
    same = steplint("--stdin-filename", "src/a.py", "-", cwd=project, stdin=NESTED)
    assert same.stdout == done.stdout
    assert steplint("-", "nested.py", cwd=project, stdin=NESTED).returncode == 2


# --- ignore files --------------------------------------------------------------------------------


@pytest.fixture()
def repository(project: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    for folder in ("generated", "scratch", "local", "vendor"):
        (project / folder).mkdir()
        (project / folder / "flow.py").write_text(NESTED)
    (project / "generated" / "keep.py").write_text(NESTED)
    (project / ".gitignore").write_text("generated/*\n!generated/keep.py\n")
    (project / "vendor" / ".gitignore").write_text("flow.py\n")  # a deeper file, relative to its folder
    (project / ".ignore").write_text("scratch/\n")
    (project / ".git" / "info" / "exclude").write_text("local/\n")
    return project


def test_gitignore_ignore_and_info_exclude_leave_files_out(repository):
    shown = steplint("--show-files", ".", cwd=repository)
    assert shown.returncode == 0
    assert shown.stdout.splitlines() == ["clean.py", "nested.py", "generated/keep.py"]
    done = steplint("--no-cache", ".", cwd=repository)
    assert sorted({path for path, _ in reported(done.stdout)}) == ["generated/keep.py", "nested.py"]


def test_no_respect_gitignore_and_the_config_key(repository):
    everything = steplint("--show-files", "--no-respect-gitignore", ".", cwd=repository).stdout.splitlines()
    assert sorted(everything) == sorted(
        ["clean.py", "nested.py", "generated/flow.py", "generated/keep.py", "local/flow.py", "scratch/flow.py",
         "vendor/flow.py"]
    )
    (repository / "pyproject.toml").write_text("[tool.steplint]\nrespect-gitignore = false\n")
    assert sorted(steplint("--show-files", ".", cwd=repository).stdout.splitlines()) == sorted(everything)
    assert "generated/flow.py" not in steplint("--show-files", "--respect-gitignore", ".", cwd=repository).stdout


def test_a_named_ignored_file_is_linted_unless_force_exclude(repository):
    assert reported(steplint("--no-cache", "generated/flow.py", cwd=repository).stdout) == [("generated/flow.py", "STP001")]
    done = steplint("--no-cache", "--force-exclude", "generated/flow.py", cwd=repository)
    assert done.returncode == 0 and findings(done.stdout) == []


def test_a_named_ignored_folder_is_linted_unless_force_exclude(repository):
    """As ruff: a folder named on the command line, or the one you stand in, is walked though ignored."""
    (repository / "local" / "deeper").mkdir()
    (repository / "local" / "deeper" / "more.py").write_text(NESTED)
    (repository / "local" / "notes.tmp.py").write_text(NESTED)
    (repository / ".gitignore").write_text("generated/*\n!generated/keep.py\nscratch/\n*.tmp.py\n")
    assert steplint("--show-files", "scratch", "local", cwd=repository).stdout.splitlines() == [
        "scratch/flow.py", "local/flow.py", "local/deeper/more.py"
    ]  # the patterns that do not ignore the named folder itself still apply in it
    assert steplint("--show-files", ".", cwd=repository / "local").stdout.splitlines() == ["flow.py", "deeper/more.py"]
    assert steplint("--show-files", "local/deeper", cwd=repository).stdout.splitlines() == ["local/deeper/more.py"]
    assert reported(steplint("--no-cache", "local", cwd=repository).stdout) == [
        ("local/deeper/more.py", "STP001"), ("local/flow.py", "STP001")
    ]
    done = steplint("--no-cache", "--force-exclude", "local", cwd=repository)
    assert done.returncode == 0 and findings(done.stdout) == []


def test_gitignore_outside_a_repository_is_not_read(project):
    (project / ".gitignore").write_text("nested.py\n")
    assert "nested.py" in steplint("--show-files", ".", cwd=project).stdout.splitlines()


# --- selection layers and extend -----------------------------------------------------------------


def test_command_line_select_replaces_the_configured_selection(project):
    (project / "nested.py").write_text(NESTED + "\n@step\ndef blocking(x: str) -> str:\n    return x\n")
    (project / "pyproject.toml").write_text('[tool.steplint]\nselect = ["STP040"]\nextend-select = ["STP001"]\n')
    assert [code for _, code in reported(steplint("nested.py", cwd=project).stdout)] == ["STP001", "STP040"]
    assert [code for _, code in reported(steplint("--select", "STP040", "nested.py", cwd=project).stdout)] == ["STP040"]
    both = steplint("--select", "STP040", "--extend-select", "STP001", "nested.py", cwd=project)
    assert [code for _, code in reported(both.stdout)] == ["STP001", "STP040"]


def test_extend_inherits_a_base_config_relative_to_itself(tmp_path):
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "base.toml").write_text(
        '[tool.steplint]\nignore = ["STP040"]\nextend-select = ["STP100"]\n'
        '[tool.steplint.per-file-ignores]\n"../app/legacy/*" = ["STP001"]\n'
    )
    app = tmp_path / "app"
    (app / "legacy").mkdir(parents=True)
    (app / "pyproject.toml").write_text('[tool.steplint]\nextend = "../shared/base.toml"\nextend-select = ["STP011"]\n')
    sync_step = NESTED + "\n@step\ndef blocking(x: str) -> str:\n    return x  # noqa: STP002\n"
    (app / "flow.py").write_text(sync_step)
    (app / "legacy" / "old.py").write_text(sync_step)
    done = steplint("--no-cache", ".", cwd=app)
    # STP040 ignored by the base, STP100 selected by it, STP001 ignored in legacy/ by its per-file-ignores.
    assert sorted(reported(done.stdout)) == [("flow.py", "STP001"), ("flow.py", "STP100"), ("legacy/old.py", "STP100")]
    settings = json.loads(steplint("--show-settings", "--format", "json", ".", cwd=app).stdout)
    assert settings["extend_select"] == ["STP100", "STP011"] and settings["ignore"] == ["STP040"]
    (app / "pyproject.toml").write_text('[tool.steplint]\nextend = "../shared/missing.toml"\n')
    broken = steplint(".", cwd=app)
    assert broken.returncode == 2 and "'extend' names ../shared/missing.toml, which does not exist" in broken.stderr


def test_an_extend_loop_is_an_error(tmp_path):
    (tmp_path / "a.toml").write_text('[tool.steplint]\nextend = "b.toml"\n')
    (tmp_path / "b.toml").write_text('[tool.steplint]\nextend = "a.toml"\n')
    (tmp_path / "pyproject.toml").write_text('[tool.steplint]\nextend = "a.toml"\n')
    (tmp_path / "clean.py").write_text(CLEAN)
    done = steplint("clean.py", cwd=tmp_path)
    assert done.returncode == 2 and "'extend' makes a loop" in done.stderr


# --- the text a person reads ---------------------------------------------------------------------


def test_text_shows_the_severity_a_summary_and_the_fix_hints(project):
    done = steplint("nested.py", cwd=project)
    assert done.stdout.splitlines()[0].startswith("nested.py:9:18: STP001 warning: step 'wrapper' calls step 'tick'")
    assert done.stdout.splitlines()[1:] == [
        "Found 1 finding (1 warning).", "1 hidden fix can be enabled with `--unsafe-fixes`."
    ]
    unsafe = steplint("--unsafe-fixes", "nested.py", cwd=project)
    assert ": STP001 warning: [*] step 'wrapper'" in unsafe.stdout
    assert unsafe.stdout.splitlines()[-1] == "[*] 1 fixable with `--fix`."
    assert steplint("clean.py", cwd=project).stdout == "All checks passed!\n"


def test_quiet_prints_only_the_findings_and_silent_nothing(project):
    assert steplint("-q", "nested.py", cwd=project).stdout.splitlines() == findings(steplint("nested.py", cwd=project).stdout)
    silent = steplint("--silent", "nested.py", cwd=project)
    assert silent.returncode == 1 and silent.stdout == silent.stderr == ""


def test_full_shows_the_source_line_with_a_caret_under_the_span(project):
    done = steplint("--output-format", "full", "nested.py", cwd=project)
    lines = done.stdout.splitlines()
    assert lines[1:4] == [
        "  |",
        " 9 |     return await tick(x)".replace(" 9 |", "9 |"),
        "  |                  ^^^^^^^ STP001",
    ]
    assert steplint("--format", "concise", "-q", "nested.py", cwd=project).stdout.splitlines() == [lines[0]]


def test_full_reads_standard_input_for_its_source_lines(project):
    done = steplint("--format", "full", "--stdin-filename", "virtual.py", cwd=project, stdin=NESTED)
    assert "9 |     return await tick(x)" in done.stdout


def test_colour_follows_the_flag_no_color_force_color_and_the_terminal(project):
    assert ANSI not in steplint("nested.py", cwd=project).stdout  # a pipe
    assert ANSI in steplint("--color", "always", "nested.py", cwd=project).stdout
    assert ANSI in steplint("nested.py", cwd=project, env={"FORCE_COLOR": "1"}).stdout
    assert ANSI not in steplint("nested.py", cwd=project, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert ANSI in steplint("--color", "always", "nested.py", cwd=project, env={"NO_COLOR": "1"}).stdout
    assert ANSI not in steplint("--color", "never", "nested.py", cwd=project, env={"FORCE_COLOR": "1"}).stdout
    assert ANSI not in steplint("--color", "always", "--format", "json", "nested.py", cwd=project).stdout
    coloured = steplint("--color", "always", "nested.py", cwd=project).stdout
    assert _strip_ansi(coloured) == steplint("nested.py", cwd=project).stdout


def test_colour_on_a_real_terminal(project):
    leader, follower = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    done = subprocess.run([sys.executable, "-m", "steplint", "nested.py"], cwd=project, stdout=follower,
                          stderr=subprocess.PIPE, env=environment, timeout=120)
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    assert done.returncode == 1
    assert ANSI.encode() in output and b"STP001" in output


def _strip_ansi(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_show_fixes_lists_what_was_fixed_by_file_and_rule(project):
    (project / "noqa.py").write_text(nested("  # noqa: STP001, STP002"))
    would = steplint("--extend-select", "STP100", "--show-fixes", "noqa.py", cwd=project)
    assert would.stdout.splitlines()[-3:] == ["Would fix 1 finding:", "- noqa.py:", "    1 × STP100 (unused-noqa)"]
    fixed = steplint("--extend-select", "STP100", "--fix", "--show-fixes", "noqa.py", cwd=project)
    assert fixed.returncode == 0, fixed.stdout
    assert fixed.stdout.splitlines() == [
        "Found 1 finding (1 fixed, 0 remaining).", "Fixed 1 finding:", "- noqa.py:", "    1 × STP100 (unused-noqa)"
    ]
    assert (project / "noqa.py").read_text() == nested("  # noqa: STP001")


def test_fix_summary_in_json_goes_to_stderr(project):
    done = steplint("--fix", "--unsafe-fixes", "--format", "json", "nested.py", cwd=project)
    assert json.loads(done.stdout) == [] and done.stderr == "Fixed 1 finding in 1 file; 0 remaining.\n"


# --- statistics ----------------------------------------------------------------------------------


def test_statistics_respect_the_format(project):
    text = steplint("--statistics", "nested.py", cwd=project)
    assert text.stdout == "1\tSTP001\tstep-calls-step\n"  # ruff's layout; no [*]/[ ] column while nothing is fixable
    rows = json.loads(steplint("--statistics", "--format", "json", "nested.py", cwd=project).stdout)
    assert rows == [{"code": "STP001", "name": "step-calls-step", "count": 1, "fixable": False}]
    lines = steplint("--statistics", "--format", "json-lines", "--unsafe-fixes", "nested.py", cwd=project).stdout
    assert [json.loads(line) for line in lines.splitlines()] == [dict(rows[0], fixable=True)]
    sarif = steplint("--statistics", "--format", "sarif", "nested.py", cwd=project)
    assert sarif.returncode == 2 and "--statistics prints text or JSON, not sarif" in sarif.stderr


# --- settings and files --------------------------------------------------------------------------


def test_show_settings_names_the_file_the_selection_and_the_targets(project):
    (project / "pyproject.toml").write_text(
        '[project]\nrequires-python = ">=3.11"\ndependencies = ["agent-framework-core==1.19.0"]\n'
        '[tool.steplint]\nextend-select = ["STP100"]\nextend-exclude = ["generated"]\n'
    )
    done = steplint("--show-settings", "nested.py", cwd=project)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == "Settings for: nested.py"
    assert f"config file: {project / 'pyproject.toml'}" in lines
    assert any(line.startswith("target-version: 1.19.0 (from ") for line in lines)
    assert any(line.startswith("target-python: 3.11 (from ") for line in lines)
    assert "extend-select: [STP100]" in lines and "extend-exclude: [generated]" in lines
    assert "    STP100 unused-noqa" in lines and "respect-gitignore: true" in lines
    record = json.loads(steplint("--show-settings", "--format", "json", "--ignore", "STP040", "nested.py", cwd=project).stdout)
    assert record["target_version"] == "1.19.0" and record["ignore"] == ["STP040"]
    assert "STP040 sync-step" not in record["enabled_rules"] and "STP001 step-calls-step" in record["enabled_rules"]


def test_show_files_lists_what_a_run_reads(project):
    (project / "build").mkdir()
    (project / "build" / "out.py").write_text(CLEAN)
    (project / "notes.txt").write_text("text\n")
    done = steplint("--show-files", ".", cwd=project)
    assert done.returncode == 0 and done.stdout.splitlines() == ["clean.py", "nested.py"]


# --- noqa ----------------------------------------------------------------------------------------


def test_add_noqa_silences_every_finding_and_keeps_other_codes(project):
    source = NESTED.replace("return await tick(x)", "return await tick(x)  # noqa: E501") + (
        "\n@step\nasync def second(x: str) -> str:\n    return await tick(x) + await tick(x)\n"
    )
    (project / "nested.py").write_text(source)
    done = steplint("--add-noqa", "nested.py", cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "Added 2 noqa directives."  # two findings on one line: one comment
    text = (project / "nested.py").read_text()
    assert "return await tick(x)  # noqa: E501, STP001\n" in text
    assert "return await tick(x) + await tick(x)  # noqa: STP001\n" in text
    after = steplint("--no-cache", "--extend-select", "STP100", "nested.py", cwd=project)
    assert after.returncode == 0, after.stdout
    assert steplint("--add-noqa", "nested.py", cwd=project).stderr.splitlines()[-1] == "Added 0 noqa directives."


def test_add_noqa_says_which_lines_cannot_hold_a_comment(project):
    (project / "nested.py").write_text(NESTED.replace("return await tick(x)", 'return await tick("""\n""" + x) + \\\n  await tick(x)'))
    done = steplint("--add-noqa", "nested.py", cwd=project)
    assert "no '# noqa' can go on this line" in done.stderr


def test_stp100_fix_removes_only_the_unused_codes(project):
    (project / "nested.py").write_text(nested("  # noqa: STP001, STP002, E501"))
    done = steplint("--extend-select", "STP100", "--fix", "nested.py", cwd=project)
    assert done.returncode == 0, done.stdout
    assert (project / "nested.py").read_text() == nested("  # noqa: STP001, E501")


# --- rules ---------------------------------------------------------------------------------------


def test_rule_by_name_and_rules_as_json(project):
    assert steplint("rule", "step-calls-step").stdout == steplint("rule", "STP001").stdout
    rows = json.loads(steplint("rules", "--format", "json").stdout)
    first = rows[0]
    assert first["code"] == "STP001" and first["name"] == "step-calls-step" and first["fix"] == "unsafe"
    assert first["url"].endswith("/docs/rules/STP001.md")
    assert {row["code"] for row in rows if row["fix"] == "safe"} == {"STP043", "STP100"}


def test_top_level_help_shows_the_lint_options():
    done = steplint("--help")
    assert done.returncode == 0
    assert "Options of the default command, check" in done.stdout
    for option in ("--select", "--fix", "--output-format", "--statistics", "--show-settings", "--add-noqa"):
        assert option in done.stdout


def test_a_folder_named_like_a_command(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "flow.py").write_text(NESTED)
    assert reported(steplint("check", "rules", cwd=tmp_path).stdout) == [("rules/flow.py", "STP001")]
    assert reported(steplint("./rules", cwd=tmp_path).stdout) == [("rules/flow.py", "STP001")]
    assert "STP001  step-calls-step" in steplint("rules", cwd=tmp_path).stdout  # the command wins


# --- exit codes ----------------------------------------------------------------------------------


def test_exit_codes_for_warnings_and_fixes(project):
    assert steplint("nested.py", cwd=project).returncode == 1  # a warning is a finding
    assert steplint("--exit-zero", "nested.py", cwd=project).returncode == 0
    (project / "noqa.py").write_text(nested("  # noqa: STP001, STP002"))
    assert steplint("--extend-select", "STP100", "--fix", "noqa.py", cwd=project).returncode == 0
    (project / "noqa.py").write_text(nested("  # noqa: STP001, STP002"))
    done = steplint("--extend-select", "STP100", "--fix", "--exit-non-zero-on-fix", "noqa.py", cwd=project)
    assert done.returncode == 1
    assert steplint("--extend-select", "STP100", "--fix", "--exit-non-zero-on-fix", "noqa.py", cwd=project).returncode == 0
    assert steplint("--bogus", cwd=project).returncode == 2


def test_a_named_pipe_named_on_the_command_line_is_a_finding_not_a_hang(project):
    os.mkfifo(project / "pipe.py")
    done = steplint("--no-cache", "pipe.py", "nested.py", cwd=project)
    assert reported(done.stdout) == [("nested.py", "STP001"), ("pipe.py", "STP900")]
    assert "not a regular file but a named pipe" in done.stdout


def test_every_option_of_check_is_a_field_of_its_parsed_options():
    """``CheckOptions.parse`` reads click's values by field name: an option without a field would be dropped."""
    from dataclasses import fields

    from steplint.frontends.check_options import CheckOptions
    from steplint.frontends.cli import check

    derived = {"reads_stdin", "inline_settings"}  # inline_settings: the --config values that are not a file
    assert {param.name for param in check.params} == {f.name for f in fields(CheckOptions)} - derived
