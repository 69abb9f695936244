"""Replay verification: a resumed call never takes another call's cached result silently.

Only call-order keys need it: a key MAF made from a fingerprint of the
arguments or a ``replay_key=`` (1.20+) names the call itself. When such a
cache lookup misses (the body runs next, before it can change its
arguments), the shim records the call's identity (``replay_digest``: the
step, and a digest of its bound arguments) in the run's record log
(``replay_records``: a few entries of ``_step_cache_auto_request_info_counts``
under keys no step call can be given), so it travels in every checkpoint and
response-only replay and MAF alone never reads it. (A body that then fails
leaves a record without an entry: never consulted, and replaced when the
key's next call runs.)

On a cache hit the call about to take the entry is digested too and compared:

* equal: *verified*, MAF's value is returned;
* different: a *mismatch*, MAF's value was another call's, and the policy
  decides: ``error`` raises ReplayMismatchError before the value is returned,
  ``warn`` emits ReplayMismatchWarning at the calling line and keeps MAF's
  value, ``rerun`` treats the entry as a miss (the body runs) and keeps the
  entry for a later call of the run whose record matches it;
* no record (a checkpoint made without verification, e.g. before the shim
  was installed): *unrecorded*, MAF's behaviour, and the first such hit of
  a run says so (UnverifiedReplayWarning: the entry may be another call's,
  and nothing can tell). A cache made under verification carries the log,
  judged at the run's first lookup: in a cache without it, hits on identity
  keys are unrecorded too, since MAF alone counts a nested call's occurrence
  of an identity like a top-level one's;
* a call that could not be digested: *undigestable*, MAF's behaviour.

``replay_report()`` says how many hits of each kind this process saw.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from steplint.runtime_shim.errors import (
    ArgumentMutatedError,
    ArgumentMutatedWarning,
    ReplayMismatchError,
    ReplayMismatchWarning,
    UnverifiedReplayWarning,
    argument_mutation_message,
    replay_mismatch_message,
    unverified_replay_message,
)
from steplint.runtime_shim.frames import current_step_frame, key_text
from steplint.runtime_shim.framework import COUNTER, Framework, takes_replayable
from steplint.runtime_shim.memo_adoption import CallOfKey, Orphans, nested_call_of_key
from steplint.runtime_shim.replay_digest import (
    UNCHANGEABLE,
    UNDIGESTABLE,
    CallShape,
    differences,
    field_snapshot,
    quick_record,
    record_call,
    unchanged_since,
)
from steplint.runtime_shim.replay_records import (
    RecordLog,
    chunk_keys,
    log_of,
    write_queued,
)
from steplint.runtime_shim.resumability import resumable
from steplint.runtime_shim.run_state import STATE_ATTRIBUTE, RunState

ReplayPolicy = Literal["error", "warn", "rerun", "off"]
REPLAY_POLICIES: tuple[str, ...] = ("error", "warn", "rerun", "off")
MutationPolicy = Literal["warn", "error"]
MUTATION_POLICIES: tuple[str, ...] = ("warn", "error")
# Why each mode defaults as it does: README, "Replay verification".
DEFAULT_POLICY = {"flat": "error", "scoped": "rerun"}

IDENTITY_KEYED = -1  # a frame's record when MAF keyed the call by its identity: nothing to record
SHAPE_ATTRIBUTE = "_steplint_call_shape"
_HERE = os.path.dirname(os.path.abspath(__file__))


@dataclass(frozen=True)
class ReplayReport:
    """Cache hits this process checked since it started (or since ``reset_replay_report()``)."""

    verified: int = 0  # the entry's record matched the call
    mismatched: int = 0  # it did not: MAF's value was another call's (then: raised, warned or rerun)
    rerun: int = 0  # mismatches whose body ran again (on_replay_mismatch="rerun")
    moved: int = 0  # entries kept after a mismatch and given to the later call they matched
    adopted: int = 0  # a memoized task's entry taken by the same call under another parent (memo_adoption)
    unrecorded: int = 0  # the entry had no record (made without verification): not checked
    undigestable: int = 0  # the call's arguments have no canonical form: not checked
    # Answers to request_info matched by call order (answer_check), checked like entries:
    answers_verified: int = 0  # the request the answer was given for is the one asking now
    answers_mismatched: int = 0  # another request is asking (then: raised, warned or asked again)
    answers_reasked: int = 0  # mismatches asked again under their own id (on_replay_mismatch="rerun")
    answers_moved: int = 0  # answers given for a request under another id, handed to it ("rerun")
    answers_unchecked: int = 0  # no record of the answered request, or one that cannot be digested

    def describe(self) -> str:
        text = (
            f"steplint replay verification: {self.verified} verified, {self.mismatched} mismatched "
            f"({self.rerun} rerun, {self.moved} moved to their own call), {self.adopted} adopted, "
            f"{self.unrecorded} unrecorded, "
            f"{self.undigestable} undigestable"
        )
        if self.answers_verified or self.answers_mismatched or self.answers_unchecked:
            text += (f"; answers: {self.answers_verified} verified, {self.answers_mismatched} mismatched "
                     f"({self.answers_reasked} asked again), {self.answers_moved} moved to their own request, "
                     f"{self.answers_unchecked} unchecked")
        return text


_counts_lock = threading.Lock()
_counts: dict[str, int] = dict.fromkeys(ReplayReport.__dataclass_fields__, 0)


def count_check(kind: str) -> None:
    with _counts_lock:
        _counts[kind] += 1


def replay_report() -> ReplayReport:
    """How many cache hits were verified, mismatched, unrecorded or undigestable in this process."""
    with _counts_lock:
        return ReplayReport(**_counts)


def reset_replay_report() -> None:
    with _counts_lock:
        for kind in _counts:
            _counts[kind] = 0


def keyed_by_identity(framework: Framework) -> Callable[[Any], bool] | None:
    """Whether MAF made a cache key from the call's identity (a fingerprint or replay_key=), not its order (None:
    the release keys every call by its order)."""
    if framework.scheme == COUNTER:
        return None
    prefix = framework.versioned_prefix
    return lambda key: isinstance(key, str) and key.startswith(prefix)


def call_shape(wrapper: Any) -> CallShape:
    shape = getattr(wrapper, SHAPE_ATTRIBUTE, None)  # not through __dict__ (run_state_of says why)
    if shape is None:
        shape = CallShape(wrapper)
        setattr(wrapper, SHAPE_ATTRIBUTE, shape)
    return shape


def _record_of(frame: Any, call_order: bool = True) -> int:
    """The packed record of the frame's call (made once per call, at its first cache lookup: before the body
    runs, which may change its arguments; UNDIGESTABLE when it has none). A call keyed by its order also gets its
    place among its parent's calls (``StepFrame.scope``)."""
    record = frame.record
    if record is None:
        wrapper, args, kwargs = frame.call
        try:
            record = record_call(call_shape(wrapper), args, kwargs)
        except Exception:  # whatever a value's methods raise: no record, never a failed step call
            record = UNDIGESTABLE
        frame.record = record
        state = frame.state
        if call_order and record != UNDIGESTABLE and state is not None and state.replay_log is not None:
            frame.place = state.place_of(frame, record)
        try:
            frame.snapshot = field_snapshot(args, kwargs)
        except Exception:  # no snapshot: the arguments are digested again when the body completes
            frame.snapshot = None
    return record


