"""The baseline: the same checkpoints replayed against the code that wrote them, in a process of its own.

Both versions use the same module names, so they cannot share a process: the
baseline process has the baseline folder first on sys.path (and as its
working folder), imports the target there, observes each checkpoint and
prints the observations as JSON. When the checking process has the runtime
shim installed, the baseline process installs it in the same mode (its keys
are the ones the checkpoints hold).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from steplint.replay.observation import Observation, observe
from steplint.replay.target import TargetError, load_target

BASELINE_TIMEOUT_SECONDS = 300


class BaselineError(Exception):
    """The baseline could not be replayed at all (it does not import, or its process failed)."""


def observe_baseline(folder: Path, spec: str, storage_folder: Path, checkpoint_ids: list[str]) -> dict[str, Observation]:
    """Each checkpoint's observation under the baseline code, by checkpoint id."""
    command = [sys.executable, "-m", "steplint.replay.baseline", spec, str(storage_folder.resolve()), *checkpoint_ids]
    environment = dict(os.environ)
    mode = _shim_mode()
    if mode:  # the checkpoints were written with the shim's keys: the baseline replays with them too
        environment[SHIM_VARIABLE] = mode
    completed = subprocess.run(
        command, cwd=folder, capture_output=True, text=True, timeout=BASELINE_TIMEOUT_SECONDS, check=False,
        env=environment,
    )
    if completed.returncode != 0:
        last_line = (completed.stderr.strip().splitlines() or ["no output"])[-1]
        raise BaselineError(f"baseline {folder}: {last_line}")
    observations = [Observation.from_json(item) for item in json.loads(completed.stdout)]
    return {observation.checkpoint_id: observation for observation in observations}


SHIM_VARIABLE = "STEPLINT_REPLAY_SHIM_MODE"


def _shim_mode() -> str | None:
    """The runtime shim's mode when this process has it installed (never imports the shim otherwise)."""
    shim = sys.modules.get("steplint.runtime_shim")
    return shim.installed_mode() if shim is not None else None


def _main(arguments: list[str]) -> int:
    from agent_framework import FileCheckpointStorage

    if os.environ.get(SHIM_VARIABLE):
        from steplint import runtime_shim

        runtime_shim.install(mode=os.environ[SHIM_VARIABLE])

    spec, storage_folder, *checkpoint_ids = arguments
    try:
        definition = load_target(spec, Path.cwd())
    except TargetError as error:
        print(error, file=sys.stderr)
        return 2
    storage = FileCheckpointStorage(storage_folder)
    answer, sys.stdout = sys.stdout, sys.stderr  # what the workflow body prints must not mix with the answer
    try:
        observations = [_observed(definition, storage, checkpoint_id).to_json() for checkpoint_id in checkpoint_ids]
    finally:
        sys.stdout = answer
    print(json.dumps(observations))
    return 0


def _observed(definition: object, storage: object, checkpoint_id: str) -> Observation:
    """The baseline's replay; re-stamped when MAF refuses it (the checkpoint was written under another release)."""
    observation = observe(definition, storage, checkpoint_id)
    if observation.outcome == "refused":
        restamped = observe(definition, storage, checkpoint_id, restamp=True)
        if restamped.outcome == "resumed":
            return restamped
    return observation


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
