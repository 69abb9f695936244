"""Runs generated programs on the installed agent-framework-core and records what happened.

Run as a script in an interpreter that has agent-framework-core (not necessarily steplint):

    python trace_child.py ROOT NAME [NAME ...]

For each program package ROOT/NAME it imports NAME.main, runs every workflow of its sidecar once
per mode, and prints one JSON line: ``nested`` (a step entered while another step's body runs:
the rule it is the ground truth for, STP001 when the call is in the outer body itself, nested
functions and lambdas included, STP002 when plain functions of the program come between, and the
line in the outer body), ``refused`` (calls MAF refused as concurrent without a replay identity,
at the call that made the coroutine handed to another task), ``reached`` (the lines that ran),
``outside`` (steps entered in a step's body from a coroutine made elsewhere) and ``error``.

Nothing of MAF is edited: ``StepWrapper.__call__`` is replaced on the class by a plain function
that records where the call is made and returns a coroutine around the original, and the loop's
task factory (which MAF chains to) records where each task's coroutine was made, so a stack can
be followed across tasks. A refused call is recorded and then run without MAF, so the rest of the
program still runs and is traced.
"""

from __future__ import annotations

import asyncio
import contextvars
import importlib
import inspect
import json
import os
import sys
import traceback
import weakref
from pathlib import Path

from agent_framework._workflows import _functional

REFUSAL = "Cannot derive a stable replay identity for concurrent"
ORIGIN_DEPTH = 64

Frame = tuple[str, int]  # (file, line)


class Recorder:
    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root) + os.sep
        self.nested: set[tuple[str, str, int]] = set()
        self.refused: set[tuple[str, int]] = set()
        self.outside: set[tuple[str, str]] = set()
        self.reached: set[tuple[str, int]] = set()
        self.task_origins: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.ranges: dict[object, tuple[str, int, int]] = {}

    def relative(self, filename: str) -> str | None:
        real = os.path.realpath(filename)
        return real[len(self.root):] if real.startswith(self.root) else None

    def program_frames(self, raw: list[Frame]) -> list[Frame]:
        """The frames of the program's own files, innermost first, the rest (MAF, asyncio, stdlib) left out."""
        kept = []
        for filename, line in raw:
            relative = self.relative(filename)
            if relative is not None:
                kept.append((relative, line))
        return kept

    def logical_stack(self, raw: list[Frame]) -> list[Frame]:
        """*raw* continued by the stack that made the current task's coroutine, and so on outward."""
        task = _current_task()
        return self.program_frames(raw) + (self.task_origin(task) if task is not None else [])

    def task_origin(self, task: asyncio.Task) -> list[Frame]:
        """Where *task*'s coroutine was made; a task made as ``asyncio.Task(coro)`` skips the loop's task factory,
        so its coroutine's own origin is read (without the stack of the task that made it)."""
        if task in self.task_origins:
            return self.task_origins[task]
        return self.program_frames(_origin_of(task.get_coro()))

    def body_range(self, wrapper: object) -> tuple[str, int, int] | None:
        if wrapper not in self.ranges:
            func = inspect.unwrap(wrapper._func)  # type: ignore[attr-defined]
            relative = self.relative(inspect.getsourcefile(func) or "")
            lines, first = inspect.getsourcelines(func)
            self.ranges[wrapper] = (relative, first, first + len(lines) - 1) if relative else None  # type: ignore[assignment]
        return self.ranges[wrapper]

    def record_nested(self, outer: object, inner: object, stack: list[Frame]) -> None:
        body = self.body_range(outer)
        if body is None:
            return
        path, first, last = body
        for depth, (relative, line) in enumerate(stack):
            if relative == path and first <= line <= last:
                self.nested.add(("STP001" if depth == 0 else "STP002", relative, line))
                return
        self.outside.add((outer.name, inner.name))  # type: ignore[attr-defined]


def _current_task() -> asyncio.Task | None:
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None