def _differences(frame: Any, recorded: int) -> list[str]:
    wrapper, args, kwargs = frame.call
    try:
        return differences(call_shape(wrapper), args, kwargs, recorded)
    except Exception:
        return ["the arguments"]


def calling_line() -> tuple[str, int]:
    """The first frame outside the shim and MAF: the line that called the step."""
    frame = sys._getframe(2)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_HERE) and f"{os.sep}agent_framework{os.sep}" not in filename:
            return filename, frame.f_lineno
        frame = frame.f_back
    return "<unknown>", 0


def verifying_lookup(original: Callable[..., Any], policy: str, chunk_key: Callable[[int], Any],
                     by_identity: Callable[[Any], bool] | None, call_of: CallOfKey) -> Callable[..., Any]:
    """Wrap ``RunContext._get_cached_result``: record a call-order entry's call before its body runs, and check
    a hit's record against the call about to take it."""

    @functools.wraps(original)
    def _get_cached_result(self: Any, key: Any) -> tuple[bool, Any]:
        found, value = original(self, key)
        frame = current_step_frame.get()
        if frame is None or frame.run_context is not self:
            return found, value
        state = frame.state
        can_resume = state.resumable
        if can_resume is None:
            can_resume = resumable(self, state)
        if not can_resume:  # no later run can take this cache: nothing to record or check
            return found, value
        log = state.replay_log
        if (not found and state.cache_recorded is not None and log is not None
                and log.counts is self._step_cache_auto_request_info_counts and frame.record is None
                and not state.replay_stash and not state.restored_keys and (by_identity is None or not by_identity(key))):
            # The common miss of a run already judged (what _missed does when nothing was kept, moved or restored):
            # record the call before its body runs, for its entry when the body completes.
            wrapper, args, kwargs = frame.call
            shape = getattr(wrapper, SHAPE_ATTRIBUTE, None)
            try:
                made = None if shape is None else quick_record(shape, args, kwargs)
            except Exception:  # a field that raises when read: _record_of makes the call undigestable
                made = None
            if made is None:
                _record_of(frame)
            else:  # _record_of, for the commonest arguments
                frame.record, frame.snapshot = made
                frame.place = state.place_of(frame, made[0])
            frame.record_pending = key
            return found, value
        lookup = _Lookup(self, state, log_of(self, chunk_key), frame, key, call_of)
        if by_identity is not None and by_identity(key):
            found, adopted = _identity_keyed(lookup, found)
            return found, adopted if adopted is not None else value
        if not found:
            return _missed(lookup, value)
        return _hit(lookup, value, policy)

    return _get_cached_result


