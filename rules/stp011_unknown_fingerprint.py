from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import WARNING, Diagnostic
from steplint.analysis.program import Analysis
from steplint.rules.base import CALL_ORDER, Rule
from steplint.core.summary import ModuleSummary


class UnknownFingerprint(Rule):
    """
    ## What it does
    Finds a parameter of a step without `replay_key=` whose annotation says
    nothing about the runtime type: no annotation at all (`*args` and
    `**kwargs` included), `Any`, `object`, or a TypeVar, directly or through
    `Optional`, `Union`, `Annotated` and aliases. A container of them
    (`list[Any]`, `dict[str, Any]`) stays silent: its items may well be
    fingerprintable, and such payloads are common. The run-context parameter
    is exempt. Opt-in (`extend-select = ["STP011"]`); reported only when the
    target version has fingerprints (1.20 and newer).

    ## Why is this bad?
    Whether MAF can fingerprint such an argument depends on the value passed
    at run time: with a pydantic model or a dataclass, every call of the
    step falls back to the call-order cache key (see STP010), silently. An
    annotation lets the linter (and readers) check it.

    ## Example
    ```python
    # fixture: extend-select=STP011
    from agent_framework import step


    @step
    async def tick(job) -> str:
        return str(job)
    ```

    ## Use instead
    Annotate with a fingerprintable type, or give the step a `replay_key`:
    ```python
    from agent_framework import step


    @step
    async def tick(job: str) -> str:
        return job
    ```

    ## References
    - MAF's fingerprint, `_canonicalize_step_identity_value`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    - https://github.com/microsoft/agent-framework/issues/9383
    """

    code = "STP011"
    name = "unknown-fingerprint"
    severity = WARNING
    default_enabled = False
    summary = "a step parameter's type is unknown (no annotation, Any, object, TypeVar)"
    points_at = "the parameter"
    version_dependent = True
    family = CALL_ORDER
    INVALID = (
        """
from typing import Any
from agent_framework import step

@step
async def tick(job: Any) -> str:  # expect: STP011
    return str(job)
""",
    )
    VALID = (
        """
from typing import Any
from agent_framework import step

@step
async def tick(job: dict[str, Any]) -> str:
    return str(job)
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        for step in analysis.auto_keyed_steps_in(module):
            for found in analysis.param_verdicts(step):
                if not found.verdict.open:
                    continue
                yield analysis.diagnostic(
                    step.module,
                    found.param.span,
                    UnknownFingerprint,
                    f"parameter '{found.param.name}' of step '{step.display}' {found.verdict.reason}: whether MAF "
                    f"can fingerprint it depends on the value, and when it cannot, every call of '{step.display}' "
                    "falls back to the call-order cache key; annotate it with a fingerprintable type or add "
                    "replay_key=...",
                )
