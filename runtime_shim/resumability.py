"""Which runs can be resumed, so that replay verification is paid only there (issue 27, item 7).

From MAF's sources (``FunctionalWorkflow._run_core``, the same on 1.18 to 1.26), a run's step cache is
handed to a later run in two ways only:

* a checkpoint: saved only when the run has a checkpoint storage (MAF sets
  ``RunContext._on_step_completed`` exactly then, before the workflow function runs);
* a response-only replay (``run(responses=...)`` without ``checkpoint_id``): MAF captures the cache when
  the run pauses on ``request_info`` (``WorkflowInterrupted``), or, on 1.19, when it ends with
  requests pending; 1.18 copies it after every return of the body, and a later ``run(responses=...)``
  takes it while an earlier run's requests are still pending. Either needs a call of
  ``RunContext.request_info`` (in the run, or in an earlier run of the same workflow on 1.18).

So a run records its calls (and checks them for argument mutation) when it has a storage, when it was
itself restored (a non-empty cache or responses at its first lookup), or when it can be seen to pause:
the module that defines its workflow function names ``request_info`` or ``get_run_context`` anywhere.
A storage-less run of a workflow whose module names neither records nothing; if code elsewhere pauses it
all the same, the replay takes its earlier entries as MAF does and says so (``UnverifiedReplayWarning``).
"""

from __future__ import annotations

import functools
import sys
import weakref
from collections.abc import Callable
from contextvars import ContextVar
from types import CodeType, ModuleType
from typing import Any

PAUSE_NAMES = frozenset({"request_info", "get_run_context"})

# The workflow whose run is starting (set when it takes MAF's run guard, read when its run makes its first lookup).
starting_workflow: ContextVar[Any] = ContextVar("steplint_starting_workflow", default=None)
# module -> its verdict, held weakly: a verdict per module ever run, gone with the module
_pausing_modules: weakref.WeakKeyDictionary[ModuleType, bool] = weakref.WeakKeyDictionary()


def noting_start(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``FunctionalWorkflow._ensure_not_running`` (taken once per run, in the task that starts it): note the
    workflow for its run's first lookup (weakly: the caller's context keeps it)."""

    @functools.wraps(original)
    def _ensure_not_running(self: Any) -> None:
        original(self)
        starting_workflow.set(weakref.ref(self))

    return _ensure_not_running


def resumable(run_context: Any, state: Any) -> bool:
    """The run's verdict, judged once (``state.resumable``)."""
    if state.resumable is None:
        state.resumable = can_resume(run_context)
    return state.resumable


def _names_a_pause(code: CodeType) -> bool:
    if PAUSE_NAMES.intersection(code.co_names):
        return True
    return any(isinstance(const, CodeType) and _names_a_pause(const) for const in code.co_consts)


def module_can_pause(module_name: str | None) -> bool:
    """Whether the module's source names a way to pause a run (unknown: it may)."""
    module = sys.modules.get(module_name or "")
    if module is None:
        return True
    cached = _pausing_modules.get(module)
    if cached is None:
        cached = _pausing_modules[module] = _source_names_a_pause(getattr(module, "__file__", None))
    return cached


def _source_names_a_pause(filename: str | None) -> bool:
    try:
        with open(filename, "rb") as source:  # type: ignore[arg-type]
            return _names_a_pause(compile(source.read(), filename, "exec", dont_inherit=True))  # type: ignore[arg-type]
    except Exception:  # no source to read: assume it can
        return True


def can_resume(run_context: Any) -> bool:
    """Whether this run's cache can reach a later run (see the module docstring); judged at its first lookup."""
    if run_context._on_step_completed is not None or run_context._step_cache or run_context._responses:
        return True
    reference = starting_workflow.get()
    workflow = reference() if reference is not None else None
    function = getattr(workflow, "_func", None)
    return function is None or module_can_pause(getattr(function, "__module__", None))