@dataclass(slots=True)
class _Lookup:
    """One cache lookup of a step call in a run."""

    run_context: Any
    state: RunState
    log: RecordLog
    frame: Any
    key: Any
    call_of: CallOfKey


def _cache_recorded(lookup: _Lookup) -> bool:
    """Judged once, at the run's first lookup: a cache restored without the log was made without the shim."""
    state = lookup.state
    if state.cache_recorded is None:
        cache = lookup.run_context._step_cache
        state.cache_recorded = lookup.log.restored or not cache
        state.restored_keys = list(cache)  # the entries a memoized task's call may adopt
    return state.cache_recorded


def _identity_keyed(lookup: _Lookup, found: bool) -> tuple[bool, Any]:
    """The entry, if any, is this call's by construction (a miss: MAF also looks up the call-order key, for old
    checkpoints, but caches the result under this one). Unless a cache made without the shim holds it: there an
    occurrence of the same identity may be a nested call's."""
    recorded_cache = _cache_recorded(lookup)
    frame = lookup.frame
    frame.record = IDENTITY_KEYED
    if frame.place is None and frame.identity is not None:
        frame.place = lookup.state.place_of(frame, frame.identity[1:])  # (wrapper identity, identity)
    if found and not recorded_cache:
        count_check("unrecorded")
        _say_unverified_once(lookup)
    return (found, None) if found else _adopted(lookup) or (False, None)


def _missed(lookup: _Lookup, value: Any) -> tuple[bool, Any]:
    _cache_recorded(lookup)
    if lookup.frame.record is IDENTITY_KEYED:
        return False, value  # the call's result goes under its identity key
    if lookup.state.replay_stash:
        moved = _moved_here(lookup)
        if moved[0]:
            return moved
    _record_of(lookup.frame)
    lookup.frame.record_pending = lookup.key
    return _adopted(lookup) or (False, value)


def _adopted(lookup: _Lookup) -> tuple[bool, Any] | None:
    """A nested call in a task its parent spawned takes a restored entry of the same call that a cached parent
    orphaned (a memoized task started by another step in the run that made the checkpoint: ``memo_adoption``)."""
    state, frame, run_context = lookup.state, lookup.frame, lookup.run_context
    if not state.restored_keys or not frame.in_spawned_task():
        return None
    found = lookup.call_of(lookup.key, frame.record)
    if found is None:
        return None
    log = lookup.log
    if state.orphans is None:
        state.orphans = Orphans(state.restored_keys, log.get, lookup.call_of)
    orphan = state.orphans.take(found[0], found[1], run_context._step_cache, log.get)
    if orphan is None:
        return None
    value, counts = run_context._step_cache[orphan], run_context._step_cache_auto_request_info_counts
    count, record = counts.get(orphan, 0), log.get(orphan)
    state.drop(run_context, orphan)
    log.forget(orphan)
    frame.record_pending = None
    run_context._set_cached_result(lookup.key, value)
    counts[lookup.key] = count
    if record is not None:
        log.put(lookup.key, record)
    count_check("adopted")
    return True, value


