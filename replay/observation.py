"""One checkpoint replayed through MAF's own run path, up to its first live call.

The outcome is what MAF did: ``resumed`` (it served cached values and went on,
past live calls whose results are not needed, to a use of a live result, a
pause or the end), ``refused`` (it raised one of its own
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

from steplint.replay.interception import Call, Live, LiveResultUsed, Served, watching
from steplint.replay.read_only import ReadOnlyStorage

_BLOCKED_TYPE = re.compile(r"blocked for (?:non-type global|type) '([^']+)'")


@dataclass
class Observation:
    checkpoint_id: str
    workflow: str | None
    outcome: str
    reason: str = ""
    served: list[Served] = field(default_factory=list)
    live: list[Live] = field(default_factory=list)
    step_code: dict[str, str] = field(default_factory=dict)
    signature_hash: str | None = None  # the hash the code replayed computes (what a re-stamp writes)
    restamped: bool = False  # replayed with the checkpoint re-stamped to that hash (in memory)

    @property
    def live_call(self) -> Call | None:
        """The first call MAF would run live."""
        return self.live[0].call if self.live else None

    def live_before_resume(self) -> list[Call]:
        """The calls that run live before the resume point (the last cached value served): warnings."""
        return [item.call for item in self.live if item.served_before < len(self.served)]

    def stopped_early(self) -> bool:
        """Whether the replay stopped at a use of a live result (so later calls were not seen)."""
        return self.reason.startswith("stops where")

    def calls(self) -> set[Call]:
        """Every call the replay saw (served or live)."""
        return {item.call for item in self.served} | {item.call for item in self.live}

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Observation:
        served = [Served(item["key"], Call(**item["call"])) for item in data["served"]]
        live = [Live(Call(**item["call"]), item["served_before"]) for item in data["live"]]
        fields = {**data, "served": served, "live": live}
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
    if outcome == "failed" and watch.stopped:  # MAF wrapped the stop in an error of its own
        outcome, reason = "resumed", f"stops where {watch.stopped}"
    elif outcome == "failed" and watch.live:  # e.g. str.join refuses a stand-in without calling it
        outcome, reason = "resumed", f"stops where the workflow body fails after live call(s) ({reason})"
    loaded = reader.loaded
    return Observation(
        checkpoint_id,
        getattr(loaded, "workflow_name", None),
        outcome,
        reason,
        watch.served,
        watch.live,
        watch.step_code,
        getattr(workflow, "graph_signature_hash", None),
        restamp,
    )


def _replay(workflow: Any, reader: ReadOnlyStorage, checkpoint_id: str) -> tuple[str, str]:
    try:
        asyncio.run(workflow.run(checkpoint_id=checkpoint_id, checkpoint_storage=reader))
    except LiveResultUsed as stop:
        return "resumed", f"stops where {stop}"
    except Exception as error:
        return _failure(reader, error)
    return "resumed", "reaches the end or a pause"


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
