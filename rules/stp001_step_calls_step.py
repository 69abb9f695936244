from __future__ import annotations

from typing import Iterator

from steplint.diagnostics import Diagnostic
from steplint.model import Analysis
from steplint.rules.base import Rule
from steplint.summary import ModuleSummary


class StepCallsStep(Rule):
    """
    ## What it does
    Finds a call to a step lexically inside another step's body: awaited,
    passed to `asyncio.gather`/`create_task`/`TaskGroup.create_task`, or
    stored. Nested functions and lambdas in the body count. Calling
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
    @step
    async def wrapper(job: Job) -> str:
        return await tick.__wrapped__(job)
    ```

    ## Fix safety
    The fix (`--unsafe-fixes`) rewrites the call to `inner.__wrapped__(...)`.
    It is unsafe: the inner result is then no longer checkpointed on its own.

    ## References
    - https://github.com/microsoft/agent-framework/issues/9383
    """

    code = "STP001"
    name = "step-calls-step"
    summary = "a step's body calls another step"
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

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        for outer in analysis.steps_in(module):
            for owner, call in analysis.calls_in(outer):
                inner = analysis.step_of(analysis.call_target(outer.module, owner, call))
                if inner is None:
                    continue
                yield analysis.diagnostic(
                    outer.module,
                    call.span,
                    StepCallsStep,
                    f"step '{outer.display}' calls step '{inner.display}': on resume a cached "
                    f"'{outer.display}' skips this call and shifts the call-order key of '{inner.display}'; "
                    f"call '{inner.display}.__wrapped__(...)' to run it inline, call it from the workflow, "
                    "or install steplint.runtime_shim in scoped mode",
                    severity=analysis.nested_call_severity(inner),
                )
