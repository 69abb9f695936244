"""A checkpoint storage that MAF can read from and never writes through.

MAF saves a checkpoint when a replayed run finishes or pauses without a live
call; here the save is answered with the checkpoint's id and dropped. With
``stamp`` set, a loaded checkpoint carries that signature hash instead of its
own, in memory only: the replay that tells whether a refusal was needless.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class ReadOnlyStorage:
    """Reads through to *inner*; ``save`` and ``delete`` change nothing."""

    def __init__(self, inner: Any, stamp: Callable[[], str] | None = None) -> None:
        self._inner = inner
        self._stamp = stamp
        self.load_error: BaseException | None = None
        self.loaded: Any = None

    async def load(self, checkpoint_id: str) -> Any:
        try:
            checkpoint = await self._inner.load(checkpoint_id)
        except Exception as error:
            self.load_error = error
            raise
        if self._stamp is not None:
            checkpoint = dataclasses.replace(checkpoint, graph_signature_hash=self._stamp())
        self.loaded = checkpoint
        return checkpoint

    async def save(self, checkpoint: Any) -> str:
        return checkpoint.checkpoint_id

    async def delete(self, checkpoint_id: str) -> bool:
        return False

    async def list_checkpoints(self, *, workflow_name: str) -> list[Any]:
        return await self._inner.list_checkpoints(workflow_name=workflow_name)

    async def list_checkpoint_ids(self, *, workflow_name: str) -> list[str]:
        return await self._inner.list_checkpoint_ids(workflow_name=workflow_name)

    async def get_latest(self, *, workflow_name: str) -> Any:
        return await self._inner.get_latest(workflow_name=workflow_name)


@dataclass(frozen=True)
class SavedCheckpoint:
    """A checkpoint file's header, read as plain JSON (no decoding of values): enough to list and order it."""

    checkpoint_id: str
    workflow: str | None
    timestamp: str
    previous: str | None
    problem: str | None = None


def saved_checkpoints(folder: Path) -> list[SavedCheckpoint]:
    """The checkpoints of a FileCheckpointStorage folder, oldest first; a file that is not JSON says so."""
    found = [_header(path) for path in sorted(folder.glob("*.json"))]
    return sorted(found, key=lambda saved: (saved.timestamp, saved.checkpoint_id))


def _header(path: Path) -> SavedCheckpoint:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        return SavedCheckpoint(path.stem, None, "", None, problem=f"{path.name} is not a readable JSON file ({error})")
    if not isinstance(data, dict):
        return SavedCheckpoint(path.stem, None, "", None, problem=f"{path.name} holds no checkpoint object")
    name = data.get("workflow_name")
    previous = data.get("previous_checkpoint_id")
    return SavedCheckpoint(
        str(data.get("checkpoint_id") or path.stem),
        name if isinstance(name, str) else None,
        str(data.get("timestamp") or ""),
        previous if isinstance(previous, str) else None,
    )


def latest_of_each_run(saved: list[SavedCheckpoint]) -> list[SavedCheckpoint]:
    """The checkpoints no other checkpoint continues from: the last one of each run's chain."""
    continued = {checkpoint.previous for checkpoint in saved}
    return [checkpoint for checkpoint in saved if checkpoint.checkpoint_id not in continued]
