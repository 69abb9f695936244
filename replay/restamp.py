"""Opt-in repair of false refusals: the new signature hash written into checkpoints proven to resume right.

Only a checkpoint whose verdict is ``refused`` with ``false_refusal`` is
touched: its replay with the new hash served every cached key to the call the
code that wrote it serves it to, and MAF's call-time checks passed, so the
hash is the only thing standing between it and a right resume. Each file is
copied to a backup folder first; the checkpoint is then loaded and saved
again by MAF's own FileCheckpointStorage with the one field changed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
from datetime import datetime, timezone
from pathlib import Path

from steplint.replay.verdicts import Verdict


def restamp(folder: Path, verdicts: list[Verdict]) -> tuple[list[str], Path | None]:
    """Re-stamp the proven false refusals in *folder*; the ids re-stamped and the backup folder (None if none)."""
    chosen = [v for v in verdicts if v.verdict == "refused" and v.false_refusal and v.new_signature_hash]
    if not chosen:
        return [], None
    from agent_framework import FileCheckpointStorage

    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f")
    backup = folder.parent / f"{folder.name}.steplint-backup-{stamp}"
    backup.mkdir()
    storage = FileCheckpointStorage(str(folder))
    for verdict in chosen:
        shutil.copy2(folder / f"{verdict.checkpoint_id}.json", backup)
        asyncio.run(_rewrite(storage, verdict.checkpoint_id, verdict.new_signature_hash))
    return [v.checkpoint_id for v in chosen], backup


async def _rewrite(storage: object, checkpoint_id: str, signature_hash: str) -> None:
    checkpoint = await storage.load(checkpoint_id)
    await storage.save(dataclasses.replace(checkpoint, graph_signature_hash=signature_hash))
