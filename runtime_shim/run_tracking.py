"""Which workflow runs started under the shim are still running, so that it is never removed under one.

MAF guards each ``FunctionalWorkflow`` against running twice at once: a run
takes the guard (``_ensure_not_running``) before its first event and gives it
back when it ends, fails or its stream is closed (``_release_run_guard``).
Wrapping the two counts the runs in progress at no cost per step or event.
A run that started before ``install()`` is not counted: it runs on MAF's own
code from start to end. A workflow object that is collected without giving
the guard back (an abandoned stream) stops counting with it.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from typing import Any


class RunTracker:
    """The workflows whose current run took MAF's guard while the shim was installed."""

    def __init__(self) -> None:
        self.running: weakref.WeakSet[Any] = weakref.WeakSet()
        self.on_idle: Callable[[], None] = lambda: None  # called when the last run ends


def taking_guard(tracker: RunTracker, original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``FunctionalWorkflow._ensure_not_running`` (its parameter keeps MAF's name: the shape check reads it)."""

    @functools.wraps(original)
    def _ensure_not_running(self: Any) -> None:
        original(self)
        tracker.running.add(self)

    return _ensure_not_running


def releasing_guard(tracker: RunTracker, original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``FunctionalWorkflow._release_run_guard`` (MAF may call it twice for one run: the second is a no-op)."""

    @functools.wraps(original)
    def _release_run_guard(self: Any) -> None:
        original(self)
        if self in tracker.running:
            tracker.running.discard(self)
            if not tracker.running:
                tracker.on_idle()

    return _release_run_guard
