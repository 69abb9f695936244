"""Replacement for ``StepWrapper.__call__``.

It delegates to MAF's own ``__call__`` for all caching, events and
checkpointing; it only records which step call is running, so that nested
calls can be refused (flat mode) or scoped by their parent (scoped mode).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from steplint.runtime_shim.errors import NestedStepError
from steplint.runtime_shim.frames import StepFrame, current_step_frame
from steplint.runtime_shim.run_state import STATE_ATTRIBUTE

StepCall = Callable[..., Any]


def shimmed_step_call(
    original: StepCall,
    active_run_ctx: ContextVar[Any],
    *,
    refuse_nesting: bool,
    start_run: Callable[[Any], Any] | None = None,
) -> StepCall:
    """Wrap MAF's ``StepWrapper.__call__``.

    With *refuse_nesting*, a step entered from another step's body (or from a
    task that body spawned, whenever the task runs) raises NestedStepError
    before MAF allocates a key, looks up the cache, emits an event or saves a
    checkpoint. Otherwise the enclosing call becomes the parent frame that the
    patched key allocators scope the new key by, and *start_run* judges the
    run's restored cache at its first step call.
    """

    @functools.wraps(original)
    async def __call__(self: Any, *args: Any, **kwargs: Any) -> Any:
        run_context = active_run_ctx.get()
        state = None if run_context is None else getattr(run_context, STATE_ATTRIBUTE, None)  # run_state_of, inlined
        if state is None or state.bypass:
            # outside a run, in a run that started before install(), or (scoped) in a run no later run can
            # resume: MAF's own code
            return await original(self, *args, **kwargs)
        # A frame from another run (a workflow started inside a step body) is not a parent.
        parent = current_step_frame.get()
        if parent is not None and parent.run_context is not run_context:
            parent = None
        if refuse_nesting and parent is not None:
            # Also from a task the body spawned after the body returned: whether it starts before the
            # step's checkpoint is saved depends on the storage, so the rule must not.
            raise NestedStepError(parent.step_name, self.name)
        if start_run is not None and not state.judged:
            start_run(run_context)  # the run's first step call
            if state.bypass:
                return await original(self, *args, **kwargs)
        frame = StepFrame(run_context, self.name, parent, (self, args, kwargs), state)
        token = current_step_frame.set(frame)
        try:
            return await original(self, *args, **kwargs)
        except Exception:
            if frame.place is not None:  # a retry of the same call abandons this attempt (RunState.place_of)
                state.note_failed(frame)
            raise
        finally:
            current_step_frame.reset(token)

    return __call__
