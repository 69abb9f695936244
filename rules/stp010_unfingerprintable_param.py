from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.analysis.fingerprint import fingerprinted_literal
from steplint.analysis.program import Analysis
from steplint.rules.base import CALL_ORDER, Rule
from steplint.core.summary import Const, ModuleSummary


class UnfingerprintableParam(Rule):
    """
    ## What it does
    Finds a parameter of a step without `replay_key=` whose annotation
    resolves to a type MAF cannot fingerprint: pydantic models, dataclasses,
    attrs classes, plain classes, `NamedTuple`s, `Enum`s, `set`, `datetime`,
    `Decimal`, `UUID`, `Path`, `dict` with non-`str` keys, callables,
    iterators, classes from outside the analyzed code that are not a
    `Mapping`, and containers of any of these. The run-context parameter
    (annotated `RunContext` or named `ctx`) is exempt. The `cls` of a
    `@classmethod` written above `@step` is reported: MAF receives the class
    object as an argument. Reported only when the target version has
    fingerprints (1.20 and newer).

    ## Why is this bad?
    MAF (1.20+) keys a step call by a hash of its arguments when every
    argument is made of `None`, `bool`, `int`, finite `float`, `complex`,
    `str`, `bytes`, `list`, `tuple`, `frozenset` and `str`-keyed mappings.
    Any other argument makes every call of the step fall back to the
    call-order key, which replays the wrong cached result when steps are
    nested or calls are concurrent. MAF hashes the values a call binds, its
    defaults applied, so a call that leaves `options: Options | None = None`
    to its default keeps its identity; the message says so.

    Known limit: a project that never resumes a run (no checkpoint
    storage, no `run(checkpoint_id=...)`, no `request_info` answered with
    `run(responses=...)`). It is still reported there, on purpose: the
    call-order key is a property of the step's definition, not of how the
    project runs it today. Concurrent calls of the step (`asyncio.gather`,
    tasks) raise `ValueError` ("Cannot derive a stable replay identity for
    concurrent @step") on 1.20+ on every run, with no storage at all; a
    nested or repeated call replays another call's cached result from the
    first resume, which the first checkpoint storage or human-in-the-loop
    pause added later (or a host such as `FunctionalWorkflowAgent`) brings.
    A project that truly never resumes and never calls the step
    concurrently silences it with `per-file-ignores`
    (`"app/steps/*.py" = ["STP010"]`), `# noqa: STP010` on the line, or
    `ignore = ["STP010"]`.

    ## Example
    ```python
    from agent_framework import step
    from pydantic import BaseModel


    class Job(BaseModel):
        label: str


    @step
    async def tick(job: Job) -> str:
        return job.label
    ```

    ## Use instead
    Pass fingerprintable data, or give the step a `replay_key`:
    ```python
    from agent_framework import step
    from pydantic import BaseModel


    class Job(BaseModel):
        label: str


    @step(replay_key=lambda job: job.label)
    async def tick(job: Job) -> str:
        return job.label
    ```

    ## References
    - https://github.com/microsoft/agent-framework/issues/9383
    """

    code = "STP010"
    name = "unfingerprintable-param"
    summary = "a step parameter's type cannot be fingerprinted by MAF"
    points_at = "the parameter"
    version_dependent = True
    family = CALL_ORDER
    INVALID = (
        """
from dataclasses import dataclass
from agent_framework import step

@dataclass
class Job:
    label: str

@step
async def tick(job: Job) -> str:  # expect: STP010
    return job.label
""",
    )
    VALID = (
        """
from typing import TypedDict
from agent_framework import step, RunContext

class Job(TypedDict):
    label: str

@step
async def tick(job: Job, tags: dict[str, list[int]], ctx: RunContext) -> str:
    return job["label"]
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        if not analysis.fingerprints:
            return
        for step in analysis.steps_in(module):
            for found in analysis.unfingerprintable_params(step):
                param = found.param
                # a default MAF counts as durable wrapper state only when it is immutable: `[]` makes every call fall
                # back (STP013), whatever the call passes
                if isinstance(param.default, Const) and fingerprinted_literal(param.default):
                    # MAF fingerprints the bound values, defaults applied: leaving the default keeps the identity
                    calls = (f"every call of '{step.display}' that passes one falls back to the call-order cache "
                             "key (a call that leaves the default does not)")
                else:
                    calls = f"every call of '{step.display}' falls back to the call-order cache key"
                yield analysis.diagnostic(
                    step.module,
                    param.span,
                    UnfingerprintableParam,
                    f"parameter '{param.name}' of step '{step.display}' {found.verdict.reason}, which MAF "
                    f"cannot fingerprint: {calls}; pass fingerprintable data or add replay_key=...",
                )
