"""Helpers shared by the runtime shim tests (real MAF, real checkpoint storages)."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterable
from importlib import metadata
from typing import Any

import agent_framework as maf
from pydantic import BaseModel

MAF_VERSION = metadata.version("agent-framework-core")
MAF_VERSION_TUPLE = tuple(int(part) for part in MAF_VERSION.split(".")[:3])
# 1.20 added argument fingerprints; before it every key is call-order.
HAS_FINGERPRINTS = MAF_VERSION_TUPLE >= (1, 20, 0)

# Hypothesis example counts: CI default, raised with STEPLINT_SHIM_EXAMPLES for long runs.
EXAMPLES = int(os.environ.get("STEPLINT_SHIM_EXAMPLES", "0")) or None
# tests/test_runtime_matrix.py sets it on the releases inside a key epoch (not its bounds): they run a sample.
SAMPLE_RELEASE = os.environ.get("STEPLINT_SAMPLE_RELEASE") == "1"


def examples(default: int) -> int:
    """Number of hypothesis examples for a test whose CI budget is *default* (a quarter on a sample release)."""
    if EXAMPLES:
        return EXAMPLES
    return max(default // 4, 3) if SAMPLE_RELEASE else default


class Job(BaseModel):
    """A step argument MAF cannot fingerprint (falls back to call-order keys)."""

    label: str


ARG_KINDS = ("model", "str")


def make_arg(kind: str, label: str) -> Any:
    return Job(label=label) if kind == "model" else label


def label_of(arg: Any) -> str:
    return arg.label if isinstance(arg, Job) else arg


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def chain(storage: Any, workflow_name: str, exclude: Iterable[str] = ()) -> list[Any]:
    """Checkpoints of *workflow_name* oldest first, following previous_checkpoint_id links.

    Timestamps can tie for quickly saved checkpoints, links cannot. Checkpoints
    whose ids are in *exclude* (e.g. from an earlier run) are left out.
    """
    excluded = set(exclude)
    checkpoints = {
        checkpoint.checkpoint_id: checkpoint
        for checkpoint in await storage.list_checkpoints(workflow_name=workflow_name)
        if checkpoint.checkpoint_id not in excluded
    }
    children: dict[str | None, list[Any]] = {}
    for checkpoint in checkpoints.values():
        parent = checkpoint.previous_checkpoint_id
        children.setdefault(parent if parent in checkpoints else None, []).append(checkpoint)
    ordered: list[Any] = []
    frontier = sorted(children.get(None, []), key=lambda c: c.timestamp)
    while frontier:
        checkpoint = frontier.pop(0)
        ordered.append(checkpoint)
        frontier.extend(sorted(children.get(checkpoint.checkpoint_id, []), key=lambda c: c.timestamp))
    return ordered


async def latest(storage: Any, workflow_name: str, exclude: Iterable[str] = ()) -> Any | None:
    checkpoints = await chain(storage, workflow_name, exclude)
    return checkpoints[-1] if checkpoints else None


# The mark of a scoped key: "@" and the parent call's 16-hex-digit scope token.
SCOPED = re.compile(r"@[0-9a-f]{16}")


def step_of(key: str) -> str:
    """The step name in a call-order ("name::i") or versioned ('v2::["auto","name",...]') key."""
    if key.startswith("v2::"):
        return key.split('"')[3]
    return key.rsplit("::", 1)[0].split("@")[0]


def cache_keys(checkpoint: Any) -> list[str]:
    return sorted(checkpoint.state.get("_step_cache", {}))


async def run_to_end(workflow: Any, **run_kwargs: Any) -> tuple[Any, BaseException | None]:
    """Run *workflow*; return (result, None) or (None, the exception it raised)."""
    try:
        return await workflow.run(**run_kwargs), None
    except Exception as exc:  # the tests crash workflows on purpose
        return None, exc


def event_types(result: Any, executor: str | None = None) -> list[str]:
    return [event.type for event in result if executor is None or getattr(event, "executor_id", None) == executor]


def storages(tmp_path: Any) -> dict[str, Any]:
    """One of each real checkpoint storage."""
    return {
        "memory": maf.InMemoryCheckpointStorage(),
        "file": maf.FileCheckpointStorage(str(tmp_path / "checkpoints")),
    }
