from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import WARNING, Diagnostic
from steplint.analysis.program import Analysis
from steplint.analysis.flow import is_plain_callable, unit_display
from steplint.analysis.values import ExternalValue
from steplint.analysis.graph_pins import PIN_WORKFLOW_BODY
from steplint.rules.base import NONDETERMINISM, Rule
from steplint.core.summary import CallSite, ModuleSummary

# Calls whose value differs from one run to the next, by full name.
_NONDETERMINISTIC = frozenset({
    "time.time", "time.time_ns", "time.monotonic", "time.monotonic_ns", "time.perf_counter", "time.perf_counter_ns",
    "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today", "datetime.date.today",
    "uuid.uuid1", "uuid.uuid4", "os.urandom", "os.getrandom",
})
# Every function of these modules, except the deterministic ones.
_NONDETERMINISTIC_MODULES = {
    "random": frozenset({"seed", "getstate", "setstate", "Random", "SystemRandom"}),
    "secrets": frozenset({"compare_digest"}),
}


def nondeterministic(name: str | None) -> bool:
    if name is None or "()" in name:
        return False
    if name in _NONDETERMINISTIC:
        return True
    module, _, function = name.partition(".")
    exempt = _NONDETERMINISTIC_MODULES.get(module)
    return exempt is not None and "." not in function and function not in exempt and not function.startswith("_")


class NondeterministicWorkflow(Rule):
    """
    ## What it does
    Finds a call in a workflow's body, outside any step, to a function whose
    value changes from run to run: `time.time/time_ns/monotonic/perf_counter`
    (and their `_ns` forms), `datetime.now/utcnow/today`, `date.today`,
    `random.*` (not `seed`, `getstate`, `setstate`, `Random`,
    `SystemRandom`), `uuid.uuid1/uuid4`, `os.urandom`, `secrets.*` (not
    `compare_digest`), under any import alias (`import time as t`,
    `from datetime import datetime as dt`).

    It is reported at the call in the workflow body: the call itself, or the
    call of a plain helper (of the analyzed code) that makes one, directly
    or through other plain helpers; the message then shows the chain
    `workflow -> helper -> time.time`. A helper called only from steps, or
    from code that steps call, is never reported; one that the workflow and
    steps both call is reported only at the workflow's call. Calls inside a
    step body, inside a nested `def` the workflow does not call, or inside a
    lambda (which may run later, inside a step) are not workflow-body calls.

    ## Why is this bad?
    On resume (from a checkpoint, or after human-in-the-loop input) MAF runs
    the workflow body again from the top and returns cached step results.
    Code outside steps really runs again and gets another value: a
    timestamp, a random choice or an id that differs from the first run,
    fed to a step as an argument, changes its fingerprint (a cache miss that
    redoes the work) or sends the workflow down another branch.

    ## Example
    ```python
    import time

    from agent_framework import step, workflow


    @step
    async def process(job: str, started: float) -> str:
        return f"{job}@{started}"


    @workflow
    async def pipeline(job: str) -> str:
        started = time.time()
        return await process(job, started)
    ```

    ## Use instead
    Make the value inside a step, whose result is cached and replayed:
    ```python
    import time

    from agent_framework import step, workflow


    @step
    async def process(job: str, started: float) -> str:
        return f"{job}@{started}"


    @step
    async def now() -> float:
        return time.time()


    @workflow
    async def pipeline(job: str) -> str:
        started = await now()
        return await process(job, started)
    ```

    ## References
    - MAF replays the workflow body on resume (`FunctionalWorkflow`): https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    """

    code = "STP030"
    name = "nondeterministic-workflow"
    severity = WARNING
    summary = "a workflow body calls time/random/uuid... outside a step"
    points_at = "the call expression"
    family = NONDETERMINISM
    graph_pin = PIN_WORKFLOW_BODY
    INVALID = (
        """
import time as t
from agent_framework import workflow

@workflow
async def pipeline(job: str) -> str:
    return f"{job}@{t.time()}"  # expect: STP030
""",
    )
    VALID = (
        """
import time
from agent_framework import step, workflow

@step
async def now() -> float:
    return time.time()

@workflow
async def pipeline(job: str) -> str:
    return f"{job}@{await now()}"
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        flow = analysis.flow(module)
        for workflow in analysis.workflows_in(module):
            body = workflow.body
            if body is None:
                continue
            for call in body.calls:
                if call.in_lambda:
                    continue
                calls = flow.calls_at(workflow.module, call.span)
                names = sorted(v.name for v in calls if isinstance(v, ExternalValue) and nondeterministic(v.name))
                if names:
                    yield self._report(analysis, workflow, call, f"calls {names[0]}()", names[0])
                    continue
                starts = [u for callee, ids in calls.items() if is_plain_callable(callee) for u in flow.units(ids)]
                found = flow.reach(starts, lambda unit, site, callee: isinstance(callee, ExternalValue) and nondeterministic(callee.name)) if starts else None
                if found is not None:
                    names_ = [unit_display(unit) for unit in found.chain]
                    reached = found.callee.name  # type: ignore[union-attr]
                    path = " -> ".join([workflow.display, *names_, reached])
                    what = f"calls '{names_[0]}', which reaches {reached}() ({path})"
                    yield self._report(analysis, workflow, call, what, reached)

    @staticmethod
    def _report(analysis: Analysis, workflow, call: CallSite, what: str, name: str) -> Diagnostic:  # noqa: ANN001
        return analysis.diagnostic(
            workflow.module,
            call.span,
            NondeterministicWorkflow,
            f"workflow '{workflow.display}' {what} outside any step: on resume MAF runs the workflow body again "
            f"and {name}() returns another value; call it inside a step, whose result is replayed",
        )
