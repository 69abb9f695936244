from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from steplint.analysis.flow import candidates, describe_callee, steps_among
from steplint.core.diagnostics import ERROR, WARNING, Diagnostic, Fix
from steplint.fixes.rewrites import call_attribute
from steplint.fixes.source_texts import source_text
from steplint.analysis.program import Analysis, Decorated
from steplint.analysis.graph_pins import PIN_CALL
from steplint.rules.base import NESTING, Rule
from steplint.core.summary import CallSite, ModuleSummary, Ref


class StepCallsStep(Rule):
    """
    ## What it does
    Finds a call to a step lexically inside another step's body: awaited,
    passed to `asyncio.gather`/`create_task`/`TaskGroup.create_task`, or
    stored. Nested functions and lambdas in the body count. A step given to
    a `contextlib` exit stack (`stack.push_async_callback(inner, x)`) is
    called where the stack's `with` block ends, and is reported there. Calling
    `inner.__wrapped__(...)` runs the inner code inline and is not reported.

    ## Why is this bad?
    MAF caches each step's result under a key. When the key falls back to call
    order (always on 1.19 and older; on 1.20+ when an argument cannot be
    fingerprinted and there is no `replay_key=`), a cache hit of the outer
    step on resume skips the inner calls, so the inner step's counter is not
    advanced and a later call reads another call's cached result, silently.
    On 1.20+ with fingerprintable arguments this is a warning: calls with
    equal arguments still share per-identity occurrence counters.

    ## Example
    ```python
    from agent_framework import step
    from pydantic import BaseModel


    class Job(BaseModel):
        label: str


    @step
    async def tick(job: Job) -> str:
        return job.label


    @step
    async def wrapper(job: Job) -> str:
        return await tick(job)
    ```

    ## Use instead
    Keep steps flat: call the inner step from the workflow body, or run its
    code inline with `tick.__wrapped__(job)`. Or install
    `steplint.runtime_shim` in scoped mode, which scopes inner keys by the
    outer step's key.
    ```python
    from agent_framework import step
    from pydantic import BaseModel


    class Job(BaseModel):
        label: str


    @step
    async def tick(job: Job) -> str:
        return job.label


    @step
    async def wrapper(job: Job) -> str:
        return await tick.__wrapped__(job)
    ```

    ## Fix safety
    Unsafe. The fix rewrites `await tick(job)` to `await tick.__wrapped__(job)`,
    flattening the call as DBOS does; `--fix` leaves it out unless
    `--unsafe-fixes` is given, because it changes what is checkpointed: the
    inner code then runs as part of the outer step, with no cache entry,
    checkpoint or executor events of its own, and it runs again whenever the
    outer step does. It is offered only where `__wrapped__` is a drop-in:
    a step defined by a plain or nested function (not in a class body) that
    takes no run context (`ctx`, or a `RunContext` annotation), which MAF
    would inject and `__wrapped__` does not.

    ## References
    - https://github.com/microsoft/agent-framework/issues/9383
    """

    code = "STP001"
    name = "step-calls-step"
    summary = "a step's body calls another step"
    fix = "unsafe"
    points_at = "the call expression"
    version_dependent = True
    family = NESTING
    graph_pin = PIN_CALL
    VALID = (
        """
from agent_framework import step

@step
async def tick(x: str) -> str:
    return x

@step
async def wrapper(x: str) -> str:
    return await tick.__wrapped__(x)
""",
        """
def step(fn):
    return fn

@step
async def tick(x: str) -> str:
    return x

@step
async def wrapper(x: str) -> str:
    return await tick(x)
""",
    )
    INVALID = (
        """
import agent_framework as maf

@maf.step
async def tick(x: str) -> str:
    return x

@maf.step(name="wrap")
async def wrapper(x: str) -> str:
    return await tick(x)  # expect: STP001
""",
    )

    @staticmethod
    def consequence(outer: str, inner: str, severity: str) -> str:
        """What goes wrong on resume, as it really does for the inner step's kind of key (STP002's message says it too)."""
        if severity == ERROR:
            return (
                f"on resume a cached '{outer}' skips this call and shifts the call-order key of '{inner}', so a "
                f"later call of '{inner}' takes another call's cached result"
            )
        return (
            f"on resume a cached '{outer}' skips this call, so a later call of '{inner}' with equal arguments takes "
            "this call's cached result (MAF numbers the calls with equal arguments)"
        )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        flow = analysis.flow(module)
        for outer in analysis.steps_in(module):
            for owner, call in analysis.calls_in(outer):
                calls = flow.calls_at(outer.module, call.span)
                inners = _steps(analysis, steps_among(calls))
                if not inners:
                    continue
                severity = max_severity(analysis.nested_call_severity(inner) for inner in inners)
                finding = analysis.diagnostic(
                    outer.module,
                    call.span,
                    StepCallsStep,
                    _message(outer, inners, candidates(calls), describe_callee(call.callee), severity),
                    severity=severity,
                )
                only = inners[0] if len(inners) == 1 and candidates(calls) == 1 else None
                yield replace(finding, fix=_inline_fix(analysis, outer.module, call, only) if only else None)


def _steps(analysis: Analysis, values) -> list[Decorated]:  # noqa: ANN001 - StepValues
    found: dict[str, Decorated] = {}
    for value in values:
        step = analysis.step_for(value)
        if step is not None:
            found.setdefault(step.key, step)
    return sorted(found.values(), key=lambda step: step.display)


def _message(outer: Decorated, inners: list[Decorated], count: int, callee: str, severity: str) -> str:
    names = ", ".join(f"'{inner.display}'" for inner in inners)
    first = inners[0].display
    if count > 1 or len(inners) > 1:
        noun = "step" if len(inners) == 1 else "steps"
        calls = f"may call {noun} {names} (one of {count} values of {callee})" if len(inners) == 1 else (
            f"may call {noun} {names} ({len(inners)} of the {count} values of {callee})")
    else:
        calls = f"calls step {names}"
    return f"step '{outer.display}' {calls}: {StepCallsStep.consequence(outer.display, first, severity)}; " + remedy(first)


def remedy(inner: str) -> str:
    return (
        f"call '{inner}.__wrapped__(...)' to run it inline, call it from the workflow, "
        "or install steplint.runtime_shim in scoped mode"
    )


def max_severity(severities) -> str:  # noqa: ANN001 - an iterable of severities
    return ERROR if ERROR in set(severities) else WARNING


def _inline_fix(analysis: Analysis, module: ModuleSummary, call: CallSite, inner: Decorated) -> Fix | None:
    """``tick(x)`` -> ``tick.__wrapped__(x)`` where ``__wrapped__`` takes the same arguments (see Fix safety)."""
    if not isinstance(call.callee, Ref) or not _runs_inline(analysis, inner):
        return None
    return call_attribute(
        source_text(analysis, module),
        call.span,
        call.callee.dotted,
        "__wrapped__",
        title=f"Call '{inner.display}.__wrapped__(...)' inline",
        safe=False,
    )


def _runs_inline(analysis: Analysis, inner: Decorated) -> bool:
    body = inner.body
    if body is None or body.class_qualname is not None:
        return False
    scope = analysis.index.function(inner.module, body.parent)
    return not any(analysis.is_context_param(inner.module, scope, param) for param in body.params)