def _live_frames(skip: int) -> list[Frame]:
    frame = sys._getframe(skip + 1)
    frames = []
    while frame is not None:
        frames.append((frame.f_code.co_filename, frame.f_lineno))
        frame = frame.f_back
    return frames


RUNNING_STEP: contextvars.ContextVar[object | None] = contextvars.ContextVar("running_step", default=None)


def install(recorder: Recorder) -> None:
    original = _functional.StepWrapper.__call__

    async def entered(wrapper, stack, args, kwargs):  # noqa: ANN001
        outer = RUNNING_STEP.get()
        if outer is not None and _functional._active_run_ctx.get() is not None:
            recorder.record_nested(outer, wrapper, stack)
        token = RUNNING_STEP.set(wrapper)
        try:
            try:
                return await original(wrapper, *args, **kwargs)
            except ValueError as error:
                if REFUSAL not in str(error):
                    raise
                task = _current_task()
                origin = recorder.task_origin(task) if task is not None else []
                recorder.refused.add(origin[0] if origin else ("?", 0))
                return await wrapper._func(*args, **kwargs)
        finally:
            RUNNING_STEP.reset(token)

    def traced_call(wrapper, *args, **kwargs):  # noqa: ANN001
        return entered(wrapper, recorder.logical_stack(_live_frames(1)), args, kwargs)

    _functional.StepWrapper.__call__ = traced_call


def task_factory(recorder: Recorder):  # noqa: ANN201
    def create(loop, coro, **kwargs):  # noqa: ANN001
        task = asyncio.Task(coro, loop=loop, **kwargs)
        recorder.task_origins[task] = recorder.logical_stack(_origin_of(coro))
        return task

    return create


def _origin_of(coro) -> list[Frame]:  # noqa: ANN001
    """Where the coroutine handed to a task was made (MAF wraps it in its own tracking coroutine)."""
    frame = getattr(coro, "cr_frame", None)
    if frame is not None and frame.f_code.co_name == "_tracked_coro":
        coro = frame.f_locals.get("coro", coro)
    return [(filename, line) for filename, line, _ in (getattr(coro, "cr_origin", None) or ())]


def line_tracer(recorder: Recorder):  # noqa: ANN201
    def local(frame, event, arg):  # noqa: ANN001
        if event == "line":
            recorder.reached.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def global_(frame, event, arg):  # noqa: ANN001
        return local if frame.f_code.co_filename.startswith(recorder.root) else None

    return global_


async def run_workflow(recorder: Recorder, definition, mode: str) -> None:  # noqa: ANN001
    asyncio.get_running_loop().set_task_factory(task_factory(recorder))
    await definition.build().run(mode)


def run_program(root: str, name: str) -> dict:
    recorder = Recorder(os.path.join(root, name))
    install(recorder)
    sidecar = json.loads(Path(root, name, "program.json").read_text())
    error = None
    sys.settrace(line_tracer(recorder))
    try:
        module = importlib.import_module(f"{name}.main")
        for workflow_name in sidecar["workflows"]:
            for mode in sidecar["modes"]:
                asyncio.run(run_workflow(recorder, getattr(module, workflow_name), mode))
    except BaseException:  # noqa: BLE001 - a broken program is reported, not fatal to the batch
        error = traceback.format_exc(limit=8)
    finally:
        sys.settrace(None)
    reached = sorted({(recorder.relative(f), line) for f, line in recorder.reached if recorder.relative(f)})
    return {
        "program": name,
        "nested": sorted(recorder.nested),
        "refused": sorted(recorder.refused),
        "outside": sorted(recorder.outside),
        "reached": reached,
        "error": error,
    }


def main(argv: list[str]) -> None:
    root, names = os.path.realpath(argv[0]), argv[1:]
    sys.path.insert(0, root)
    sys.set_coroutine_origin_tracking_depth(ORIGIN_DEPTH)
    original = _functional.StepWrapper.__call__
    for name in names:
        _functional.StepWrapper.__call__ = original
        print(json.dumps(run_program(root, name)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
