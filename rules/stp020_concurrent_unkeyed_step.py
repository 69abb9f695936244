from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.analysis.program import Analysis, Decorated
from steplint.analysis.builtin_models import spawners_for
from steplint.analysis.fingerprint import unfingerprintable_values
from steplint.analysis.flow import HandedOver, ModuleFlow, callers_chain, unit_display, unit_qualified
from steplint.analysis.values import CoroutineValue, FunctionValue, StepValue
from steplint.analysis.graph_pins import PIN_CALL_AND_CALLEE
from steplint.rules.base import CALL_ORDER, Rule
from steplint.core.summary import display_qualname, CallExpr, ModuleSummary, Span, iter_calls

class ConcurrentUnkeyedStep(Rule):
    """
    ## What it does
    Finds, in what a workflow or step body runs (helpers and methods
    included), a call of a step without a replay identity whose coroutine
    runs in another task: it is given to `asyncio.gather`,
    `asyncio.create_task`, `asyncio.ensure_future`, `asyncio.shield`,
    `asyncio.as_completed`, `asyncio.wait`, `TaskGroup.create_task` or
    `loop.create_task` (and `asyncio.wait_for` when the target Python is
    below 3.12), however it gets there: directly, in a list or a
    comprehension (`gather(*[fetch(x) for x in xs])`), appended to a list
    first (`tasks.append(fetch(x))` ... `gather(*tasks)`), through `map`,
    returned by a helper, or made by a step a factory returns. A task group
    is known by its value: `async with asyncio.TaskGroup() as tg`,
    `tg = asyncio.TaskGroup()`, or a parameter annotated `asyncio.TaskGroup`.
    Reported at the step call, once, with the chain from the workflow: when
    a helper gathers the steps, at the call inside the helper; when a plain
    async helper is gathered and calls such a step, at the helper's call.

    "Without a replay identity" is MAF's own test (1.20+): no `replay_key`,
    and an argument that cannot be fingerprinted (STP010's test), a closure
    (STP012), a non-durable default (STP013), or made during a run. MAF
    judges the values each call binds, its defaults applied, so a parameter
    STP010 reports is no reason where the call leaves it to a `None` default
    or passes a literal MAF fingerprints (`[]`, `"x"`); and a value its
    annotation does not foresee is one: an instance of a class of yours (a
    `str` Enum member given to a `str` parameter, a NamedTuple to a `tuple`
    one, a dataclass to an unannotated one), or a list, tuple or dict of
    only such, as the analysis follows the call's arguments.

    Silent: on 1.19 and older, which have no replay identity to check; in
    plain functions no workflow or step body calls (tests and scripts call
    steps outside workflows, where they are plain coroutines);
    `asyncio.wait_for` when the target Python is 3.12 or newer (it runs the
    coroutine in the same task there); coroutines handed to outside code
    the analysis does not model (`mylib.gather(...)`).

    ## Why is this bad?
    MAF (1.20+) refuses to key a step call by call order in a task other
    than the workflow's own: such a call raises `ValueError` ("Cannot
    derive a stable replay identity for concurrent @step"), on the first
    run, checkpoints or not.

    ## Example
    ```python
    import asyncio

    from agent_framework import step, workflow
    from pydantic import BaseModel


    class Job(BaseModel):
        label: str


    @step
    async def fetch(job: Job) -> str:
        return job.label


    @workflow
    async def pipeline(jobs: list[str]) -> list[str]:
        return await asyncio.gather(*[fetch(Job(label=j)) for j in jobs])
    ```

    ## Use instead
    Give the step a `replay_key` that tells the calls apart, or pass
    fingerprintable arguments:
    ```python
    import asyncio

    from agent_framework import step, workflow
    from pydantic import BaseModel


    class Job(BaseModel):
        label: str


    @step(replay_key=lambda job: job.label)
    async def fetch(job: Job) -> str:
        return job.label


    @workflow
    async def pipeline(jobs: list[str]) -> list[str]:
        return await asyncio.gather(*[fetch(Job(label=j)) for j in jobs])
    ```

    ## References
    - MAF's `StepWrapper.__call__` and `RunContext._is_concurrent_execution`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    - https://github.com/microsoft/agent-framework/issues/9383
    """

    code = "STP020"
    name = "concurrent-unkeyed-step"
    summary = "a step without a replay identity is called concurrently (gather, create_task, TaskGroup)"
    points_at = "the call expression"
    version_dependent = True
    family = CALL_ORDER
    graph_pin = PIN_CALL_AND_CALLEE
    INVALID = (
        """
import asyncio
from dataclasses import dataclass
from agent_framework import step, workflow

@dataclass
class Job:
    label: str

@step
async def fetch(job: Job) -> str:
    return job.label

@workflow
async def pipeline(labels: list[str]) -> list[str]:
    return await asyncio.gather(*[fetch(Job(label)) for label in labels])  # expect: STP020
""",
    )
    VALID = (
        """
import asyncio
from agent_framework import step, workflow

@step
async def fetch(label: str) -> str:
    return label

@workflow
async def pipeline(labels: list[str]) -> list[str]:
    return await asyncio.gather(*[fetch(label) for label in labels])
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        if not analysis.fingerprints:
            return
        flow = analysis.flow(module)
        spawners = spawners_for(analysis.target_python)
        for handed in flow.handed_over():
            how = handed.callee.replace("()", "") if handed.callee in spawners else None
            if how is None:
                continue
            for coroutine in handed.coroutines:
                found = self._judged(analysis, flow, handed, how, coroutine)
                if found is not None:
                    yield found

    def _judged(self, analysis: Analysis, flow: ModuleFlow, handed: HandedOver, how: str,
                coroutine: CoroutineValue) -> Diagnostic | None:
        place = _place(analysis, coroutine)
        if place is None:
            return None
        callers = [unit_qualified(unit) for unit in callers_chain(handed.unit, analysis.engine)]
        callee = coroutine.callee
        if isinstance(callee, StepValue) and callee.kind == "step":
            step = analysis.step_for(callee)
            # MAF fingerprints the values the call binds: a literal or a default it takes is no reason, and a value
            # the annotation does not foresee (an enum member for a `str`) is one
            call = _direct_call(analysis, *place, step) if step is not None and analysis.unfingerprintable_params(step) \
                else None  # the call's literals matter only against a parameter its annotation cannot fingerprint
            reason = analysis.call_order_reason(step, call) if step is not None else None
            if step is not None and reason is None and analysis.fingerprints:
                reason = _bound_value_reason(analysis, step, coroutine)
            if step is None or reason is None:
                return None
            subject = f"step '{step.display}' runs in another task ({how})"
            return _report(analysis, place, step, reason, subject, (*callers, _qualified(step)))
        helper = analysis.engine.units.get(coroutine.unit)
        if not isinstance(callee, FunctionValue) or helper is None:
            return None
        found = flow.reach([helper], lambda unit, site, value: _unkeyed_step(analysis, value) is not None)
        if found is None:
            return None
        step = _unkeyed_step(analysis, found.callee)
        assert step is not None
        path = " -> ".join([*(unit_display(unit) for unit in found.chain), step.display])
        subject = f"'{unit_display(helper)}' runs in another task ({how}) and calls step '{step.display}' ({path})"
        chain = (*callers, *(unit_qualified(unit) for unit in found.chain), _qualified(step))
        return _report(analysis, place, step, analysis.call_order_reason(step) or "", subject, chain)


def _unkeyed_step(analysis: Analysis, value) -> Decorated | None:  # noqa: ANN001 - a value of the analysis
    if not isinstance(value, StepValue) or value.kind != "step":
        return None
    step = analysis.step_for(value)
    return step if step is not None and analysis.call_order_reason(step) is not None else None


def _place(analysis: Analysis, coroutine: CoroutineValue) -> tuple[ModuleSummary, Span] | None:
    """Where the call that made the coroutine is."""
    if len(coroutine.site) < 5 or not isinstance(coroutine.site[1], int):
        return None
    module = analysis.engine.modules_by_path.get(coroutine.site[0])
    return (module, Span(*coroutine.site[1:5])) if module is not None else None


def _bound_value_reason(analysis: Analysis, step: Decorated, coroutine: CoroutineValue) -> str | None:
    """Why MAF cannot fingerprint what this call binds, by the values the analysis gave the step's run of it."""
    unit = analysis.engine.units.get(coroutine.unit)
    if unit is None or unit.wide or step.has_replay_key or step.body is None:
        return None
    scope = analysis.index.function(step.module, step.body.parent)
    for param, values in zip(unit.summary.params, unit.params):
        if analysis.is_context_param(step.module, scope, param):
            continue
        what = unfingerprintable_values(unit.session, values)
        if what is not None:
            return f"parameter '{param.name}' is given {what}, which MAF does not fingerprint"
    return None


def _direct_call(analysis: Analysis, module: ModuleSummary, span: Span, step: Decorated) -> CallExpr | None:
    """The call at ``span`` where it names the step itself, so its arguments are all the step is given (through
    ``functools.partial`` or a wrapper the call binds only some of them: None, and the annotations judge)."""
    body = step.body
    for function in module.functions:
        for call in iter_calls(function.body):
            if call.span != span:
                continue
            scope = None if function.qualname == "<module>" else function
            target = analysis.index.resolve(module, scope, call.func)
            named = target is not None and target.function is not None and target.module is not None and body is not None \
                and (target.module.path, target.function.qualname) == (step.module.path, body.qualname)
            return call if named else None
    return None


def _qualified(step: Decorated) -> str:
    qualname = display_qualname(step.body.qualname) if step.body is not None else step.display
    return f"{step.module.module}.{qualname}"


def _report(
    analysis: Analysis, place: tuple[ModuleSummary, Span], step: Decorated, reason: str, subject: str,
    chain: tuple[str, ...],
) -> Diagnostic:
    module, span = place
    return analysis.diagnostic(
        module,
        span,
        ConcurrentUnkeyedStep,
        f"{subject}, but MAF cannot derive a replay identity for '{step.display}' ({reason}): inside a workflow "
        f"the call raises ValueError; add replay_key=... to '{step.display}' or pass fingerprintable arguments",
        chain=chain,
    )
