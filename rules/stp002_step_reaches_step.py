from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.analysis.program import Analysis
from steplint.analysis.flow import candidates, describe_callee, function_of, is_plain_callable, unit_display, unit_qualified
from steplint.analysis.values import StepValue
from steplint.analysis.graph_pins import PIN_CALL
from steplint.rules.base import NESTING, Rule
from steplint.rules.stp001_step_calls_step import StepCallsStep
from steplint.core.summary import display_qualname, ModuleSummary


class StepReachesStep(Rule):
    """
    ## What it does
    Finds a call in a step's body to a plain (non-step) function or method of
    the analyzed code that, directly or through other plain functions, calls
    a step. The methods Python calls for the body are calls too:
    `async with x` (`__aenter__`, and `__aexit__` where the block ends),
    `async for` (`__aiter__`/`__anext__`), `for`, `await obj` (`__await__`),
    a property's getter and `__getattr__`; they are reported at the `with`
    or `for` line, the `await`, or the attribute read. The finding is at the
    call in the outer step, or, where the helper's coroutine is made on one
    line and awaited on another (`pending = helper(x)`, then `await pending`),
    at the `await`, where its body runs; one handed to a task (`gather`,
    `create_task`) stays at the call that made it. The message shows the
    chain `outer -> helper -> inner`.

    ## Why is this bad?
    It is STP001 in disguise: the helper runs inside the outer step's body,
    so the inner step is still nested, and a cache hit of the outer step on
    resume shifts the inner step's call-order key.

    ## Example
    ```python
    from agent_framework import step


    @step
    async def tick(label: str) -> str:
        return label


    async def load(label: str) -> str:
        return await tick(label)


    @step
    async def wrapper(label: str) -> str:
        return await load(label)
    ```

    ## Use instead
    Call the helper from the workflow body, have the helper call
    `tick.__wrapped__(...)`, or install `steplint.runtime_shim` in scoped mode.
    ```python
    from agent_framework import step, workflow


    @step
    async def tick(label: str) -> str:
        return label


    async def load(label: str) -> str:
        return await tick(label)


    @workflow
    async def run(label: str) -> str:
        return await load(label)
    ```

    ## References
    - https://github.com/microsoft/agent-framework/issues/9383
    """

    code = "STP002"
    name = "step-reaches-step"
    summary = "a step's body calls a helper that calls a step"
    points_at = "the call expression"
    version_dependent = True
    family = NESTING
    graph_pin = PIN_CALL
    INVALID = (
        """
from agent_framework import step

@step
async def tick(x: str) -> str:
    return x

async def helper(x: str) -> str:
    return await tick(x)

@step
async def wrapper(x: str) -> str:
    return await helper(x)  # expect: STP002
""",
    )
    VALID = (
        """
from agent_framework import step

@step
async def tick(x: str) -> str:
    return x

async def helper(x: str) -> str:
    return await tick.__wrapped__(x)

@step
async def wrapper(x: str) -> str:
    return await helper(x)
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        flow = analysis.flow(module)
        for outer in analysis.steps_in(module):
            for owner, call in analysis.calls_in(outer):
                calls = flow.calls_at(outer.module, call.span)
                starts = [
                    unit
                    for callee, ids in calls.items()
                    if is_plain_callable(callee)
                    for unit in flow.units(ids)
                    if not _nested_in(unit, outer)
                ]
                if not starts:
                    continue
                # A step called from a function defined in the body (a lambda handed to a helper) is STP001's, there.
                found = flow.reach(starts, lambda unit, site, callee: _is_step(analysis, callee)
                                   and not _nested_in(unit, outer))
                if found is None:
                    continue
                inner = analysis.step_for(found.callee)  # type: ignore[arg-type]
                assert inner is not None
                helpers = [unit_display(unit) for unit in found.chain]
                names = [outer.display, *helpers, inner.display]
                qualified = [
                    f"{outer.module.module}.{_qualname(outer)}",
                    *(unit_qualified(unit) for unit in found.chain),
                    f"{inner.module.module}.{_qualname(inner)}",
                ]
                count = candidates(calls)
                through = f" (through one of {count} values of {describe_callee(call.callee)})" if count > 1 else ""
                severity = analysis.nested_call_severity(inner)
                yield analysis.diagnostic(
                    outer.module,
                    call.span,
                    StepReachesStep,
                    f"step '{outer.display}' reaches step '{inner.display}' through plain functions "
                    f"({' -> '.join(names)}){through}: {StepCallsStep.consequence(outer.display, inner.display, severity)}; "
                    f"call '{inner.display}.__wrapped__(...)' in the helper, call the helper from the workflow, "
                    "or install steplint.runtime_shim in scoped mode",
                    severity=severity,
                    chain=tuple(qualified),
                )


def _is_step(analysis: Analysis, callee) -> bool:  # noqa: ANN001 - a value of the analysis
    return isinstance(callee, StepValue) and callee.kind == "step" and analysis.step_for(callee) is not None


def _nested_in(unit, outer) -> bool:  # noqa: ANN001
    """Functions defined inside the step's body are already checked as part of it (STP001)."""
    body, function = outer.body, function_of(unit)
    return (
        body is not None and function is not None and function.path == outer.module.path
        and function.qualname.startswith(f"{body.qualname}.<locals>.")
    )


def _qualname(item) -> str:  # noqa: ANN001 - a Decorated
    return display_qualname(item.body.qualname) if item.body is not None else item.display
