"""Real crashes for the runtime shim: processes SIGKILLed at chosen points, resumed by new processes.

    python shim_kill_driver.py first|resume PLAN_JSON

The plan lists kill scenarios (see ``KillScenario``). ``first`` forks one child
per scenario that runs a tree workflow (shim_trees) with a
FileCheckpointStorage and SIGKILLs itself at the scenario's kill point;
``resume`` must be a *new* driver process, started after the first one has
exited: it forks one child per scenario that resumes from the latest complete
checkpoint on disk. The driver itself never runs a workflow, so every child
starts from a freshly imported MAF, and the resuming children share nothing
with the killed ones but the files. Each child writes what it saw to
``<scenario dir>/<phase>.json``; the tests judge it.

Kill points:

* ``body PATH before|after``: inside the step body at PATH (a nested step when
  PATH has two or more parts), before its children run or after they returned;
* ``save N``: on entering the N-th ``FileCheckpointStorage.save``, i.e. after a
  step's body completed and MAF cached it, before anything of its checkpoint
  was written;
* ``write N``: halfway through writing the N-th checkpoint's JSON to its
  temporary file (the half is flushed and fsynced first, so the torn file is
  really on disk);
* ``replace N``: with the N-th checkpoint's temporary file complete, just
  before MAF's ``os.replace`` moves it into place;
* ``replaced N``: just after that ``os.replace``, before ``save`` returns.

The hooks are instrumentation of the crash point only: each calls straight
through to the real function except at the one call where it kills the process.
Every completed step body is journaled (one line per completion, fsynced) so
the tests can check that no checkpointed body ever runs again.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import agent_framework as maf  # noqa: E402
import shim_trees  # noqa: E402
from shim_support import chain  # noqa: E402
from shim_trees import Node, Scenario  # noqa: E402

from steplint import runtime_shim  # noqa: E402

N = Node
TREES: dict[str, tuple[Node, ...]] = {
    # Nesting three deep, and the nested (step, label) pairs also called at top level,
    # so call-order keys of nested and top-level calls would collide without the shim.
    # Completion order (save number): 0.0, 0.1.0, 0.1, 0, 1, 2.0, 2.1.0, 2.1, 2; then the final save.
    "nested": (
        N("alpha", "a", (N("beta", "a"), N("gamma", "b", (N("beta", "a"),)))),
        N("beta", "a"),
        N("alpha", "a", (N("beta", "a"), N("gamma", "b", (N("beta", "a"),)))),
    ),
    # No nesting: what every mode, and MAF alone, must resume identically.
    # Completion order (save number): 0, 1, 2, 3, 4; then the final save.
    "flat": (N("alpha", "a"), N("beta", "a"), N("alpha", "a"), N("gamma", "b"), N("alpha", "b")),
}
STORAGE_KILLS = ("save", "write", "replace", "replaced")
JOURNAL = "journal.txt"
CHECKPOINTS = "checkpoints"


@dataclass(frozen=True)
class KillScenario:
    """One workflow run killed at one point. ``kill`` is None for an uninterrupted run."""

    name: str
    mode: str  # "none" (MAF alone), "flat" or "scoped"
    tree: str  # a key of TREES
    kind: str  # "model" or "str" step arguments
    kill: tuple[Any, ...] | None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> KillScenario:
        kill = data["kill"]
        return cls(**{**data, "kill": None if kill is None else tuple(kill)})


@dataclass
class JournaledScenario(Scenario):
    """A shim_trees scenario that SIGKILLs instead of raising, and journals completions to disk."""

    journal: Path | None = None
    role: str = ""
    kill_in_body: tuple[Any, ...] | None = field(default=None)

    def checkpoint(self, path: tuple[int, ...], phase: str) -> None:
        if self.kill_in_body == (path, phase):
            die()

    def complete(self, path: tuple[int, ...]) -> None:
        assert self.journal is not None
        line = f"{self.role} {'.'.join(map(str, path))}\n".encode()
        descriptor = os.open(self.journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(descriptor, line)
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        super().complete(path)


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def parse_path(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".")) if text else ()


def is_checkpoint_document(value: Any) -> bool:
    return isinstance(value, dict) and "checkpoint_id" in value and "state" in value


def arm_storage_kill(point: str, number: int, directory: Path) -> None:
    """Patch the one call the storage makes at *point* so that its *number*-th occurrence kills us."""
    occurrences = itertools.count(1)
    if point == "save":
        real_save = maf.FileCheckpointStorage.save

        async def save(self: Any, checkpoint: Any) -> Any:
            if next(occurrences) == number:
                die()
            return await real_save(self, checkpoint)

        maf.FileCheckpointStorage.save = save  # type: ignore[method-assign]
    elif point == "write":
        real_dump = json.dump

        def dump(value: Any, stream: Any, **options: Any) -> None:
            if is_checkpoint_document(value) and next(occurrences) == number:
                text = json.dumps(value, **options)
                stream.write(text[: len(text) // 2])
                stream.flush()
                os.fsync(stream.fileno())
                die()
            real_dump(value, stream, **options)

        json.dump = dump
    else:
        real_replace = os.replace
        checkpoints = str(directory.resolve())

        def replace(source: Any, destination: Any, *args: Any, **kwargs: Any) -> None:
            ours = str(destination).endswith(".json") and str(Path(destination).resolve().parent) == checkpoints
            hit = ours and next(occurrences) == number
            if hit and point == "replace":
                die()
            real_replace(source, destination, *args, **kwargs)
            if hit:
                die()

        os.replace = replace


def cached_paths(checkpoint: Any) -> list[str]:
    """Tree positions whose results a checkpoint holds (each body's result names its position)."""
    values = checkpoint.state.get("_step_cache", {}).values()
    return sorted(value.split("@", 1)[1].split("[", 1)[0] for value in values if isinstance(value, str))


async def first_run(scenario: KillScenario, directory: Path) -> dict[str, Any]:
    roots = TREES[scenario.tree]
    kill_in_body = None
    if scenario.kill is not None:
        point, *where = scenario.kill
        if point == "body":
            kill_in_body = (parse_path(where[0]), where[1])
        else:
            arm_storage_kill(point, int(where[0]), directory / CHECKPOINTS)
    shim_trees.SCENARIO = JournaledScenario(
        roots, scenario.kind, journal=directory / JOURNAL, role="first", kill_in_body=kill_in_body
    )
    storage = maf.FileCheckpointStorage(str(directory / CHECKPOINTS))
    result = await shim_trees.tree.build(checkpoint_storage=storage).run("go")
    return {"output": result.get_outputs()}


async def resume(scenario: KillScenario, directory: Path) -> dict[str, Any]:
    roots = TREES[scenario.tree]
    shim_trees.SCENARIO = JournaledScenario(roots, scenario.kind, journal=directory / JOURNAL, role="resume")
    storage = maf.FileCheckpointStorage(str(directory / CHECKPOINTS))
    checkpoints = await chain(storage, "tree")
    workflow = shim_trees.tree.build(checkpoint_storage=storage)
    seen: dict[str, Any] = {"checkpoints": len(checkpoints), "checkpointed": []}
    try:
        if checkpoints:
            seen["checkpointed"] = cached_paths(checkpoints[-1])
            result = await workflow.run(checkpoint_id=checkpoints[-1].checkpoint_id)
        else:
            result = await workflow.run("go")
        seen["output"] = result.get_outputs()
    except Exception as exc:  # reported to the test, which decides
        seen["error"] = f"{type(exc).__name__}: {exc}"
    return seen


PHASES = {"first": first_run, "resume": resume}


def run_child(phase: str, scenario: KillScenario, directory: Path) -> None:
    """Body of a forked child: never returns."""
    status = 1
    try:
        if scenario.mode != "none":
            runtime_shim.install(mode=scenario.mode)
        seen = asyncio.run(PHASES[phase](scenario, directory))
        (directory / f"{phase}.json").write_text(json.dumps(seen))
        status = 0
    except BaseException as exc:  # the test sees the file, whatever happened
        (directory / f"{phase}.json").write_text(json.dumps({"crashed": f"{type(exc).__name__}: {exc}"}))
    finally:
        os._exit(status)


def drive(phase: str, plan: dict[str, Any]) -> None:
    base = Path(plan["directory"])
    for data in plan["scenarios"]:
        scenario = KillScenario.from_dict(data)
        directory = base / scenario.name
        directory.mkdir(parents=True, exist_ok=True)
        sys.stdout.flush()
        sys.stderr.flush()
        child = os.fork()
        if child == 0:
            run_child(phase, scenario, directory)
        _, status = os.waitpid(child, 0)
        outcome = {"signal": os.WTERMSIG(status)} if os.WIFSIGNALED(status) else {"exit": os.WEXITSTATUS(status)}
        (directory / f"{phase}.status.json").write_text(json.dumps(outcome))


def plan_for(directory: Path, scenarios: list[KillScenario]) -> dict[str, Any]:
    return {"directory": str(directory), "scenarios": [asdict(scenario) for scenario in scenarios]}


if __name__ == "__main__":
    drive(sys.argv[1], json.loads(Path(sys.argv[2]).read_text()))
