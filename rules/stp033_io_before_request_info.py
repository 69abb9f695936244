from __future__ import annotations

from typing import Iterator

from steplint.analysis.graph_pins import PIN_BODY
from steplint.analysis.mutation import statements_in_order
from steplint.analysis.program import Analysis, Decorated
from steplint.analysis.values import ExternalValue
from steplint.analysis.workflow_body import reaching
from steplint.core.diagnostics import Diagnostic
from steplint.core.summary import LoopStmt, ModuleSummary, iter_calls
from steplint.rules.base import NONDETERMINISM, Rule
from steplint.rules.stp031_io_in_workflow_body import DEFAULT_IO_FUNCTIONS, does_io


def _asks(name: str) -> bool:
    """``ctx.request_info`` of a run context (a parameter, or ``get_run_context()``)."""
    return name.startswith("agent_framework.") and name.endswith(").request_info")


class IoBeforeRequestInfo(Rule):
    """
    ## What it does
    Finds I/O that a step does before a `ctx.request_info(...)`: the calls
    STP031 counts as I/O (the standard library's files, processes and
    sockets, and the `io-functions` of `[tool.steplint]`), made by the
    step's body or by a plain helper it calls, written before the last
    `request_info` call of the body (so between two questions too) or in a
    loop that asks (a later turn asks after it). Calls of
    other steps are not I/O here (their results are replayed). Reported at
    the call.

    ## Why is this bad?
    `request_info` inside a step pauses the run; to deliver the answer, MAF
    runs the workflow again and enters the step again from the top, since
    the step has no result to replay yet. Everything the step did before
    the question is done again on every resume: a log line, an e-mail, a
    charge made before asking is repeated, silently. MAF keeps no answer
    across resumes: a step that asks twice is entered again for each
    answer, and the resume that delivers the second must pass the first
    again (given only the second, the step asks the first question again),
    so I/O between the two questions is done once more too.

    ## Example
    ```python
    import requests
    from agent_framework import RunContext, step, workflow


    @step
    async def review(draft: str, ctx: RunContext) -> str:
        requests.post("https://example.com/notify", json={"draft": draft})
        return await ctx.request_info({"draft": draft}, response_type=str, request_id="review")


    @workflow(name="publish")
    async def publish(draft: str) -> str:
        return await review(draft)
    ```

    ## Use instead
    Do the work in a step of its own before the question (its result is
    replayed), or after the last answer:
    ```python
    import requests
    from agent_framework import RunContext, step, workflow


    @step
    async def notify(draft: str) -> int:
        return requests.post("https://example.com/notify", json={"draft": draft}).status_code


    @step
    async def review(draft: str, ctx: RunContext) -> str:
        return await ctx.request_info({"draft": draft}, response_type=str, request_id="review")


    @workflow(name="publish")
    async def publish(draft: str) -> str:
        await notify(draft)
        return await review(draft)
    ```

    ## References
    - `RunContext.request_info` and `StepWrapper.__call__`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    """

    code = "STP033"
    name = "io-before-request-info"
    summary = "a step does I/O before ctx.request_info, which it repeats on every resume"
    points_at = "the call expression"
    family = NONDETERMINISM
    graph_pin = PIN_BODY
    INVALID = (
        """
import subprocess
from agent_framework import RunContext, step

@step
async def ask(topic: str, ctx: RunContext) -> str:
    subprocess.run(["notify-send", topic])  # expect: STP033
    return await ctx.request_info({"topic": topic}, response_type=str, request_id="ask")
""",
    )
    VALID = (
        """
import subprocess
from agent_framework import RunContext, step

@step
async def ask(topic: str, ctx: RunContext) -> str:
    answer = await ctx.request_info({"topic": topic}, response_type=str, request_id="ask")
    subprocess.run(["notify-send", answer])
    return answer
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        libraries = DEFAULT_IO_FUNCTIONS if analysis.io_functions is None else analysis.io_functions
        flow = analysis.flow(module)
        for step in analysis.steps_in(module):
            if step.body is None:
                continue
            calls = [(c, flow.calls_at(step.module, c.span)) for c in step.body.calls if not c.in_lambda]
            asks = [c.span for c, values in calls if any(
                isinstance(v, ExternalValue) and _asks(v.name) for v in values)]
            if not asks:
                continue
            # Answers are not kept across resumes: every question re-enters the step from the top.
            last = max((span.line, span.col) for span in asks)
            again = _in_asking_loops(step.body.body, set(asks))
            for call, values in calls:
                if (call.span.line, call.span.col) >= last and call.span not in again:
                    continue
                found = reaching(flow, values, lambda name: does_io(name, libraries))
                if found is not None:
                    yield analysis.diagnostic(step.module, call.span, IoBeforeRequestInfo, _message(step, *found))


def _in_asking_loops(body: tuple, asks: set) -> set:
    """The spans of the calls in a loop that asks: a later turn asks after them, whatever their line."""
    found: set = set()
    for statement in statements_in_order(body):
        if isinstance(statement, LoopStmt):
            inside = {call.span for call in iter_calls((statement.body,))}
            if inside & asks:
                found |= inside
    return found


def _message(step: Decorated, reached: str, helpers: tuple[str, ...]) -> str:
    reached = reached.removeprefix("builtins.")
    what = f"calls {reached}()" if not helpers else f"calls '{helpers[0]}', which reaches {reached}()"
    return (
        f"step '{step.display}' {what} before ctx.request_info(...): to deliver an answer MAF enters the step "
        "again from the top, so this I/O is done again on every resume; do it in a step of its own before the "
        "question, or after the last answer"
    )
