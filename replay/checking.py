"""check_checkpoints: every saved checkpoint of a workflow, replayed against new code (and the code that wrote it)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from steplint.replay.baseline import BaselineError, observe_baseline
from steplint.replay.observation import Observation, observe
from steplint.replay.read_only import SavedCheckpoint, latest_of_each_run, saved_checkpoints
from steplint.replay.target import spec_of
from steplint.replay.verdicts import Verdict, judge


class CheckpointsError(Exception):
    """The checkpoints cannot be listed at all (a missing folder): one line."""


def check_checkpoints(
    workflow_definition: Any,
    storage_or_folder: Any,
    *,
    baseline: str | Path | None = None,
    target: str | None = None,
    baseline_target: str | None = None,
    latest: bool = False,
) -> list[Verdict]:
    """A verdict for each checkpoint of *workflow_definition*'s workflow in a storage or a FileCheckpointStorage folder.

    *baseline* is a folder holding the code that wrote the checkpoints (it needs a folder of checkpoints);
    *target* names the workflow as ``module:attribute`` (default: the definition's own module and name), and
    *baseline_target* names it in the baseline (default: *target*; another when the module was renamed).
    Nothing is written to the storage and no step body runs.
    """
    storage, folder, saved = _checkpoints_of(workflow_definition, storage_or_folder)
    if latest:
        saved = latest_of_each_run(saved)
    readable = [checkpoint for checkpoint in saved if checkpoint.problem is None]
    baseline_seen, baseline_problem = _baseline_observations(baseline, baseline_target or target, workflow_definition, folder, readable)
    verdicts = []
    for checkpoint in saved:
        if checkpoint.problem is not None:
            verdicts.append(Verdict(checkpoint.checkpoint_id, checkpoint.workflow, "unreadable", checkpoint.problem))
            continue
        verdicts.append(_judged(workflow_definition, storage, checkpoint, baseline_seen, baseline_problem))
    return verdicts


def _judged(definition: Any, storage: Any, checkpoint: SavedCheckpoint, baseline_seen: dict[str, Observation],
            baseline_problem: str) -> Verdict:
    new = observe(definition, storage, checkpoint.checkpoint_id)
    new.workflow = new.workflow or checkpoint.workflow
    old = baseline_seen.get(checkpoint.checkpoint_id)
    restamped = None
    if new.outcome == "refused" and old is not None:
        restamped = observe(definition, storage, checkpoint.checkpoint_id, restamp=True)
    verdict = judge(new, old, restamped, baseline_problem)
    if baseline_problem and verdict.verdict != "unjudged":
        verdict.reason += f" ({baseline_problem})"
    return verdict


def _checkpoints_of(definition: Any, storage_or_folder: Any) -> tuple[Any, Path | None, list[SavedCheckpoint]]:
    name = getattr(definition, "name", None)
    if isinstance(storage_or_folder, (str, Path)):
        folder = Path(storage_or_folder)
        if not folder.is_dir():
            raise CheckpointsError(f"checkpoint folder {folder} does not exist")
        from agent_framework import FileCheckpointStorage

        saved = [c for c in saved_checkpoints(folder) if c.workflow in (None, name)]
        return FileCheckpointStorage(str(folder)), folder, saved
    ids = asyncio.run(storage_or_folder.list_checkpoint_ids(workflow_name=name))
    return storage_or_folder, None, [SavedCheckpoint(i, name, "", None) for i in ids]


def _baseline_observations(
    baseline: str | Path | None, target: str | None, definition: Any, folder: Path | None, saved: list[SavedCheckpoint]
) -> tuple[dict[str, Observation], str]:
    if baseline is None or not saved:
        return {}, ""
    if folder is None:
        return {}, "the baseline needs a checkpoint folder; not compared"
    try:
        return observe_baseline(Path(baseline), target or spec_of(definition), folder, [c.checkpoint_id for c in saved]), ""
    except BaselineError as error:
        return {}, f"{error}; not compared"
