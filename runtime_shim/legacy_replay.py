"""Scoped mode resuming a checkpoint made without the shim.

Without the shim, a nested call takes a key from the same per-name counter as
top-level calls (``tick::0`` may be a call made inside another step). Scoped
mode gives nested calls their own keys, so in a run restored from such a
checkpoint a top-level call could be handed an entry that a nested call made,
where MAF alone, counting nested calls as well, would have used the right one.

So when a run starts from a cache that does not carry the shim's record
(``run_state``: it was made without the shim, or by the shim before the run
nested, or extended by MAF alone since), the run is a *legacy replay* until it
nests:

* the shim also counts every call the way MAF alone would (the release's own
  allocators on separate counters). A restored entry goes to a top-level call
  only if MAF alone would have given that call the same key; otherwise the
  entry is dropped and the call runs;
* nested calls never read restored entries (their keys are scoped): their
  results are recomputed;
* from the first checkpoint written after the run made a nested call, its
  checkpoints carry the shim's record and leave out every restored entry no
  top-level call has claimed yet. A checkpoint that holds the record is
  trusted entirely by the next resume, so it must not carry old entries that
  may have been nested calls. The run itself keeps them: a gathered top-level
  call that asks for its entry after that checkpoint still gets it (settled
  as above), as MAF alone would give it. Before that checkpoint, checkpoints
  carry no record, and their resume is a legacy replay again.

The cost is confined to runs resumed from such checkpoints: an entry a call
claims only after the first nested call is missing from the checkpoints
written before the claim, so a second resume from one of those runs that
call again. All state lives on the RunContext of that one run and goes with
it.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from steplint.runtime_shim.framework import COUNTER, Framework


class LegacyReplay:
    """Restored positional entries not yet claimed, and MAF-alone counters, for one run."""

    __slots__ = ("unclaimed", "maf_counters", "nested", "ended")

    def __init__(self, restored_keys: list[Any]) -> None:
        self.unclaimed = set(restored_keys)
        # Stand-in for the RunContext attributes MAF's own allocators count with.
        self.maf_counters = SimpleNamespace(_step_call_counters={}, _step_identity_counters={})
        self.nested = False  # whether the run has made a nested call
        self.ended = False  # whether its checkpoints carry the record (and leave out what is unclaimed)

    def settle(self, key: Any, maf_key: Any) -> bool:
        """A top-level call got *key*; MAF alone would have given it *maf_key*. Whether its restored entry
        must go (it may be another call's)."""
        if key not in self.unclaimed:
            return False
        self.unclaimed.discard(key)
        return key != maf_key


def positional_keys(framework: Framework) -> Callable[[Any], bool]:
    """Whether a restored key was allocated by position (call order, or occurrence of an identity).

    Explicit ``replay_key=`` keys name one logical call wherever it happens,
    so they are always the right entry for the call that asks for them.
    """
    if framework.scheme == COUNTER:
        return lambda key: True
    decode = framework.module._decode_versioned_step_cache_key

    def positional(key: Any) -> bool:
        decoded = decode(key)
        return decoded is None or decoded[0] == "auto"

    return positional
