"""A small application for the real-crash test, run as a separate process.

    python shim_crash_app.py STORAGE_DIR first|resume none|flat|scoped model|str

"first" processes items a, b, c, d (each through a step calling a step) and
SIGKILLs its own process inside the nested step for item c, after a and b were
checkpointed to FileCheckpointStorage. "resume" resumes from the latest
checkpoint in STORAGE_DIR and prints the outputs and the items whose inner step
body ran, as JSON.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import agent_framework as maf  # noqa: E402
from shim_support import label_of, latest, make_arg  # noqa: E402

from steplint import runtime_shim  # noqa: E402

ITEMS = "abcd"
KILL_AT = "c"
ran: list[str] = []
phase = "first"


@maf.step
async def inner(job: object) -> str:
    if phase == "first" and label_of(job) == KILL_AT:
        os.kill(os.getpid(), signal.SIGKILL)
    ran.append(label_of(job))
    return label_of(job).upper()


@maf.step
async def outer(job: object) -> str:
    return await inner(job)


@maf.workflow(name="killed")
async def killed(kind: str) -> list[str]:
    return [await outer(make_arg(kind, item)) for item in ITEMS]


async def main(storage_dir: str, kind: str) -> None:
    storage = maf.FileCheckpointStorage(storage_dir)
    workflow = killed.build(checkpoint_storage=storage)
    if phase == "first":
        await workflow.run(kind)
        raise SystemExit("the first run was supposed to be killed")
    checkpoint = await latest(storage, "killed")
    result = await workflow.run(checkpoint_id=checkpoint.checkpoint_id)
    print(json.dumps({"outputs": result.get_outputs(), "ran": ran}))


if __name__ == "__main__":
    storage_dir, phase, mode, kind = sys.argv[1:5]
    if mode != "none":
        runtime_shim.install(mode=mode)
    asyncio.run(main(storage_dir, kind))
