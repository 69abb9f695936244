"""Watching MAF replay a checkpoint: which cached key goes to which call, and where the first live call is.

MAF decides everything itself (its keys, its cache lookups, its refusals);
this module only listens, through three of its internal points that every
release from 1.18.0 to 1.23.0 has:

* ``StepWrapper.__call__``: which step is called with which arguments;
* ``RunContext._get_cached_result``: the last key whose lookup found an entry
  (1.20+ may look up an identity key, then the call-order key);
* ``RunContext.add_event``: ``executor_bypassed`` means MAF serves that entry to
  the call; ``executor_invoked`` is emitted only on a miss, right before the
  step body would run, so the replay stops there (``LiveCallReached``) and no
  step body ever runs.

The patches are in place only while a check runs, and act only inside a run
started by ``watching()`` (a context variable), so other runs in the process
see MAF unchanged.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import CodeType
from typing import Any


@dataclass(frozen=True)
class Call:
    """One step call as the workflow body made it: the step's name and its arguments as text."""

    step: str
    arguments: str

    def text(self) -> str:
        return f"{self.step}({self.arguments})"


@dataclass
class Served:
    """A cached entry MAF handed to a call."""

    key: str
    call: Call


@dataclass
class Watch:
    """What one replay showed: entries served in order, the first live call, each step's code digest."""

    served: list[Served] = field(default_factory=list)
    live_call: Call | None = None
    step_code: dict[str, str] = field(default_factory=dict)


class LiveCallReached(BaseException):
    """Raised where MAF would run a step body: a BaseException, so no ``except Exception`` in a workflow keeps it."""

    def __init__(self, call: Call) -> None:
        super().__init__(call.text())
        self.call = call


@dataclass
class _CallInFlight:
    call: Call
    found_key: Any = None


_watch: ContextVar[Watch | None] = ContextVar("steplint_replay_watch", default=None)
_call_in_flight: ContextVar[_CallInFlight | None] = ContextVar("steplint_replay_call", default=None)
_patch_lock = threading.Lock()
_patch_holders = [0]
_originals: dict[str, Any] = {}


def key_text(key: Any) -> str:
    """A cache key as text: 1.18/1.19 keys are (step, index) tuples, 1.20+ keys are strings."""
    if isinstance(key, tuple):
        return "#".join(str(part) for part in key)
    return str(key)


def arguments_text(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """The arguments as comparable text, the same in every process: JSON where it can be, else ``repr``."""
    parts = [_value_text(value) for value in args]
    parts += [f"{name}={_value_text(kwargs[name])}" for name in sorted(kwargs)]
    return ", ".join(parts)


def _value_text(value: Any) -> str:
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        value = {"__model__": type(value).__qualname__, **dump(mode="json")}
    try:
        return json.dumps(value, sort_keys=True, default=repr)
    except (TypeError, ValueError):
        return repr(value)


def code_digest(function: Any) -> str:
    """A digest of what a function does: bytecode, constants and names, without line numbers or file names."""
    code = getattr(function, "__code__", None)
    if not isinstance(code, CodeType):
        return ""
    return hashlib.sha256(repr(_code_shape(code)).encode()).hexdigest()[:16]


def _code_shape(code: CodeType) -> tuple[Any, ...]:
    constants = tuple(_code_shape(c) if isinstance(c, CodeType) else repr(c) for c in code.co_consts)
    return (code.co_code, constants, code.co_names, code.co_varnames)


async def _step_call(self: Any, *args: Any, **kwargs: Any) -> Any:
    watch = _watch.get()
    if watch is None:
        return await _originals["__call__"](self, *args, **kwargs)
    call = Call(self.name, arguments_text(args, kwargs))
    watch.step_code.setdefault(self.name, code_digest(getattr(self, "_func", None)))
    token = _call_in_flight.set(_CallInFlight(call))
    try:
        return await _originals["__call__"](self, *args, **kwargs)
    finally:
        _call_in_flight.reset(token)


def _cache_lookup(self: Any, key: Any) -> tuple[bool, Any]:
    found, value = _originals["_get_cached_result"](self, key)
    in_flight = _call_in_flight.get()
    if found and in_flight is not None and _watch.get() is not None:
        in_flight.found_key = key
    return found, value


async def _event_added(self: Any, event: Any) -> None:
    watch = _watch.get()
    in_flight = _call_in_flight.get()
    if watch is not None and in_flight is not None:
        kind = getattr(event, "type", None)
        if kind == "executor_invoked":
            watch.live_call = in_flight.call
            raise LiveCallReached(in_flight.call)
        if kind == "executor_bypassed":
            watch.served.append(Served(key_text(in_flight.found_key), in_flight.call))
    await _originals["add_event"](self, event)


@contextmanager
def _maf_patched() -> Iterator[None]:
    from agent_framework._workflows import _functional

    with _patch_lock:
        if _patch_holders[0] == 0:
            _originals["__call__"] = _functional.StepWrapper.__call__
            _originals["_get_cached_result"] = _functional.RunContext._get_cached_result
            _originals["add_event"] = _functional.RunContext.add_event
            _functional.StepWrapper.__call__ = _step_call
            _functional.RunContext._get_cached_result = _cache_lookup
            _functional.RunContext.add_event = _event_added
        _patch_holders[0] += 1
    try:
        yield
    finally:
        with _patch_lock:
            _patch_holders[0] -= 1
            if _patch_holders[0] == 0:
                _functional.StepWrapper.__call__ = _originals["__call__"]
                _functional.RunContext._get_cached_result = _originals["_get_cached_result"]
                _functional.RunContext.add_event = _originals["add_event"]


@contextmanager
def watching() -> Iterator[Watch]:
    """Runs started inside the block are watched; the yielded Watch collects what they show."""
    watch = Watch()
    with _maf_patched():
        token = _watch.set(watch)
        try:
            yield watch
        finally:
            _watch.reset(token)