def _hit(lookup: _Lookup, value: Any, policy: str) -> tuple[bool, Any]:
    _cache_recorded(lookup)
    frame, key = lookup.frame, lookup.key
    recorded = lookup.log.get(key)
    if recorded is None:
        count_check("unrecorded")
        _say_unverified_once(lookup)
        return True, value
    fallback = frame.record is IDENTITY_KEYED  # MAF's look at the call-order key of a fingerprinted call
    if fallback:
        frame.record = None  # an old call-order entry for a fingerprinted call: check it like any other
    current = _record_of(frame, call_order=not fallback)
    if recorded == UNDIGESTABLE or current == UNDIGESTABLE:
        count_check("undigestable")
        return True, value
    if recorded == current:
        count_check("verified")
        return True, value
    count_check("mismatched")
    if fallback:
        # Another call's entry, and this call's own result would go under its identity key, where MAF found
        # nothing: a miss under every policy, which leaves the entry for its own call (MAF alone, counting
        # call order across parents, would have looked at another key; on 1.20+ it refuses a concurrent call
        # such an entry outright).
        frame.record = IDENTITY_KEYED
        count_check("rerun")
        return False, None
    step, differing = frame.step_name, _differences(frame, recorded)
    if policy == "error":
        raise ReplayMismatchError(step, key_text(key), differing)
    if policy == "warn":
        filename, line = calling_line()
        warnings.warn_explicit(replay_mismatch_message(step, key_text(key), differing, "warn"),
                               ReplayMismatchWarning, filename, line)
        return True, value
    # rerun: the entry is moved aside with its record, for the call it belongs to; nothing is left under the key
    # that a retry or a later resume could take. This call takes an entry kept for it, or runs.
    run_context = lookup.run_context
    count = run_context._step_cache_auto_request_info_counts.get(key, 0)
    lookup.state.drop(run_context, key)
    lookup.log.forget(key)
    lookup.state.replay_stash.setdefault(recorded, []).append((value, count))
    moved = _moved_here(lookup)
    if not moved[0]:
        count_check("rerun")
    return moved


def _moved_here(lookup: _Lookup) -> tuple[bool, Any]:
    """Give the call at *key* an entry an earlier mismatch kept for a call with its record, if there is one;
    otherwise the body runs, and the key gets this call's record with its entry, when the body completes."""
    current = _record_of(lookup.frame)
    kept = lookup.state.replay_stash.get(current) if current != UNDIGESTABLE else None
    if not kept:
        lookup.frame.record_pending = lookup.key
        return False, None
    value, count = kept.pop(0)
    lookup.run_context._set_cached_result(lookup.key, value)
    lookup.run_context._step_cache_auto_request_info_counts[lookup.key] = count
    lookup.log.put(lookup.key, current)
    count_check("moved")
    return True, value


def _say_unverified_once(lookup: _Lookup) -> None:
    """A resume took a call-order entry that carries no record (a checkpoint made without verification)."""
    if lookup.state.unverified_said:
        return
    lookup.state.unverified_said = True
    filename, line = calling_line()
    warnings.warn_explicit(unverified_replay_message(lookup.frame.step_name, key_text(lookup.key)),
                           UnverifiedReplayWarning, filename, line)


