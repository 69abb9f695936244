"""Scoped mode resuming a checkpoint made without the shim.

Without the shim, a nested call takes a key from the same per-name counter as
top-level calls (``tick::0`` may be a call made inside another step). Scoped
mode gives nested calls their own keys, so in a run restored from such a
checkpoint a top-level call could be handed an entry that a nested call made,
where MAF alone, counting nested calls as well, would have used the right one.

So when a checkpoint without any scoped key is restored (it was made without
the shim, or by the shim before any nested step completed), the run is a
*legacy replay* until it nests:

* the shim also counts every call the way MAF alone would (the release's own
  allocators on separate counters). A restored entry goes to a top-level call
  only if MAF alone would have given that call the same key; otherwise the
  entry is dropped and the call runs;
* nested calls never read restored entries (their keys are scoped): their
  results are recomputed;
* the first checkpoint written after the run made a nested call drops every
  restored entry no top-level call has claimed. A checkpoint that holds
  scoped keys is trusted entirely by the next resume, so it must not carry
  old entries that may have been nested calls. Before that, checkpoints hold
  no scoped keys, and their resume is a legacy replay again.

The cost is confined to runs resumed from such checkpoints: a body whose
entry was dropped runs again (e.g. a gathered top-level call that had not
asked for its entry yet when the first nested call completed). All state
lives on the RunContext of that one run and goes with it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from steplint.runtime_shim.frames import SCOPED_KEY, key_text
from steplint.runtime_shim.framework import COUNTER, Framework

REPLAY_ATTRIBUTE = "_steplint_legacy_replay"


class LegacyReplay:
    """Restored positional entries not yet claimed, and MAF-alone counters, for one run."""

    __slots__ = ("unclaimed", "maf_counters", "nested")

    def __init__(self, restored_keys: list[Any]) -> None:
        self.unclaimed = set(restored_keys)
        # Stand-in for the RunContext attributes MAF's own allocators count with.
        self.maf_counters = SimpleNamespace(_step_call_counters={}, _step_identity_counters={})
        self.nested = False  # whether the run has made a nested call

    def settle(self, run_context: Any, key: Any, maf_key: Any) -> None:
        """A top-level call got *key*; MAF alone would have given it *maf_key*."""
        if key not in self.unclaimed:
            return
        self.unclaimed.discard(key)
        if key != maf_key:
            _drop(run_context, key)

    def drop_unclaimed(self, run_context: Any) -> None:
        for key in self.unclaimed:
            _drop(run_context, key)
        self.unclaimed.clear()


def _drop(run_context: Any, key: Any) -> None:
    run_context._step_cache.pop(key, None)
    run_context._step_cache_auto_request_info_counts.pop(key, None)


def legacy_replay_of(run_context: Any) -> LegacyReplay | None:
    return run_context.__dict__.get(REPLAY_ATTRIBUTE)


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


def importing_step_cache(original: Callable[..., Any], positional: Callable[[Any], bool]) -> Callable[..., Any]:
    """Wrap ``RunContext._import_step_cache``: start a legacy replay for a checkpoint without scoped keys."""

    @functools.wraps(original)
    def _import_step_cache(self: Any, data: dict[str, Any]) -> None:
        original(self, data)
        keys = list(self._step_cache)
        legacy = not any(SCOPED_KEY.search(key_text(key)) for key in keys)
        candidates = [key for key in keys if positional(key)] if legacy else []
        setattr(self, REPLAY_ATTRIBUTE, LegacyReplay(candidates) if candidates else None)

    return _import_step_cache


def exporting_step_cache(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``RunContext._export_step_cache``: end a legacy replay that has nested, dropping unclaimed entries."""

    @functools.wraps(original)
    def _export_step_cache(self: Any) -> Any:
        replay = legacy_replay_of(self)
        if replay is not None and replay.nested:
            replay.drop_unclaimed(self)
            setattr(self, REPLAY_ATTRIBUTE, None)
        return original(self)

    return _export_step_cache


def legacy_replay_hooks(framework: Framework) -> dict[str, Callable[..., Any]]:
    """RunContext attribute -> replacement, for the checkpoint import and export of scoped mode."""
    run_context = framework.run_context
    return {
        "_import_step_cache": importing_step_cache(
            framework.original(run_context, "_import_step_cache"), positional_keys(framework)
        ),
        "_export_step_cache": exporting_step_cache(framework.original(run_context, "_export_step_cache")),
    }
