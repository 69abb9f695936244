"""Which step call is running, tracked per asyncio task.

A context variable holds the frame of the innermost shimmed ``@step`` call.
asyncio copies the current context into every task it creates, so tasks a
step body spawns (``gather``, ``create_task``, ``TaskGroup``) see the frame
of the step that spawned them, which is exactly the parent we want: a task a
step body spawned is that step's, whenever it runs (even after the body
returned), so flat mode refuses its step calls and scoped mode scopes them.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

try:  # CPython's own SHA-256: the same digest as OpenSSL's, without its per-object set-up (a third of the cost)
    from _sha256 import sha256 as _sha256
except ImportError:  # pragma: no cover - a build without it
    _sha256 = hashlib.sha256


def _task_getter() -> Callable[[], Any]:
    """``asyncio.current_task`` without its Python-level wrapper where the running loop's task table is at hand
    (3.11: the wrapper costs a fifth of the frame it runs in)."""
    current = asyncio.current_task
    table = getattr(asyncio.tasks, "_current_tasks", None)
    if type(current) is not type(_task_getter) or not isinstance(table, dict):
        return current  # implemented in C already, or a layout this does not know
    running_loop = asyncio.events._get_running_loop

    def current_task() -> Any:
        loop = running_loop()
        return None if loop is None else table.get(loop)

    return current_task


current_task = _task_getter()

# A scoped key carries "@" and the parent call's scope token: "tick@<16 hex>::0".
SCOPE_SEPARATOR = "@"
_SCOPE_LENGTH = 16


def scope_token(key_text: str, record: Any, after_return: bool = False) -> str:
    """The token that scopes the children of the call cached under *key_text* with *record* (``StepFrame.scope``);
    *after_return*: of the calls made in tasks its body spawned that started after the body returned."""
    text = f"{key_text}#{record:x}" if type(record) is int and record > 1 else key_text
    if after_return:
        text += "#after-return"
    return _sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:_SCOPE_LENGTH]


def place_text(stem: tuple[Any, ...], occurrence: int) -> str:
    """A call's place (``RunState.place_of``) as text: ``<parent's token>/<step>#<record in hex, or wrapper
    identity:identity>#<occurrence>``."""
    parent, step_name, what = stem
    shown = f"{what:x}" if type(what) is int else ":".join(what)
    return f"{'' if parent is None else parent}/{step_name}#{shown}#{occurrence}"


def key_text(key: Any) -> str:
    """The text a checkpoint stores for *key* (counter-scheme keys are ``(name, index)`` tuples)."""
    if isinstance(key, tuple):
        name, index = key
        return f"{name}::{index}"
    return str(key)


class StepFrame:
    """One shimmed ``@step`` call inside one workflow run.

    ``run_context`` ties the frame to its run: a workflow started from inside a
    step body inherits this context variable but must not treat the outer
    run's step as its parent. ``key`` is the cache key MAF settled on for this
    call (the last one allocated: a versioned key wins over the legacy key
    allocated before it, as in ``StepWrapper.__call__``). ``task`` is the task
    the call runs in: a child in another task runs in a task its body spawned
    (None in a run whose cache was empty at its first lookup: only a restored
    run asks).
    """

    __slots__ = ("run_context", "state", "step_name", "parent", "key", "call", "record", "record_pending", "snapshot",
                 "task", "returned", "identity", "place", "_scope")

    def __init__(self, run_context: Any, step_name: str, parent: StepFrame | None,
                 call: tuple[Any, tuple[Any, ...], dict[str, Any]] | None = None, state: Any = None) -> None:
        self.run_context = run_context
        self.state = state  # the run's RunState (run_state), read by every hook of the call
        self.step_name = step_name
        self.parent = parent
        self.key: Any = None
        self.call = call  # (the StepWrapper, its args, its kwargs): what replay verification digests
        self.record: Any = None  # the call's replay record, made at its first call-order cache lookup
        self.record_pending: Any = None  # the key whose record goes into the log with its entry, when the body completes
        self.snapshot: Any = None  # with the record: what tells cheaply that the body changed no argument (field_snapshot)
        # Read only where a run may adopt a restored entry (memo_adoption), never in one whose cache was empty.
        restored = None if state is None else state.restored_keys
        self.task = current_task() if restored is None or restored else None
        self.returned = False  # the body returned and MAF cached its result (scoped mode notes it)
        self.identity: Any = None  # (step name, wrapper identity, identity) MAF keyed the call by, before scoping
        self.place: Any = None  # with verification: (stem, occurrence) naming the call among its parent's (RunState.place_of)
        self._scope: str | None = None

    def scope(self) -> str:
        """Short, stable token naming this call, used to scope its children's keys.

        A digest rather than the key itself keeps scoped keys bounded in length
        at any depth and free of JSON escaping (fingerprint keys are JSON). A
        key names a position, not a call, and the position moves on a resume:
        a call-order key counts every call of the step (on 1.20+ the
        fingerprinted ones too), and an occurrence of a fingerprint counts a
        failed attempt. So where replay verification recorded the call, the
        token names the call instead (its *place*: its parent's token, its
        step, its record or identity, and its occurrence among equal calls of
        that parent, where a retry takes a failed attempt's place). The same call
        then scopes its children alike in a resume in another order, and two
        calls that took the same key in two runs never share their children's
        entries.
        """
        if self.returned:  # a task its body spawned and left running (a memoized load started for later steps)
            return scope_token(key_text(self.key), self.record, after_return=True)
        if self._scope is None:
            place = self.place
            if place is None:
                self._scope = scope_token(key_text(self.key), self.record)
            else:  # the place names the record already
                self._scope = scope_token(place_text(*place), None)
        return self._scope

    def made_nested_calls(self) -> bool:
        """Whether a call was scoped by this one (its token is made at its first nested call)."""
        return self._scope is not None

    def in_spawned_task(self) -> bool:
        """Whether this nested call runs in a task its parent's body spawned (not in the parent's own task)."""
        return self.parent is not None and current_task() is not self.parent.task


current_step_frame: ContextVar[StepFrame | None] = ContextVar("steplint_current_step_frame", default=None)
