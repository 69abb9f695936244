"""One checkpoint replayed through MAF's own run path, up to its first live call.

The outcome is what MAF did: ``resumed`` (it served cached values and reached
a live call, a pause or the end), ``refused`` (it raised one of its own
errors: the signature hash, a step definition, a legacy entry it cannot
replay), ``unreadable`` (the storage could not load or decode the
checkpoint), or ``failed`` (the workflow body itself raised during replay).
An Observation is plain data, so a baseline process can send it as JSON.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from steplint.replay.interception import Call, LiveCallReached, Served, watching
from steplint.replay.read_only import ReadOnlyStorage

_BLOCKED_TYPE = re.compile(r"blocked for (?:non-type global|type) '([^']+)'")


@dataclass
class Observation:
    checkpoint_id: str
    workflow: str | None
    outcome: str
    reason: str = ""
    served: list[Served] = field(default_factory=list)
    live_call: Call | None = None
    step_code: dict[str, str] = field(default_factory=dict)
    signature_hash: str | None = None  # the hash the code replayed computes (what a re-stamp writes)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Observation:
        served = [Served(item["key"], Call(**item["call"])) for item in data["served"]]
        live = Call(**data["live_call"]) if data["live_call"] else None
        fields = {**data, "served": served, "live_call": live}
        return cls(**fields)


def buildable(definition: Any) -> Any:
    """A runnable workflow from a ``@workflow`` definition (or an already built one)."""
    build = getattr(definition, "build", None)
    return build() if callable(build) else definition


def observe(definition: Any, storage: Any, checkpoint_id: str, *, restamp: bool = False) -> Observation:
    """Replay *checkpoint_id* from *storage* with the workflow *definition*; never writes, never runs a step body."""
    workflow = buildable(definition)
    stamp = (lambda: workflow.graph_signature_hash) if restamp else None
    reader = ReadOnlyStorage(storage, stamp)
    with watching() as watch:
        outcome, reason = _replay(workflow, reader, checkpoint_id)
    loaded = reader.loaded
    return Observation(
        checkpoint_id,
        getattr(loaded, "workflow_name", None),
        outcome,
        reason,
        watch.served,
        watch.live_call,
        watch.step_code,
        getattr(workflow, "graph_signature_hash", None),
    )


def _replay(workflow: Any, reader: ReadOnlyStorage, checkpoint_id: str) -> tuple[str, str]:
    try:
        asyncio.run(workflow.run(checkpoint_id=checkpoint_id, checkpoint_storage=reader))
    except LiveCallReached as reached:
        return "resumed", f"first live call {reached.call.text()}"
    except Exception as error:
        return _failure(reader, error)
    return "resumed", "no live call before the end or a pause"


def _failure(reader: ReadOnlyStorage, error: Exception) -> tuple[str, str]:
    if reader.load_error is not None:
        return "unreadable", _unreadable_reason(reader.load_error)
    message = str(error)
    if isinstance(error, ValueError) and _is_maf_refusal(message):
        return "refused", message
    return "failed", f"{type(error).__name__}: {message}"


def _unreadable_reason(error: BaseException) -> str:
    chain = [error, *(e for e in (error.__cause__, error.__context__) if e is not None)]
    for link in chain:
        blocked = _BLOCKED_TYPE.search(str(link))
        if blocked:
            return (
                f"type {blocked.group(1)} is not allowed by the storage: register it with "
                f"agent_framework.register_checkpoint_type or allowed_checkpoint_types"
            )
    return f"{type(error).__name__}: {error}"


_REFUSALS = (
    "was created by a different version",
    "was created by a different step definition",
    "Cannot safely replay legacy",
    "Cannot derive a stable replay identity",
)


def _is_maf_refusal(message: str) -> bool:
    return any(phrase in message for phrase in _REFUSALS)
