from __future__ import annotations

from typing import Iterator

from steplint.analysis.flow import steps_among
from steplint.analysis.graph_pins import PIN_CALL_AND_CALLEE
from steplint.analysis.mutation import mutated_params, read_after, rebinds_result
from steplint.analysis.program import Analysis, Decorated
from steplint.analysis.workflow_body import body_calls
from steplint.core.diagnostics import Diagnostic
from steplint.core.framework_versions import SNAPSHOT_RESULTS
from steplint.core.summary import Await, CallExpr, CallSite, ModuleSummary, Ref, iter_calls
from steplint.rules.base import BROKEN, Rule


class StepMutatesArgument(Rule):
    """
    ## What it does
    Finds a workflow that passes a local object to a step which changes
    that argument in place (assigns into it or a part of it, or calls a
    mutating method such as `append`, `update` or `setdefault` on it), and
    then reads the object again. Reported at the step's call in the
    workflow body.

    Silent when the step rebinds the parameter anywhere in its body (it
    may work on a copy: `doc = dict(doc)`), when the workflow binds the
    step's result, and nothing that may be the old object, to the same
    name (`doc = await enrich(doc)`, not `doc = await enrich(doc) or doc`), and when
    the workflow does not read the object after the call. A mutation in a
    nested function or lambda of the step, `del doc[k]`, and objects passed
    through helpers or as attributes (`await enrich(state.doc)`) are not
    seen. Before 1.20, silent where the object is an earlier step's result
    (`analysis = await plan(...)`, every binding of the name): MAF caches a
    result by reference there, so the change is in the cache, and in every
    checkpoint written after it, and replays; from 1.20 MAF caches a copy.

    ## Why is this bad?
    MAF caches only a step's return value. On resume (from a checkpoint,
    or after human-in-the-loop input) the workflow body runs again and the
    cached step is not run, so its change to the argument never happens:
    the workflow and the steps after it see the object without it,
    silently. On 1.20 and newer the unchanged argument also changes the
    next step's fingerprint, so that step runs again with the wrong data.
    `steplint.runtime_shim` warns about such a step at run time
    (`ArgumentMutatedWarning`).

    ## Example
    ```python
    from agent_framework import RunContext, step, workflow


    @step
    async def enrich(doc: dict) -> None:
        doc["customer"] = "ACME"


    @step
    async def invoice(doc: dict) -> str:
        return f"invoice for {doc.get('customer', 'UNKNOWN')}"


    @workflow(name="billing")
    async def billing(_: str, ctx: RunContext) -> str:
        doc = {"id": "d1"}
        await enrich(doc)
        await ctx.request_info({"approve": doc["id"]}, response_type=str, request_id="approve")
        return await invoice(doc)
    ```

    ## Use instead
    Return the new value and bind it in the workflow:
    ```python
    from agent_framework import RunContext, step, workflow


    @step
    async def enrich(doc: dict) -> dict:
        return {**doc, "customer": "ACME"}


    @step
    async def invoice(doc: dict) -> str:
        return f"invoice for {doc.get('customer', 'UNKNOWN')}"


    @workflow(name="billing")
    async def billing(_: str, ctx: RunContext) -> str:
        doc = {"id": "d1"}
        doc = await enrich(doc)
        await ctx.request_info({"approve": doc["id"]}, response_type=str, request_id="approve")
        return await invoice(doc)
    ```

    ## References
    - MAF caches a step's return value (`StepWrapper.__call__`): https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    """

    code = "STP051"
    name = "step-mutates-argument"
    summary = "a step changes its argument in place and the workflow reads the object afterwards"
    points_at = "the call expression"
    version_dependent = True  # a change to an earlier step's result is cached before 1.20
    family = BROKEN
    graph_pin = PIN_CALL_AND_CALLEE
    INVALID = (
        """
from agent_framework import step, workflow

@step
async def tag(items: list) -> None:
    items.append("tagged")

@workflow
async def pipeline(_: str) -> int:
    items = []
    await tag(items)  # expect: STP051
    return len(items)
""",
    )
    VALID = (
        """
from agent_framework import step, workflow

@step
async def tag(items: list) -> list:
    items = list(items)
    items.append("tagged")
    return items

@workflow
async def pipeline(_: str) -> int:
    items = []
    items = await tag(items)
    return len(items)
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        for workflow, call, calls in body_calls(analysis, module):
            steps = [analysis.step_for(value) for value in steps_among(frozenset(calls))]
            for step in sorted((s for s in steps if s is not None), key=lambda s: s.key):
                finding = self._judge(analysis, workflow, call, step)
                if finding is not None:
                    yield finding
                    break

    @staticmethod
    def _judge(analysis: Analysis, workflow: Decorated, call: CallSite, step: Decorated) -> Diagnostic | None:
        if step.body is None:
            return None
        changed = mutated_params(step.body)
        if not changed:
            return None
        expr = next((c for c in iter_calls(workflow.body.body) if c.span == call.span), None)
        if expr is None:
            return None
        for param, name in _arguments(step, expr):
            if param not in changed or rebinds_result(workflow.body.body, call.span, name):
                continue
            if not read_after(workflow.body.body, call.span, name):
                continue
            if analysis.target_version < SNAPSHOT_RESULTS and _holds_step_results(analysis, workflow, name):
                continue  # the object is a cached result itself: the change is in the cache, and replayed
            message = (
                f"step '{step.display}' changes its argument '{param}' in place ({changed[param]}), and workflow "
                f"'{workflow.display}' reads '{name}' after the call: MAF caches only the return value, so on "
                f"resume the cached call is skipped, the change is lost, and '{name}' is read without it; return "
                f"the new value and rebind it ({name} = await {step.display}(...))"
            )
            return analysis.diagnostic(workflow.module, call.span, StepMutatesArgument, message)
        return None


def _holds_step_results(analysis: Analysis, workflow: Decorated, name: str) -> bool:
    """Whether every binding of ``name`` in the workflow body is ``name = await step(...)``: before 1.20 MAF caches
    a step's result by reference, so a later step's change to it is in the cache (and in every checkpoint written
    after it), and a resume replays it changed."""
    bindings = workflow.body.bindings.get(name, [])
    if not bindings:
        return False
    flow = analysis.flow(workflow.module)
    for binding in bindings:
        value = binding.value
        if binding.kind != "assign" or not isinstance(value, Await) or not isinstance(value.value, CallExpr):
            return False
        if not steps_among(frozenset(flow.calls_at(workflow.module, value.value.span))):
            return False
    return True


def _arguments(step: Decorated, call: CallExpr) -> Iterator[tuple[str, str]]:
    """(the step's parameter, the workflow's local name passed to it) for each plain name passed."""
    params = [p for p in step.body.params if p.kind in ("posonly", "normal")]
    for index, arg in enumerate(call.args):
        if index < len(params) and isinstance(arg, Ref) and "." not in arg.dotted:
            yield params[index].name, arg.dotted
    for keyword, arg in call.kwargs:
        if isinstance(arg, Ref) and "." not in arg.dotted:
            yield keyword, arg.dotted
