from __future__ import annotations

from typing import Iterator

from steplint.analysis.program import Analysis
from steplint.core.diagnostics import Diagnostic
from steplint.core.framework_versions import KEYWORD_ONLY_INPUT, format_version
from steplint.core.summary import ModuleSummary
from steplint.rules.base import BROKEN, Rule

# What `FunctionalWorkflow._classify_signature` leaves out of the parameters that receive the message.
_NOT_INPUT_KINDS = frozenset({"vararg", "kwarg"})


class WorkflowWithoutInput(Rule):
    """
    ## What it does
    Finds a `@workflow` function with no parameter to receive the run's
    message: none at all, only a run context (`ctx`, or a `RunContext`
    annotation), or only `*args`/`**kwargs`. Before 1.23 also one whose
    message or run context parameter is keyword-only (after `*`). Reported
    at the `def`.

    ## Why is this bad?
    Such a workflow can never start. `run()` with no message raises
    `ValueError` ("Must provide at least one of: 'message' ..., 'responses'
    ... or 'checkpoint_id'"), and `run(message)` raises `ValueError` ("has
    no non-RunContext parameter to receive a message"); so does running it
    as an agent. Without a first run there is no request to answer and no
    checkpoint to restore. The same on every release, 1.2 to 1.26.

    Before 1.23 MAF calls the function with the message and the run
    context as positional arguments, so a keyword-only one makes every
    run raise `TypeError` (`takes 0 positional arguments but 1 was
    given`); 1.23 passes them by keyword.

    ## Example
    ```python
    from agent_framework import RunContext, workflow


    @workflow
    async def nightly(ctx: RunContext) -> str:
        return "done"
    ```

    ## Use instead
    Take the message, even when it is not used, and run with one
    (`nightly.build().run("go")`):
    ```python
    from agent_framework import RunContext, workflow


    @workflow
    async def nightly(_: str, ctx: RunContext) -> str:
        return "done"
    ```

    ## References
    - `FunctionalWorkflow._classify_signature`, `_validate_run_params` and `_execute`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    """

    code = "STP044"
    name = "workflow-without-input"
    summary = "a @workflow takes no parameter for the message (before 1.23: a keyword-only one), so every run raises"
    points_at = "the `def`, never at the decorator line"
    version_dependent = True
    family = BROKEN
    INVALID = (
        """
from agent_framework import workflow

@workflow(name="nightly")
async def nightly(*args) -> str:  # expect: STP044
    return "done"
""",
    )
    VALID = (
        """
from agent_framework import RunContext, workflow

@workflow
async def nightly(ctx: RunContext, when: str = "now") -> str:
    return when
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        for workflow in analysis.workflows_in(module):
            body = workflow.body
            if body is None or body.is_lambda:
                continue
            scope = analysis.index.function(workflow.module, body.parent)
            keyword_only = [param.name for param in body.params if param.kind == "kwonly"]
            if keyword_only and analysis.target_version < KEYWORD_ONLY_INPUT:
                yield analysis.diagnostic(
                    workflow.module,
                    workflow.anchor,
                    WorkflowWithoutInput,
                    f"workflow '{workflow.display}' takes '{keyword_only[0]}' as a keyword-only parameter, but "
                    f"before {format_version(KEYWORD_ONLY_INPUT)} MAF passes the message and the run context "
                    "positionally, so every run raises TypeError; make it a positional parameter",
                )
                continue
            if any(param.kind not in _NOT_INPUT_KINDS and not analysis.is_context_param(workflow.module, scope, param)
                   for param in body.params):
                continue
            yield analysis.diagnostic(
                workflow.module,
                workflow.anchor,
                WorkflowWithoutInput,
                f"workflow '{workflow.display}' has no parameter for the run's message, so it can never start: "
                "run() without a message and run(message) both raise ValueError on every release; add a first "
                "parameter (it may go unused) and run it with a message",
            )
