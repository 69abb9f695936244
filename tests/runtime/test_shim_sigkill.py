"""Real crashes: processes SIGKILLed at many points, resumed from disk by new processes.

Kill points (shim_kill_driver.py has the details): inside nested step bodies;
between a step's completion and its checkpoint write; halfway through writing
a checkpoint file; with the temporary file complete but not yet renamed; and
just after the rename. Scoped mode runs a tree of nested steps; flat mode,
scoped mode and MAF alone run a flat tree. Every resume must give the
uninterrupted run's output, every step body must have completed, and no body
whose result was in the checkpoint resumed from may run again.

The first runs and the resumes happen in two separate driver processes, each a
fresh interpreter that forks one child per scenario.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import agent_framework as maf
import pytest
import shim_trees
from shim_kill_driver import CHECKPOINTS, JOURNAL, TREES, KillScenario, plan_for
from shim_support import ARG_KINDS, HAS_FINGERPRINTS, latest, run
from shim_trees import Scenario, crash_first_run, expected_output, tree, walk

from steplint import runtime_shim

pytestmark = [pytest.mark.runtime, pytest.mark.skipif(sys.platform == "win32", reason="needs fork and SIGKILL")]

DRIVER = Path(__file__).with_name("shim_kill_driver.py")

# (kill point, how many checkpoints are complete on disk when it strikes)
NESTED_KILLS: list[tuple[tuple[Any, ...], int]] = [
    (("body", "0.1.0", "before"), 1),  # three deep, before its body did anything
    (("body", "2.0", "before"), 5),  # nested, after a top-level call of the same step and label
    (("body", "2.1", "after"), 7),  # nested, after its own nested child was checkpointed
    (("save", 2), 1),  # beta at 0.1.0 completed and cached, its checkpoint not begun
    (("save", 4), 3),  # the outer alpha at 0 completed, not checkpointed
    (("save", 7), 6),  # beta at 2.1.0 completed, not checkpointed
    (("write", 3), 2),  # torn temporary file of gamma at 0.1's checkpoint
    (("write", 10), 9),  # torn temporary file of the final checkpoint
    (("replace", 5), 4),  # complete temporary file, never renamed
    (("replaced", 8), 8),  # renamed, then killed before save returned
]
FLAT_KILLS: list[tuple[tuple[Any, ...], int]] = [
    (("body", "3", "before"), 3),
    (("save", 2), 1),
    (("write", 3), 2),
    (("replace", 4), 3),
    (("replaced", 6), 6),  # the final checkpoint
]
KILLS = {"nested": NESTED_KILLS, "flat": FLAT_KILLS}
# Where the shim promises an exact resume: scoped mode on nesting; every mode without it.
PROMISED = [("scoped", "nested"), ("scoped", "flat"), ("flat", "flat"), ("none", "flat")]
KILL_POINTS = [
    (mode, shape, kind, kill, complete)
    for mode, shape in PROMISED
    for kind in ARG_KINDS
    for kill, complete in KILLS[shape]
]
MAF_ALONE_NESTED = [("none", "nested", kind, kill, complete) for kind in ARG_KINDS for kill, complete in NESTED_KILLS]


def scenario_name(mode: str, shape: str, kind: str, kill: tuple[Any, ...] | None) -> str:
    where = "uninterrupted" if kill is None else "-".join(map(str, kill))
    return f"{mode}-{shape}-{kind}-{where}"


def scenario_of(mode: str, shape: str, kind: str, kill: tuple[Any, ...] | None) -> KillScenario:
    return KillScenario(scenario_name(mode, shape, kind, kill), mode, shape, kind, kill)


def run_driver(phase: str, directory: Path, scenarios: list[KillScenario]) -> None:
    plan = directory / f"{phase}-plan.json"
    plan.write_text(json.dumps(plan_for(directory, scenarios)))
    completed = subprocess.run(
        [sys.executable, str(DRIVER), phase, str(plan)], capture_output=True, text=True, timeout=600, check=False
    )
    assert completed.returncode == 0, completed.stderr[-4000:]


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run every kill scenario's first run in one driver process, then every resume in another.

    Once per session: pytest-xdist workers share the session's temporary root,
    and the first worker to get there runs the drivers while the other waits.
    """
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    directory = root / "sigkill-scenarios"
    with open(root / "sigkill-scenarios.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (directory / "done").exists():
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir()
            kills = [scenario_of(*point[:4]) for point in KILL_POINTS + MAF_ALONE_NESTED]
            uninterrupted = [scenario_of(mode, shape, kind, None) for mode, shape in PROMISED for kind in ARG_KINDS]
            run_driver("first", directory, kills + uninterrupted)
            run_driver("resume", directory, kills)
            (directory / "done").touch()
    return directory


def read(directory: Path, name: str) -> dict[str, Any]:
    return json.loads((directory / name).read_text())


class Observed:
    """What the two processes of one scenario left on disk."""

    def __init__(self, base: Path, scenario: KillScenario) -> None:
        self.directory = base / scenario.name
        self.first_status = read(self.directory, "first.status.json")
        self.resume_status = read(self.directory, "resume.status.json")
        self.resumed = read(self.directory, "resume.json")
        journal = self.directory / JOURNAL
        lines = [line.split(" ") for line in (journal.read_text().splitlines() if journal.exists() else [])]
        # role -> how many times each tree position's body completed in that process
        self.completions = {
            role: Counter(path for who, path in lines if who == role) for role in ("first", "resume")
        }
        checkpoints = self.directory / CHECKPOINTS
        self.temporary_files = [path for path in checkpoints.iterdir() if not path.name.endswith(".json")]


def all_paths(shape: str) -> set[str]:
    return {".".join(map(str, path)) for path, _ in walk(TREES[shape])}


@pytest.mark.parametrize(("mode", "shape", "kind", "kill", "complete"), KILL_POINTS, ids=lambda value: str(value))
def test_resume_after_sigkill_equals_the_uninterrupted_run(
    killed: Path, mode: str, shape: str, kind: str, kill: tuple[Any, ...], complete: int
) -> None:
    observed = Observed(killed, scenario_of(mode, shape, kind, kill))
    assert observed.first_status == {"signal": signal.SIGKILL}, "the kill point was never reached"
    assert observed.resume_status == {"exit": 0}, observed.resumed
    resumed = observed.resumed
    assert resumed.get("error") is None, resumed["error"]
    assert resumed["output"] == expected_output(TREES[shape])
    uninterrupted = read(killed / scenario_name(mode, shape, kind, None), "first.json")
    assert resumed["output"] == uninterrupted["output"]
    # The kill struck where intended: exactly this many checkpoints made it to disk whole.
    assert resumed["checkpoints"] == complete

    first, again = observed.completions["first"], observed.completions["resume"]
    checkpointed = set(resumed["checkpointed"])
    assert max(first.values(), default=1) == 1 and max(again.values(), default=1) == 1
    assert not checkpointed & set(again), "a checkpointed step body ran again"
    assert checkpointed <= set(first)
    # Everything not checkpointed runs (again) on resume, so every body completes.
    assert set(again) == all_paths(shape) - checkpointed


@pytest.mark.parametrize("shape", sorted(KILLS))
def test_torn_writes_leave_only_temporary_files(killed: Path, shape: str) -> None:
    """MAF writes a checkpoint to a temporary file and renames it: a kill mid-write tears only that file."""
    for kind in ARG_KINDS:
        for kill, _ in KILLS[shape]:
            if kill[0] not in ("write", "replace"):
                continue
            observed = Observed(killed, scenario_of("scoped", shape, kind, kill))
            assert len(observed.temporary_files) == 1, observed.temporary_files
            text = observed.temporary_files[0].read_text(encoding="utf-8")
            if kill[0] == "write":
                with pytest.raises(json.JSONDecodeError):
                    json.loads(text)
            else:
                assert json.loads(text)["workflow_name"] == "tree"


def test_the_kill_points_catch_maf_alone_on_nested_steps(killed: Path) -> None:
    """Without the shim the same kills resume nested trees wrongly where keys are call-order."""
    wrong: dict[str, int] = Counter()
    for mode, shape, kind, kill, _ in MAF_ALONE_NESTED:
        observed = Observed(killed, scenario_of(mode, shape, kind, kill))
        assert observed.first_status == {"signal": signal.SIGKILL}
        outcome = observed.resumed
        ran_again = set(outcome["checkpointed"]) & set(observed.completions["resume"])
        wrong[kind] += outcome.get("output") != expected_output(TREES[shape]) or bool(ran_again)
    assert wrong["model"] > 0
    if not HAS_FINGERPRINTS:
        assert wrong["str"] > 0


def test_a_torn_checkpoint_file_fails_loudly_and_the_previous_one_resumes(tmp_path: Path) -> None:
    """MAF never leaves a torn checkpoint file, but storage can (a copy, a power loss without fsync).

    Loading a torn file raises MAF's error before any step body runs (1.18:
    the JSONDecodeError itself; later releases wrap it in
    WorkflowCheckpointException). Listing skips the torn file, so the latest
    complete checkpoint resumes, to the right output.
    """
    runtime_shim.install(mode="scoped")
    roots = TREES["nested"]
    storage = maf.FileCheckpointStorage(str(tmp_path))
    run(crash_first_run(roots, "str", ((2, 1), "after"), storage))
    newest = run(latest(storage, "tree"))
    torn = tmp_path / f"{newest.checkpoint_id}.json"
    torn.write_bytes(torn.read_bytes()[: torn.stat().st_size // 2])

    shim_trees.SCENARIO = scenario = Scenario(roots, "str")
    with pytest.raises((maf.WorkflowCheckpointException, json.JSONDecodeError)):
        run(tree.build(checkpoint_storage=storage).run(checkpoint_id=newest.checkpoint_id))
    assert scenario.completions == []
    previous = run(latest(storage, "tree"))
    assert previous.checkpoint_id == newest.previous_checkpoint_id
    result = run(tree.build(checkpoint_storage=storage).run(checkpoint_id=previous.checkpoint_id))
    assert result.get_outputs() == expected_output(roots)
    # 2.1.0's checkpoint was the torn one: it and its parents run again, nothing else.
    assert scenario.completions == [(2, 1, 0), (2, 1), (2,)]