def recording_result(original: Callable[..., Any], chunk_key: Callable[[int], Any], on_mutation: str,
                     keeps_run_state: bool = False) -> Callable[..., Any]:
    """Wrap ``RunContext._set_cached_result``: a call whose body completed gets its record with its entry (never
    before: a body that raises, is cancelled or pauses leaves neither), once its arguments are found unchanged.
    With *keeps_run_state* (scoped mode) it also does what ``run_state.setting_cached_result`` does, in place of
    that hook: one hook instead of two at every step call."""

    keyword = takes_replayable(original)

    @functools.wraps(original)
    def _set_cached_result(self: Any, key: Any, value: Any, *, replayable: bool = True) -> None:
        frame = current_step_frame.get()
        own = frame is not None and frame.run_context is self
        completed = own and frame.record_pending is not None and key == frame.record_pending
        if completed and frame.snapshot != UNCHANGEABLE and not _fields_unchanged(frame.snapshot):
            _tell_mutation(frame, on_mutation)  # an argument the body may have changed: digest it again
        if keeps_run_state:
            state = getattr(self, STATE_ATTRIBUTE, None)
            if state is not None and state.digest is not None and key not in self._step_cache:
                state.pending.append(key)
        if keyword:
            original(self, key, value, replayable=replayable)
        else:
            original(self, key, value)
        if own and keeps_run_state and frame.key == key:
            frame.returned = True
        if completed:
            frame.record_pending = None
            log = frame.state.replay_log if frame.state is not None else None
            if log is None or log.counts is not self._step_cache_auto_request_info_counts:
                log = log_of(self, chunk_key)
            log.queued.append((key, frame.record))  # RecordLog.put

    return _set_cached_result


def _fields_unchanged(snapshot: Any) -> bool:
    """Whether the call's model and dataclass arguments still hold the very field values they held when it was
    recorded (``field_snapshot``; None: it cannot tell): then their digest is the same, and the second one is
    not needed."""
    try:
        return snapshot is not None and unchanged_since(snapshot)
    except Exception:  # a field that cannot be read now: let the digest tell
        return False


def _changed_arguments(frame: Any) -> list[str]:
    """What of the call's arguments its body changed: their record, made before the body ran, against now."""
    record = frame.record
    if type(record) is not int or record in (UNDIGESTABLE, IDENTITY_KEYED):
        return []
    wrapper, args, kwargs = frame.call
    try:
        if record_call(call_shape(wrapper), args, kwargs) == record:
            return []
        return differences(call_shape(wrapper), args, kwargs, record)
    except Exception:  # a value that cannot be digested now tells nothing
        return []


def _tell_mutation(frame: Any, policy: str) -> None:
    changed = _changed_arguments(frame)
    if not changed:
        return
    if policy == "error":
        raise ArgumentMutatedError(frame.step_name, changed)
    filename, line = calling_line()
    warnings.warn_explicit(argument_mutation_message(frame.step_name, changed), ArgumentMutatedWarning, filename, line)


def writing_before_export(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``RunContext._export_step_cache``: a checkpoint (and, on 1.20+, the capture for a response-only
    replay) copies the counts next, so the queued records go into them first."""

    @functools.wraps(original)
    def _export_step_cache(self: Any) -> Any:
        write_queued(self)
        return original(self)

    return _export_step_cache


def writing_after_body(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``FunctionalWorkflow._execute`` (the workflow body): once it returns or raises, MAF may keep the
    run's counts for a response-only replay (on 1.18/1.19 without an export), so the queued records go into
    them first."""

    @functools.wraps(original)
    async def _execute(self: Any, ctx: Any, message: Any) -> Any:
        try:
            return await original(self, ctx, message)
        finally:
            write_queued(ctx)

    return _execute


def verification_hooks(framework: Framework, policy: str, current: Callable[[type, str], Any],
                       on_mutation: str = "warn", keeps_run_state: bool = False) -> dict[tuple[type, str], Any]:
    """(class, attribute) -> replacement; ``current(owner, name)`` is what is installed there now (another hook of
    the shim, or MAF's own). *keeps_run_state*: scoped mode left ``_set_cached_result`` to this hook
    (``run_state_hooks(..., result_hook=False)``)."""
    run_context = framework.run_context
    chunk_key = chunk_keys(framework)
    lookup = verifying_lookup(current(run_context, "_get_cached_result"), policy, chunk_key,
                              keyed_by_identity(framework), nested_call_of_key(framework))
    return {
        (run_context, "_get_cached_result"): lookup,
        (run_context, "_set_cached_result"): recording_result(current(run_context, "_set_cached_result"), chunk_key,
                                                                      on_mutation, keeps_run_state),
        (run_context, "_export_step_cache"): writing_before_export(current(run_context, "_export_step_cache")),
        (framework.functional_workflow, "_execute"): writing_after_body(current(framework.functional_workflow,
                                                                                "_execute")),
    }
