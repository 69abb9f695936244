"""Watching MAF replay a checkpoint: which cached key goes to which call, and where the first live call is.

MAF decides everything itself (its keys, its cache lookups, its refusals);
this module only listens, through three of its internal points that every
release from 1.18.0 to 1.26.0 has:

* ``StepWrapper.__call__``: which step is called with which arguments;
* ``RunContext._get_cached_result``: the last key whose lookup found an entry
  (1.20+ may look up an identity key, then the call-order key);
* ``RunContext.add_event``: ``executor_bypassed`` means MAF serves that entry to
  the call; ``executor_invoked`` is emitted only on a miss, right before the
  step body would run, so the call stops there (``LiveCallReached``) and no
  step body ever runs.

A live call's result is unknown, so the call returns a ``LiveResult`` in its
place and the replay goes on: later calls that do not depend on it are still
served from the cache (a call that runs live before the resume point is a
warning, not the end of the check). The first use of a ``LiveResult`` (any
operation on it, or passing it to a step) stops the replay (``LiveResultUsed``):
what follows depends on a value only a live run can make.

The patches are in place only while a check runs, and act only inside a run
started by ``watching()`` (a context variable), so other runs in the process
see MAF unchanged.
"""

from __future__ import annotations

import hashlib
import inspect
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
class Live:
    """A call MAF would run live (a cache miss), after *served_before* entries were served."""

    call: Call
    served_before: int


@dataclass
class Watch:
    """What one replay showed: entries served in order, the live calls, each step's code digest, where it stopped."""

    served: list[Served] = field(default_factory=list)
    live: list[Live] = field(default_factory=list)
    step_code: dict[str, str] = field(default_factory=dict)
    stopped: str = ""
    active: bool = True

    @property
    def live_call(self) -> Call | None:
        return self.live[0].call if self.live else None


class LiveCallReached(BaseException):
    """Raised where MAF would run a step body: a BaseException, so no ``except Exception`` in a workflow keeps it."""

    def __init__(self, call: Call) -> None:
        super().__init__(call.text())
        self.call = call


class LiveResultUsed(BaseException):
    """The workflow body used the result of a live call: the replay cannot go further without running it."""


class LiveResult:
    """Stands for the unknown result of a live call; every use of it stops the replay."""

    __slots__ = ("_call", "_watch")

    def __init__(self, call: Call, watch: Watch) -> None:
        object.__setattr__(self, "_call", call)
        object.__setattr__(self, "_watch", watch)

    def _mine(self) -> Watch | None:
        """The replay this stand-in belongs to, while it runs (a leftover seen later, or by another replay: None)."""
        watch = _watch.get()
        return watch if watch is object.__getattribute__(self, "_watch") and watch.active else None

    def _used(self, *args: Any, **kwargs: Any) -> Any:
        call = object.__getattribute__(self, "_call")
        watch = self._mine()
        text = f"the workflow body uses the result of live call {call.text()}"
        if watch is None:  # outside its replay: an ordinary error
            raise TypeError(text)
        if not watch.stopped:
            watch.stopped = text
        raise LiveResultUsed(text)

    def __getattr__(self, name: str) -> Any:
        return self._used()

    def _text(self) -> str:
        if self._mine() is not None:
            return self._used()
        return f"<result of live call {object.__getattribute__(self, '_call').text()}>"


for _operation in (
    "__setattr__ __delattr__ __bool__ __format__ __bytes__ __hash__ __eq__ __ne__ __lt__ __le__ "
    "__gt__ __ge__ __len__ __iter__ __aiter__ __await__ __contains__ __getitem__ __setitem__ __delitem__ __call__ "
    "__int__ __float__ __index__ __neg__ __pos__ __abs__ __invert__ __copy__ __deepcopy__ __reduce__ __reduce_ex__ "
    "__enter__ __aenter__ __add__ __radd__ __iadd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ "
    "__floordiv__ __rfloordiv__ __mod__ __rmod__ __pow__ __rpow__ __and__ __rand__ __or__ __ror__ __xor__ __rxor__ "
    "__lshift__ __rlshift__ __rshift__ __rrshift__ __matmul__ __rmatmul__"
).split():
    setattr(LiveResult, _operation, LiveResult._used)
LiveResult.__repr__ = LiveResult.__str__ = LiveResult._text  # type: ignore[method-assign]


