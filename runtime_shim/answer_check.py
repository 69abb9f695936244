"""Answers checked like entries: a replay never hands one request another request's answer silently.

MAF matches an answer to a request by the request's id, and a request made
without ``request_id=`` gets ``auto::<n>``: its place in the run's call
order (MAF moves *n* past the requests a cached step made, by the count it
keeps beside the entry). So a replay that makes its requests in another order
than the run that paused gives the answer meant for one request to another,
exactly as a call-order key gives one call another call's entry. It happens
when a call takes another call's entry (``on_replay_mismatch="warn"``): that
call's body never makes its own request, and every later request takes the
answer of the one before; or when the code changed while the run was paused.

So each request that pauses is recorded under its id in the run's record log
(``replay_records``): the requesting step call (its step and its record, or
the identity MAF keyed it by; the workflow body when no step runs) and the
response type, by canonical form (``replay_digest``). The request's data is
left out: a prompt may carry a time or an id made afresh in each pass, and
the same call asking at the same place is the same request (so two requests
of the workflow body itself, or of one call, are not told apart). When a
replay's request finds an answer, its record is compared with the one the
answer was given for:

* equal: *verified*, the answer is returned;
* different: *mismatched*, and the policy decides: ``"error"`` raises
  ReplayMismatchError, ``"warn"`` emits ReplayMismatchWarning and returns
  the answer, ``"rerun"`` never hands it over: the answer is kept for the
  request it was given for, and this request takes one kept for it earlier
  in the run (*moved*), or else is asked again under an id of its own
  (``<id>~<record in hex>``), and the run pauses for it. Either way the
  run's auto counter moves on as if the auto id had been asked, so later
  requests keep their ids. Under ``"rerun"`` a request whose auto id has no
  answer also takes one kept for it (the request that took its place was
  asked again);
* no record (asked before install(), or with verification off) or a request
  that cannot be digested: *unchecked*, MAF's behaviour; the first answer of a
  run taken without a record says so (UnverifiedReplayWarning), as an entry
  without one does.

A request made with ``request_id=`` names itself and is taken as it is.
"""

from __future__ import annotations

import functools
import warnings
import zlib
from collections.abc import Callable
from typing import Any

from steplint.runtime_shim.errors import (
    WORKFLOW_BODY,
    ReplayMismatchError,
    ReplayMismatchWarning,
    UnverifiedReplayWarning,
    answer_mismatch_message,
    unverified_answer_message,
)
from steplint.runtime_shim.frames import StepFrame, current_step_frame
from steplint.runtime_shim.replay_check import IDENTITY_KEYED, calling_line, call_shape, count_check
from steplint.runtime_shim.replay_digest import UNDIGESTABLE, Undigestable, canonical, pack, record_call, unpack
from steplint.runtime_shim.replay_records import chunk_keys, log_of
from steplint.runtime_shim.resumability import resumable
from steplint.runtime_shim.run_state import run_state_of

REQUEST_PREFIX = "steplint-request:"  # the log's key for a request's record (no cache key starts so)
REASK_SEPARATOR = "~"
PARTS = ("the requesting call", "the response type")


def request_record(run_context: Any, response_type: Any) -> int:
    """The packed record of one request: the call that asks and the type it asks for (UNDIGESTABLE when a part
    has no canonical form). Not the request's data: a prompt may carry a time or an id made afresh in each pass,
    and the same call asking at the same place is the same request."""
    try:
        return pack((zlib.crc32(_requester(run_context)), zlib.crc32(canonical(response_type))))
    except Exception:  # Undigestable, or whatever a value's methods raise: unchecked, never a failed request
        return UNDIGESTABLE


def _asking_frame(run_context: Any) -> StepFrame | None:
    """The frame of the step call whose body makes the request (None: the workflow body makes it)."""
    frame = current_step_frame.get()
    return frame if frame is not None and frame.run_context is run_context else None


def _requester(run_context: Any) -> bytes:
    """The step call whose body makes the request, by what names the call in every run (not its key: a
    call-order key moves when the order does)."""
    frame = _asking_frame(run_context)
    if frame is None:
        return b"workflow"
    record = frame.record
    if record is IDENTITY_KEYED and frame.identity is not None:
        return f"step\0{frame.step_name}\0{':'.join(map(str, frame.identity))}".encode("utf-8", "surrogatepass")
    if record is None or record is IDENTITY_KEYED:
        wrapper, args, kwargs = frame.call
        record = record_call(call_shape(wrapper), args, kwargs)
    if record == UNDIGESTABLE:
        raise Undigestable(frame.step_name)
    return f"step\0{frame.step_name}\0{record:x}".encode("utf-8", "surrogatepass")


