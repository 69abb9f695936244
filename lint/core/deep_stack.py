"""Run a function on a thread with a deep stack, for code nested deeper than the defaults allow.

CPython compiles expressions nested a few thousand levels deep (``1 + 1 + ...``,
``f()()()``), but steplint's recursive walks stop at the default recursion limit
of 1000, and libcst's native parser overflows the main thread's C stack a little
beyond that (a segmentation fault, not an exception). ``call_deep`` runs a
function on a fresh thread with a large stack and a higher recursion limit, so
such a file is analyzed instead of reported, and libcst cannot crash the
process. CPython has no per-thread recursion limit: the higher limit holds for
the whole process while the call runs, so calls are serialized and the caller
waits for the thread.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Callable, TypeVar

T = TypeVar("T")

# Reserved, not committed: the pages are only touched as deep as the code nests.
STACK_BYTES = 512 * 1024 * 1024
# 30 000 Python frames use far less than STACK_BYTES even where each frame re-enters C.
RECURSION_LIMIT = 30_000

_serial = threading.RLock()  # re-entered only by the fallback below, on the same thread
_inside = threading.local()


def _fresh_lock_after_fork() -> None:
    """A forked child has one thread: a lock another thread of the parent held must not bind it."""
    global _serial
    _serial = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_lock_after_fork)


def call_deep(function: Callable[..., T], *args: object) -> T:
    """``function(*args)`` on a thread with ``STACK_BYTES`` of stack and ``RECURSION_LIMIT`` frames.

    Exceptions propagate to the caller. Where the platform refuses such a
    thread, the call runs here with the current limits.
    """
    if getattr(_inside, "deep", False):
        return function(*args)  # already on a deep stack
    outcome: dict[str, object] = {}

    def run() -> None:
        _inside.deep = True
        try:
            outcome["value"] = function(*args)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            outcome["error"] = exc

    with _serial:
        thread = threading.Thread(target=run, name="steplint-deep-stack", daemon=True)
        try:
            previous_size = threading.stack_size(STACK_BYTES)
        except (ValueError, RuntimeError):
            return function(*args)
        previous_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(previous_limit, RECURSION_LIMIT))
        try:
            try:
                thread.start()  # the stack size applies when the OS thread is created
            finally:
                threading.stack_size(previous_size)
            thread.join()
        except RuntimeError:  # no thread to be had: run here, with the usual limits
            sys.setrecursionlimit(previous_limit)
            return function(*args)
        finally:
            sys.setrecursionlimit(previous_limit)
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]
