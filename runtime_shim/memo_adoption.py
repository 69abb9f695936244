"""A memoized task is the same call whichever step starts it (issue 27, scenario 9).

Scoped mode scopes a nested call's key by the step whose body (or a task that
body spawned) made it. A shared load that whichever step needs it first starts
in a task (an ``asyncio.Task`` kept in a module-level memo, awaited by every
step that needs it) is scoped by the step that started it. On a resume where
that step is a cache hit, another step starts the task, so the call gets
another key, misses, and its completed body runs again, where MAF alone
(whose keys are not scoped) takes it from the checkpoint.

Which step will start such a task cannot be known when it is first made. What
can be known is whether the task outlived the body that started it: a call
that starts after its parent's body returned (``StepFrame.returned``) is
scoped apart (``scope_token(..., after_return=True)``), and such an entry is
no call of the parent's body that a resume could repeat. So on the resume a
nested call made in a task its parent's body spawned whose key misses takes a
*restored* entry of the same call that a task left running by another parent
made (*adopted*), when

* the entry names the same call: the same step and an equal replay record
  (call-order keys), or the same step, wrapper identity and argument
  fingerprint (MAF's identity keys on 1.20+); a call without a record (an
  undigestable one, a cache made without verification) is never adopted;
* the entry's own call can no longer ask for it in this run: its parent's
  entry is in the cache under the record that scoped it, so that parent is a
  cache hit whose body does not run again (a parent re-run after a mismatch
  gets a fresh scope).

The entry moves to the call's key with its record, so a later checkpoint holds
it once. Entries the run made itself are never adopted: in an uninterrupted
run each call runs its body as MAF alone runs it. Not settled: a memoized task
whose starter awaits it before returning is, as far as anything can tell, that
step's own gathered call (two such calls with equal arguments under two
parents are two calls), so it runs again on a resume where another step
starts it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from steplint.runtime_shim.frames import SCOPE_SEPARATOR, key_text, scope_token
from steplint.runtime_shim.framework import COUNTER, Framework

_HEX = frozenset("0123456789abcdef")
_TOKEN_LENGTH = 16

# key, its record -> (what names the call apart from its parent, the parent's scope token), or None
CallOfKey = Callable[[Any, Any], "tuple[Any, str] | None"]


def _split_scope(text: str) -> tuple[str, str] | None:
    base, separator, scope = text.rpartition(SCOPE_SEPARATOR)
    if not separator or len(scope) != _TOKEN_LENGTH or not _HEX.issuperset(scope):
        return None
    return base, scope


def nested_call_of_key(framework: Framework) -> CallOfKey:
    """How the release's keys name a nested call (None for a top-level key, an explicit key, or no record)."""
    decode = None if framework.scheme == COUNTER else framework.module._decode_versioned_step_cache_key

    def call_of(key: Any, record: Any) -> tuple[Any, str] | None:
        if isinstance(key, tuple):
            name = key[0]
        else:
            decoded = decode(key) if decode is not None else None
            if decoded is not None:
                kind, step, wrapper, identity, _occurrence = decoded
                split = _split_scope(identity) if kind == "auto" else None
                return None if split is None else (("auto", step, wrapper, split[0]), split[1])
            name = key.rpartition("::")[0]
        split = _split_scope(name)
        if split is None or type(record) is not int or record <= 1:
            return None
        return ("order", split[0], record), split[1]

    return call_of


class Orphans:
    """A run's restored nested entries by the call they name, and its restored keys by the scope they give."""

    __slots__ = ("by_call", "parents")

    def __init__(self, restored_keys: list[Any], record_of: Callable[[Any], Any], call_of: CallOfKey) -> None:
        self.parents: dict[str, Any] = {}  # the scope a cached call gave the tasks it left running -> its key
        self.by_call: dict[Any, list[tuple[Any, str]]] = {}
        for key in restored_keys:
            record = record_of(key)
            self.parents[scope_token(key_text(key), record, after_return=True)] = key
            found = call_of(key, record)
            if found is not None:
                self.by_call.setdefault(found[0], []).append((key, found[1]))

    def take(self, call: Any, own_scope: str, cache: dict[Any, Any], record_of: Callable[[Any], Any]) -> Any:
        """The key of a restored entry of *call* whose own call cannot ask for it any more, or None."""
        for index, (key, scope) in enumerate(self.by_call.get(call, ())):
            if scope == own_scope or key not in cache:
                continue
            parent = self.parents.get(scope)
            if parent is None or parent not in cache or \
                    scope_token(key_text(parent), record_of(parent), after_return=True) != scope:
                continue
            del self.by_call[call][index]
            return key
        return None
