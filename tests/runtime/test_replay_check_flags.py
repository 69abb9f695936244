"""Issue 30: replay-check's exit rules (--allow-stale, --strict), --baseline-ref, and the sarif and github formats.

On the suite's workflow (tests/runtime/replay_suite.py), with verdicts the
table-driven suite proves by real resumes (test_replay_edits.EXPECTED).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from replay_suite import MODULES, TARGET, crashed_run, write_code
from test_replay_edits import EXPECTED, FINGERPRINTS, FULL_TABLE_RELEASES, VERSION

pytestmark = [
    pytest.mark.runtime,
    pytest.mark.skipif(VERSION not in FULL_TABLE_RELEASES, reason="runs where the full table runs (CI time)"),
]
click_testing = pytest.importorskip("click.testing", reason="the command line needs steplint's own dependencies")


def replay_check(*arguments: str) -> tuple[int, str, str]:
    from steplint.frontends.cli import cli

    for name in MODULES:
        sys.modules.pop(name, None)
    result = click_testing.CliRunner().invoke(cli, ["replay-check", TARGET, *arguments], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def git(folder: Path, *arguments: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *arguments], cwd=folder, check=True,
                          capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository whose HEAD wrote tmp_path/checkpoints (crashed in its 11th call); the current folder."""
    code = tmp_path / "repo"
    code.mkdir()
    write_code(code)
    git(code, "init", "-q")
    git(code, "add", ".")
    git(code, "commit", "-qm", "original")
    (tmp_path / "log").mkdir()
    monkeypatch.setenv("STEPLINT_SUITE_LOG", str(tmp_path / "log" / "steps.txt"))
    crashed_run(code, tmp_path / "checkpoints", tmp_path / "log" / "steps.txt")
    monkeypatch.chdir(code)
    return code


def deploy(repo: Path, edit: str) -> None:
    write_code(repo, edit)


@pytest.mark.parametrize(("edit", "flag"), [("a module constant read inside a step", "--allow-stale"),
                                            ("a module constant passed to a step", "--strict")])
def test_exit_rules(repo: Path, edit: str, flag: str) -> None:
    deploy(repo, edit)
    expected = EXPECTED[edit][FINGERPRINTS]
    common = ("--checkpoints", str(repo.parent / "checkpoints"), "--baseline-ref", "HEAD", "--latest")
    code, out, err = replay_check(*common)
    assert out.splitlines()[0].split(": ")[1] == expected.split(",")[0], out
    plain = 0 if expected in ("ok", "ok, live") else 1
    assert code == plain, out + err
    code_with_flag, out, _ = replay_check(*common, flag)
    if flag == "--allow-stale":
        assert expected == "stale" and code_with_flag == 0
    else:
        assert code_with_flag == (1 if expected in ("ok, live", "wrong") else plain), out
        assert ("warning: " in out) == (expected == "ok, live")


def test_baseline_ref_checks_out_and_removes_a_worktree(repo: Path) -> None:
    edit = "reorder in a helper called as module.func()"
    deploy(repo, edit)
    code, out, _ = replay_check("--checkpoints", str(repo.parent / "checkpoints"), "--baseline-ref", "HEAD",
                                "--latest", "--format", "json")
    [verdict] = json.loads(out)
    assert verdict["verdict"] == EXPECTED[edit][FINGERPRINTS]
    assert code == (0 if verdict["verdict"] == "ok" else 1)
    assert len(git(repo, "worktree", "list").splitlines()) == 1


def test_bad_baseline_ref_is_one_line(repo: Path) -> None:
    code, out, err = replay_check("--checkpoints", str(repo.parent / "checkpoints"), "--baseline-ref", "no-such-rev")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [f"steplint: error: --baseline-ref no-such-rev is not a revision of {repo}"]
    assert len(git(repo, "worktree", "list").splitlines()) == 1


def test_sarif_and_github_point_at_the_workflow(repo: Path) -> None:
    deploy(repo, "a module constant read inside a step")  # stale on every release
    common = ("--checkpoints", str(repo.parent / "checkpoints"), "--baseline-ref", "HEAD", "--latest")
    line = 1 + (repo / "sfflow.py").read_text().splitlines().index("@maf.workflow")
    _, out, _ = replay_check(*common, "--format", "sarif")
    [result] = json.loads(out)["runs"][0]["results"]
    assert (result["ruleId"], result["level"], result["properties"]["verdict"]) == ("stale", "warning", "stale")
    physical = result["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"] == {"uri": "sfflow.py", "uriBaseId": "%SRCROOT%"}
    assert physical["region"]["startLine"] in (line, line + 1)  # the decorator's line or the def's, by Python
    _, out, _ = replay_check(*common, "--format", "github")
    [annotation] = out.splitlines()
    assert annotation.startswith(f"::warning title=steplint replay-check (stale),file=sfflow.py,line={physical['region']['startLine']}::")
