"""The flake8 plugin, through the real flake8 in a subprocess: same findings and positions as the CLI."""

from __future__ import annotations

import configparser
import re
import subprocess
import sys
from pathlib import Path

from integrations import FLOW, FLOW_FINDING, ROOT, STEPS_FINDING, make_project, snippet, tool


def flake8(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    # -j1: one process is faster for a few files. Tests pass --isolated unless they test a flake8 config.
    return subprocess.run(
        [sys.executable, "-m", "flake8", "-j1", *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=120
    )


def steplint_text(*args: str, cwd: Path) -> list[str]:
    """steplint's findings in flake8's shape: ``-q`` drops the summary, and the severity and ``[*]`` go."""
    done = subprocess.run([tool("steplint"), "-q", *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return [re.sub(r"^(.+?:\d+:\d+: STP\d+) (?:error|warning): (?:\[\*\] )?", r"\1 ", line) for line in done.stdout.splitlines()]


def positions(lines: list[str]) -> set[tuple[str, int, int, str]]:
    found = set()
    for line in lines:
        path, row, column, rest = line.split(":", 3)
        found.add((path, int(row), int(column), rest.split()[0]))
    return found


def test_plugin_is_registered_under_stp():
    done = flake8("--version", cwd=ROOT)
    assert "steplint" in done.stdout


def test_flake8_reports_what_the_cli_reports_on_every_fixture():
    # flake8 gives each file to the plugin alone; cross-module findings must still appear.
    # A file that does not parse is flake8's E999, not a plugin's business.
    done = flake8("--isolated", "--select", "STP", "fixtures", cwd=ROOT)
    assert done.returncode == 1, done.stderr
    everything = steplint_text("fixtures", cwd=ROOT)
    # flake8 reads only Python files: the notebooks' findings are the command line's alone (README, flake8).
    notebooks = [line for line in everything if ".ipynb:cell " in line]
    assert notebooks and not any(".ipynb" in line for line in done.stdout.splitlines())
    cli = [line for line in everything if " STP900 " not in line and line not in notebooks]
    # STP050/STP052 read the storages the run's files give: flake8 gives the plugin one file at a time (README, flake8)
    run_wide = ("STP050", "STP052")
    plugin = positions(done.stdout.splitlines())
    assert {p for p in plugin if p[3] not in run_wide} == {p for p in positions(cli) if p[3] not in run_wide}
    assert {p for p in plugin if p[3] in run_wide} <= positions(cli)
    assert any("/multimodule/" in line for line in done.stdout.splitlines())


def test_flake8_lines_are_the_cli_lines():
    # The fixtures whose findings never share a place, so that messages compare too.
    sample = ("fixtures/multimodule", "fixtures/repro_9383.py", "fixtures/stp002_helpers.py", "fixtures/stp040_sync.py")
    done = flake8("--isolated", "--select", "STP", *sample, cwd=ROOT)
    assert sorted(done.stdout.splitlines()) == sorted(steplint_text(*sample, cwd=ROOT))


def test_only_the_given_file_is_reported_but_its_imports_are_resolved(tmp_path):
    make_project(tmp_path)
    done = flake8("--isolated", "--select", "STP", "pkg/flow.py", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert positions(done.stdout.splitlines()) == {FLOW_FINDING}  # not steps.py's, and STP040 ignored by pyproject


def test_stdin_is_linted_as_the_display_name(tmp_path):
    make_project(tmp_path)
    unsaved = FLOW.replace("return await tick(label)", "return await tick(label) + await tick(label)")
    done = flake8("--isolated", "--select", "STP", "--stdin-display-name", "pkg/flow.py", "-", cwd=tmp_path, stdin=unsaved)
    assert positions(done.stdout.splitlines()) == {FLOW_FINDING, ("pkg/flow.py", 8, 38, "STP001")}


def test_noqa_is_left_to_flake8(tmp_path):
    make_project(tmp_path)
    flow = tmp_path / "pkg" / "flow.py"
    flow.write_text(FLOW.replace("return await tick(label)", "return await tick(label)  # noqa: STP001"))
    assert flake8("--isolated", "--select", "STP", "pkg/flow.py", cwd=tmp_path).stdout == ""
    # With flake8's --disable-noqa the finding is back: the plugin did not drop it itself.
    done = flake8("--isolated", "--select", "STP", "--disable-noqa", "pkg/flow.py", cwd=tmp_path)
    assert positions(done.stdout.splitlines()) == {FLOW_FINDING}
    flow.write_text(FLOW.replace("return await tick(label)", "return await tick(label)  # noqa: E501"))
    assert positions(flake8("--isolated", "--select", "STP", "pkg/flow.py", cwd=tmp_path).stdout.splitlines()) == {FLOW_FINDING}


def test_columns_after_non_ascii_and_an_encoding_cookie(tmp_path):
    make_project(tmp_path)
    text = "# -*- coding: latin-1 -*-\n" + FLOW.replace("return await tick(label)", 'return "éé" + await tick(label)')
    (tmp_path / "pkg" / "flow.py").write_bytes(text.encode("latin-1"))
    done = flake8("--isolated", "--select", "STP", "pkg/flow.py", cwd=tmp_path)
    assert done.stdout.splitlines() == steplint_text("pkg/flow.py", cwd=tmp_path)
    assert positions(done.stdout.splitlines()) == {("pkg/flow.py", 9, 25, "STP001")}


def test_readme_config_enables_the_plugin(tmp_path):
    make_project(tmp_path)
    config = snippet("flake8", "ini")
    parsed = configparser.ConfigParser()
    parsed.read_string(config)
    assert parsed["flake8"]["extend-select"] == "STP"
    (tmp_path / ".flake8").write_text(config)
    done = flake8("pkg", cwd=tmp_path)
    codes = {place[3] for place in positions(done.stdout.splitlines())}
    assert {FLOW_FINDING, STEPS_FINDING} <= positions(done.stdout.splitlines()) and codes == {"STP001"}


def test_bad_configuration_is_flake8s_one_line_plugin_error(tmp_path):
    make_project(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.steplint]\nselekt = ['STP']\n")
    done = flake8("--isolated", "--select", "STP", "pkg/flow.py", cwd=tmp_path)
    assert done.returncode != 0
    assert "unknown key 'selekt' in [tool.steplint]" in done.stdout.splitlines()[0]
    assert "Traceback" not in done.stdout + done.stderr