def holds_live_result(value: Any, depth: int = 0) -> bool:
    """Whether *value* is, or (in lists, tuples, sets and dicts) holds, a LiveResult."""
    if type(value) is LiveResult:
        return True
    if depth > 20:
        return False
    if type(value) in (list, tuple, set, frozenset):
        return any(holds_live_result(item, depth + 1) for item in value)
    if type(value) is dict:
        return any(holds_live_result(item, depth + 1) for pair in value.items() for item in pair)
    return False


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


def arguments_text(args: tuple[Any, ...], kwargs: dict[str, Any], function: Any = None) -> str:
    """The arguments as comparable text, the same in every process: JSON where it can be, else ``repr``.

    With the step's *function*, defaults are filled in (a changed default changes the call).
    """
    bound = _bound(function, args, kwargs)
    if bound is not None:
        args, kwargs = bound
    parts = [_value_text(value) for value in args]
    parts += [f"{name}={_value_text(kwargs[name])}" for name in sorted(kwargs)]
    return ", ".join(parts)


def _bound(function: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[tuple[Any, ...], dict[str, Any]] | None:
    if function is None:
        return None
    try:
        bound = inspect.signature(function).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    bound.apply_defaults()
    return bound.args, bound.kwargs


def _value_text(value: Any) -> str:
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        value = {"__model__": type(value).__qualname__, **dump(mode="json")}
    try:
        return json.dumps(value, sort_keys=True, default=repr)
    except (TypeError, ValueError):
        return repr(value)


_PLAIN_DATA = (type(None), bool, int, float, complex, str, bytes)


def code_digest(function: Any) -> str:
    """A digest of what a function computes: its code and what it reads by name.

    Its bytecode, constants, names and defaults (not line numbers or file
    names); the values of the module globals it reads that are plain data
    (numbers, strings, and tuples/frozensets of them); and, the same way, the
    plain functions it calls by a global name. Classes, modules and other
    objects it reads are not followed.
    """
    code = getattr(function, "__code__", None)
    if not isinstance(code, CodeType):
        return ""
    return hashlib.sha256(repr(_function_shape(function, set())).encode()).hexdigest()[:16]


def _function_shape(function: Any, seen: set[int]) -> tuple[Any, ...]:
    seen.add(id(function))
    code = function.__code__
    names = sorted(_names(code))
    namespace = getattr(function, "__globals__", {})
    read: list[tuple[str, Any]] = []
    for name in names:
        if name not in namespace:
            continue
        value = namespace[name]
        if _is_plain_data(value):
            read.append((name, repr(value)))
        elif inspect.isfunction(value) and id(value) not in seen:
            read.append((name, _function_shape(value, seen)))
    defaults = (repr(function.__defaults__), repr(sorted((function.__kwdefaults__ or {}).items())))
    return (_code_shape(code), defaults, tuple(read))


def _names(code: CodeType) -> set[str]:
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            names |= _names(constant)
    return names


def _is_plain_data(value: Any, depth: int = 0) -> bool:
    if type(value) in _PLAIN_DATA:
        return True
    if type(value) in (tuple, frozenset) and depth < 5:
        return all(_is_plain_data(item, depth + 1) for item in value)
    return False


def _code_shape(code: CodeType) -> tuple[Any, ...]:
    constants = tuple(_code_shape(c) if isinstance(c, CodeType) else repr(c) for c in code.co_consts)
    return (code.co_code, constants, code.co_names, code.co_varnames)


async def _step_call(self: Any, *args: Any, **kwargs: Any) -> Any:
    watch = _watch.get()
    if watch is None:
        return await _originals["__call__"](self, *args, **kwargs)
    function = getattr(self, "_func", None)
    if holds_live_result(args) or holds_live_result(kwargs):
        text = f"step {self.name} is called with the result of a live call"
        watch.stopped = watch.stopped or text
        raise LiveResultUsed(text)
    call = Call(self.name, arguments_text(args, kwargs, function))
    watch.step_code.setdefault(self.name, code_digest(function))
    token = _call_in_flight.set(_CallInFlight(call))
    try:
        return await _originals["__call__"](self, *args, **kwargs)
    except LiveCallReached:
        return LiveResult(call, watch)
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
            watch.live.append(Live(in_flight.call, len(watch.served)))
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
            watch.active = False
            _watch.reset(token)
