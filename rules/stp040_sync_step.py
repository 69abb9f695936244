from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.analysis.program import Analysis
from steplint.rules.base import Rule
from steplint.core.summary import ModuleSummary


class SyncStep(Rule):
    """
    ## What it does
    Finds `step` applied to a function that is not `async def`.

    ## Why is this bad?
    MAF's `StepWrapper` only wraps coroutine functions: it raises `TypeError`
    when the module is imported, so nothing in it runs.

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
    summary = "step decorates a function that is not async"
    INVALID = (
        """
from agent_framework import step

@step
def fetch(url: str) -> str:  # expect: STP040
    return url
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
            if step.body is not None and not step.body.is_async:
                yield analysis.diagnostic(
                    step.module,
                    step.anchor,
                    SyncStep,
                    f"step '{step.display}' is not async: MAF's step only wraps coroutine functions and raises "
                    "TypeError at import; make it 'async def'",
                )
