from __future__ import annotations

from typing import Iterator

from steplint.analysis.graph_pins import PIN_DEFINITION_OR_GRAPH
from steplint.analysis.module_names import module_level_values
from steplint.analysis.program import Analysis, Decorated
from steplint.analysis.values import ExternalValue, FunctionValue
from steplint.core.diagnostics import Diagnostic
from steplint.core.framework_versions import FINGERPRINT_VERSION, Version, format_version
from steplint.core.summary import CallSite, FunctionSummary, ModuleSummary, Ref, Span
from steplint.rules.base import NONDETERMINISM, Rule
from steplint.rules.stp030_nondeterministic_workflow import nondeterministic

# `replay_key=` arrived in 1.20.0 (`step` and `StepWrapper` take it; 1.19's take only `name=`, which STP041 reports).
# MAF source: agent_framework/_workflows/_functional.py, `class StepWrapper.__init__` of 1.20.0.
REPLAY_KEY_RELEASE: Version = FINGERPRINT_VERSION


class UnstableReplayKey(Rule):
    """
    ## What it does
    Finds a step's `replay_key=` that calls a function whose value changes
    from run to run (the ones STP030 knows: `time.time()`, `time.time_ns()`,
    `datetime.now()`, `uuid.uuid4()`, `random.*`, `os.urandom`,
    `secrets.*`...): in a lambda (`replay_key=lambda o: f"{o.id}:{time.time_ns()}"`)
    or in the body of a function named there (`replay_key=make_key`).
    Reported at that call. Silent before 1.20, which has no `replay_key`.

    ## Why is this bad?
    From 1.20 MAF keys a step with `replay_key=` by what the key function
    returns for the call's arguments. A key that differs on every run never
    matches the cached one: on resume the step runs again, and its side
    effect (a charge, an e-mail, a write) is repeated, silently.

    ## Example
    ```python
    import time

    from agent_framework import RunContext, step, workflow


    @step(replay_key=lambda order_id: f"{order_id}:{time.time_ns()}")
    async def charge(order_id: str) -> str:
        return f"charged {order_id}"


    @workflow(name="checkout")
    async def checkout(order_id: str, ctx: RunContext) -> str:
        receipt = await charge(order_id)
        await ctx.request_info({"confirm": receipt}, response_type=str, request_id="confirm")
        return receipt
    ```

    ## Use instead
    Build the key from the arguments only:
    ```python
    from agent_framework import RunContext, step, workflow


    @step(replay_key=lambda order_id: f"charge:{order_id}")
    async def charge(order_id: str) -> str:
        return f"charged {order_id}"


    @workflow(name="checkout")
    async def checkout(order_id: str, ctx: RunContext) -> str:
        receipt = await charge(order_id)
        await ctx.request_info({"confirm": receipt}, response_type=str, request_id="confirm")
        return receipt
    ```

    ## References
    - `StepWrapper.__call__` and `_get_explicit_step_cache_key`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    """

    code = "STP032"
    name = "unstable-replay-key"
    summary = "a step's replay_key calls time/uuid/random..., so the key changes on every run"
    points_at = "the call expression in the key"
    version_dependent = True
    family = NONDETERMINISM
    graph_pin = PIN_DEFINITION_OR_GRAPH
    INVALID = (
        """
import uuid
from agent_framework import step

def key(order_id: str) -> str:
    return f"{order_id}:{uuid.uuid4()}"  # expect: STP032

@step(replay_key=key)
async def charge(order_id: str) -> str:
    return order_id
""",
    )
    VALID = (
        """
import uuid
from agent_framework import step

@step(replay_key=lambda order_id: f"charge:{order_id}")
async def charge(order_id: str) -> str:
    return f"{order_id}:{uuid.uuid4()}"
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        if analysis.target_version < REPLAY_KEY_RELEASE:
            return
        for step in analysis.steps_in(module):
            for where, call, name in _unstable_calls(analysis, step):
                version = format_version(analysis.target_version)
                yield analysis.diagnostic(
                    where, call.span, UnstableReplayKey,
                    f"the replay_key of step '{step.display}' calls {name}(), so the key differs on every run: on "
                    f"agent-framework-core {version} a resume never finds the cached result, and the step runs "
                    "again (its side effect repeats); build the key from the arguments only",
                )


def _unstable_calls(analysis: Analysis, step: Decorated) -> Iterator[tuple[ModuleSummary, CallSite, str]]:
    key = step.config_call.kwarg("replay_key") if step.config_call is not None else None
    span = step.config_call.kwarg_span("replay_key") if step.config_call is not None else None
    if key is None or span is None:
        return
    holder = analysis.index.function(step.module, step.made_in) if step.made_in else step.module.functions[0]
    if holder is None:
        return
    inline = [call for call in holder.calls if call.in_lambda and _within(call.span, span)]
    yield from _judged(analysis, step.module, holder, inline)
    for value in module_level_values(analysis.engine, analysis.index, step.module, holder, key):
        function = analysis.index.functions.get((value.path, value.qualname)) if isinstance(
            value, FunctionValue) else None
        module = analysis.engine.modules_by_path.get(value.path) if function is not None else None
        if function is not None and module is not None:
            yield from _judged(analysis, module, function, [c for c in function.calls if not c.in_lambda])


def _judged(analysis: Analysis, module: ModuleSummary, scope: FunctionSummary,
            calls: list[CallSite]) -> Iterator[tuple[ModuleSummary, CallSite, str]]:
    reading = None if scope.qualname == "<module>" else scope
    for call in calls:
        if not isinstance(call.callee, Ref):
            continue
        values = module_level_values(analysis.engine, analysis.index, module, reading, call.callee)
        names = sorted(v.name for v in values if isinstance(v, ExternalValue) and nondeterministic(v.name))
        if names:
            yield module, call, names[0]


def _within(inner: Span, outer: Span) -> bool:
    return (outer.line, outer.col) <= (inner.line, inner.col) and (inner.end_line, inner.end_col) <= (
        outer.end_line, outer.end_col)
