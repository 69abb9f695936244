from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.analysis.program import Analysis
from steplint.analysis.step_reach import StepReach
from steplint.rules.base import Rule
from steplint.core.summary import ModuleSummary


class StepReachesStep(Rule):
    """
    ## What it does
    Finds a call in a step's body to a plain (non-step) function or method of
    the analyzed code that, directly or through other plain functions, calls
    a step. The finding is at the call in the outer step, and the message
    shows the chain `outer -> helper -> inner`.

    ## Why is this bad?
    It is STP001 in disguise: the helper runs inside the outer step's body,
    so the inner step is still nested, and a cache hit of the outer step on
    resume shifts the inner step's call-order key.

    ## Example
    ```python
    async def load(job: Job) -> str:
        return await tick(job)

    @step
    async def wrapper(job: Job) -> str:
        return await load(job)
    ```

    ## Use instead
    Call the helper from the workflow body, have the helper call
    `tick.__wrapped__(...)`, or install `steplint.runtime_shim` in scoped mode.

    ## References
    - https://github.com/microsoft/agent-framework/issues/9383
    """

    code = "STP002"
    name = "step-reaches-step"
    summary = "a step's body calls a helper that calls a step"
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
        reach = analysis.service(StepReach)
        for outer in analysis.steps_in(module):
            for owner, call in analysis.calls_in(outer):
                target = analysis.call_target(outer.module, owner, call)
                if not reach.plain_function(target) or _nested_in(target, outer):
                    continue
                found = reach.reach(target)  # type: ignore[arg-type]
                if found is None:
                    continue
                inner = found.step
                names = [outer.display, *(_display(t.name) for t in found.chain), inner.display]
                qualified = [
                    f"{outer.module.module}.{_qualname(outer)}",
                    *(f"{t.module.module}.{t.name}" for t in found.chain),  # type: ignore[union-attr]
                    f"{inner.module.module}.{_qualname(inner)}",
                ]
                yield analysis.diagnostic(
                    outer.module,
                    call.span,
                    StepReachesStep,
                    f"step '{outer.display}' reaches step '{inner.display}' through plain functions "
                    f"({' -> '.join(names)}): on resume a cached '{outer.display}' skips the inner call and "
                    f"shifts the call-order key of '{inner.display}'; call '{inner.display}.__wrapped__(...)' "
                    "in the helper, call the helper from the workflow, or install steplint.runtime_shim in scoped mode",
                    severity=analysis.nested_call_severity(inner),
                    chain=tuple(qualified),
                )


def _nested_in(target, outer) -> bool:  # noqa: ANN001
    """Functions defined inside the step's body are already checked as part of it (STP001)."""
    body = outer.body
    return body is not None and target.module is outer.module and target.name.startswith(f"{body.qualname}.<locals>.")


def _display(qualname: str) -> str:
    return qualname.replace(".<locals>", "")


def _qualname(item) -> str:  # noqa: ANN001 - a Decorated
    return item.body.qualname if item.body is not None else item.display
