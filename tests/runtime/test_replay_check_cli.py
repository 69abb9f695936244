"""Issue 30: the `steplint replay-check` command: JSON verdicts, exit status, one line per bad input."""

from __future__ import annotations

import json
from pathlib import Path

import agent_framework as maf
import pytest
from test_replay_check import EDITS, FINGERPRINTS, MODULE, SOURCE, imported, run

pytestmark = pytest.mark.runtime
click_testing = pytest.importorskip("click.testing", reason="the command line needs steplint's own dependencies")


def replay_check(*arguments: str) -> tuple[int, str, str]:
    from steplint.frontends.cli import cli

    result = click_testing.CliRunner().invoke(cli, ["replay-check", *arguments], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path/old and tmp_path/new (the literal edit, the current folder), an empty tmp_path/checkpoints."""
    for folder, text in (("old", SOURCE), ("new", EDITS["literal"](SOURCE))):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / f"{MODULE}.py").write_text(text)
    (tmp_path / "checkpoints").mkdir()
    monkeypatch.setenv("STEPLINT_REPLAY_LOG", str(tmp_path / "steps.txt"))
    monkeypatch.chdir(tmp_path / "new")
    return tmp_path


@pytest.fixture
def crashed(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The old code wrote its checkpoints and crashed in c."""
    tmp_path = workspace
    (tmp_path / "crash").touch()
    with pytest.raises(Exception, match="crash"):
        run(imported(tmp_path / "old").pipeline, message=1, checkpoint_storage=maf.FileCheckpointStorage(str(tmp_path / "checkpoints")))
    monkeypatch.delitem(__import__("sys").modules, MODULE)
    return tmp_path


def test_json_verdicts_and_a_corrupt_file(crashed: Path) -> None:
    (crashed / "checkpoints" / "broken.json").write_text("{not json")
    code, out, err = replay_check(f"{MODULE}:pipeline", "--checkpoints", str(crashed / "checkpoints"),
                                  "--baseline", str(crashed / "old"), "--format", "json")
    verdicts = json.loads(out)
    assert code == 1
    assert set(verdicts[0]) == {"checkpoint_id", "workflow", "verdict", "reason", "false_refusal",
                               "false_refusal_unjudged", "first_divergence", "warnings"}
    by_id = {v["checkpoint_id"]: v for v in verdicts}
    assert by_id.pop("broken")["verdict"] == "unreadable"
    # three checkpoints: after a(1), a(2), b(11); only the last holds b's entry, which b(21) takes on 1.18/1.19
    verdicts = sorted(by_id.values(), key=lambda v: v["verdict"])
    expected = ["refused"] * 3 if FINGERPRINTS else ["ok", "ok", "wrong"]
    assert [v["verdict"] for v in verdicts] == expected
    if not FINGERPRINTS:
        assert verdicts[-1]["first_divergence"]["served_to"] == "b(21)"


def test_latest_text_output(crashed: Path) -> None:
    code, out, _ = replay_check(f"{MODULE}:pipeline", "--checkpoints", str(crashed / "checkpoints"), "--latest")
    assert code == (1 if FINGERPRINTS else 0)
    assert out.splitlines()[-1] == ("1 checkpoint(s): 1 refused" if FINGERPRINTS else "1 checkpoint(s): 1 ok")


@pytest.mark.parametrize(
    ("target", "folder", "message"),
    [
        (f"{MODULE}:pipeline", "missing", "missing does not exist"),
        ("nosuchmodule:pipeline", "checkpoints", "cannot import nosuchmodule"),
        (f"{MODULE}:note", "checkpoints", f"{MODULE}:note is a function, not a @workflow definition"),
        ("pipeline", "checkpoints", "is not module:attribute"),
    ],
)
def test_bad_input_is_one_line(workspace: Path, target: str, folder: str, message: str) -> None:
    code, out, err = replay_check(target, "--checkpoints", str(workspace / folder))
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_restamp_writes_only_proven_false_refusals(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reorder is refused needlessly on 1.20+: --restamp re-stamps it (after a backup) and MAF then resumes it."""
    (workspace / "new" / f"{MODULE}.py").write_text(EDITS["reorder"](SOURCE))
    (workspace / "crash").touch()
    storage = workspace / "checkpoints"
    with pytest.raises(Exception, match="crash"):
        run(imported(workspace / "old").pipeline, message=1, checkpoint_storage=maf.FileCheckpointStorage(str(storage)))
    (workspace / "crash").unlink()
    monkeypatch.delitem(__import__("sys").modules, MODULE)
    before = {path.name: path.read_bytes() for path in storage.iterdir()}
    code, out, err = replay_check(f"{MODULE}:pipeline", "--checkpoints", str(storage), "--baseline",
                                  str(workspace / "old"), "--format", "json", "--restamp")
    verdicts = json.loads(out)
    changed = {name for name, data in before.items() if (storage / name).read_bytes() != data}
    proven = {f"{v['checkpoint_id']}.json" for v in verdicts if v["false_refusal"]}
    assert changed == proven
    assert bool(proven) == FINGERPRINTS
    if proven:
        [backup] = workspace.glob("checkpoints.steplint-backup-*")
        assert {path.name for path in backup.iterdir()} == proven
        definition = imported(workspace / "new").pipeline
        for name in proven:  # MAF resumes it now
            run(definition, checkpoint_id=name.removesuffix(".json"), checkpoint_storage=maf.FileCheckpointStorage(str(storage)))