def request_log_key(request_id: str) -> str:
    return REQUEST_PREFIX + request_id


def _differences(recorded: int, current: int) -> list[str]:
    theirs, mine = unpack(recorded), unpack(current)
    if theirs is None or mine is None or len(theirs) != len(mine):
        return ["the request"]
    return [part for part, a, b in zip(PARTS, mine, theirs) if a != b]


def verifying_request(original: Callable[..., Any], policy: str, chunk_key: Callable[[int], Any]
                      ) -> Callable[..., Any]:
    """Wrap ``RunContext.request_info``: record a request that pauses, check one that finds its answer."""

    @functools.wraps(original)
    async def request_info(self: Any, request_data: Any, response_type: Any, *, request_id: str | None = None
                           ) -> Any:
        state = run_state_of(self)
        if request_id is not None or state is None or not resumable(self, state):
            return await original(self, request_data, response_type, request_id=request_id)
        auto_id = f"auto::{self._auto_request_info_index}"  # the id MAF is about to give it
        log = log_of(self, chunk_key)
        current = request_record(self, response_type)
        stranded = state.answers_stranded
        if auto_id not in self._responses:
            if policy == "rerun" and stranded and current != UNDIGESTABLE:
                owner = _take_stranded(stranded, current)
                if owner is not None:
                    return await _answer_from(original, self, request_data, response_type, owner)
            if current != UNDIGESTABLE:
                log.put(request_log_key(auto_id), current)  # written with the run's records, before MAF copies them
            return await original(self, request_data, response_type)
        recorded = log.get(request_log_key(auto_id))
        if recorded is None or recorded == UNDIGESTABLE or current == UNDIGESTABLE:
            count_check("answers_unchecked")
            if recorded is None and not state.unverified_said:  # asked without records: said, as for entries
                state.unverified_said = True
                filename, line = calling_line()
                warnings.warn_explicit(unverified_answer_message(_step_name(self), auto_id), UnverifiedReplayWarning,
                                       filename, line)
            return await original(self, request_data, response_type)
        if recorded == current:
            count_check("answers_verified")
            return await original(self, request_data, response_type)
        count_check("answers_mismatched")
        where = _step_name(self)
        differing = _differences(recorded, current)
        if policy == "error":
            raise ReplayMismatchError(where, auto_id, differing, answer=True)
        if policy == "warn":
            filename, line = calling_line()
            warnings.warn_explicit(answer_mismatch_message(where, auto_id, differing, "warn"),
                                   ReplayMismatchWarning, filename, line)
            return await original(self, request_data, response_type)
        # rerun: the answer here is another request's, kept for it; this one takes one kept for it, or is asked again
        stranded.setdefault(recorded, []).append(auto_id)
        owner = _take_stranded(stranded, current)
        if owner is not None:
            return await _answer_from(original, self, request_data, response_type, owner)
        own_id = f"{auto_id}{REASK_SEPARATOR}{current:x}"
        if own_id not in self._responses:
            count_check("answers_reasked")
        self._auto_request_info_index += 1  # the auto id's place is taken, as MAF would have
        return await original(self, request_data, response_type, request_id=own_id)

    return request_info


def _take_stranded(stranded: dict[int, list[str]], current: int) -> str | None:
    """The auto id of an answer this run found at another request's place and kept for a request with this record
    (a mismatch under "rerun"), if there is one."""
    kept = stranded.get(current)
    return kept.pop(0) if kept else None


async def _answer_from(original: Callable[..., Any], run_context: Any, request_data: Any, response_type: Any,
                       owner: str) -> Any:
    """The answer given under *owner* for this very request; the auto id it would have had is used up, as MAF
    would have."""
    count_check("answers_moved")
    run_context._auto_request_info_index += 1
    return await original(run_context, request_data, response_type, request_id=owner)


def _step_name(run_context: Any) -> str:
    frame = _asking_frame(run_context)
    return WORKFLOW_BODY if frame is None else frame.step_name


def answer_hooks(framework: Any, policy: str, current: Callable[[type, str], Any]) -> dict[tuple[type, str], Any]:
    """(class, attribute) -> replacement, built on what is installed there now."""
    run_context = framework.run_context
    return {(run_context, "request_info"): verifying_request(current(run_context, "request_info"), policy,
                                                             chunk_keys(framework))}

