from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.analysis.program import Analysis
from steplint.rules.base import BROKEN, Rule
from steplint.core.summary import ModuleSummary


class SyncStep(Rule):
    """
    ## What it does
    Finds `step` applied to a function that is not a coroutine function: a
    plain `def`, or an `async def` that yields (an async generator).

    ## Why is this bad?
    MAF's `StepWrapper` only wraps coroutine functions
    (`inspect.iscoroutinefunction`): it raises `TypeError` when the function
    is decorated, on every release from 1.18 to 1.26. For a module-level
    step that is when the module is imported, so nothing in it runs; for a
    step made in a factory, when the factory runs. An async generator is
    not a coroutine function, so a step cannot stream its results: return a
    list instead.

    ## Example
    ```python
    from agent_framework import step


    @step
    def fetch(url: str) -> str:
        return url
    ```

    ## Use instead
    ```python
    from agent_framework import step


    @step
    async def fetch(url: str) -> str:
        return url
    ```
    """

    code = "STP040"
    name = "sync-step"
    summary = "step decorates a function that is not async, or an async generator"
    points_at = "the `def`, never at the decorator line"
    family = BROKEN
    INVALID = (
        """
from agent_framework import step

@step
def fetch(url: str) -> str:  # expect: STP040
    return url
""",
        """
from agent_framework import step

@step
async def stream(prompt: str):  # expect: STP040
    for token in prompt.split():
        yield token
""",
    )
    VALID = (
        """
from agent_framework import step

@step
async def fetch(url: str) -> str:
    return url
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        for step in analysis.steps_in(module):
            body = step.body
            if body is None or body.is_lambda or (body.is_async and not body.is_generator):
                continue
            what = "an async generator (it yields)" if body.is_async else "not async"
            yield analysis.diagnostic(
                step.module,
                step.anchor,
                SyncStep,
                f"step '{step.display}' is {what}: MAF's step wraps only coroutine functions and raises "
                "TypeError when the function is decorated (at import, for a module-level step); make it an "
                "'async def' that returns its value",
            )
