from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.analysis.program import Analysis
from steplint.rules.base import BROKEN, Rule
from steplint.core.summary import ModuleSummary, display_qualname
from steplint.core.framework_versions import FINGERPRINT_VERSION, format_version


class ReplayKeyUnsupported(Rule):
    """
    ## What it does
    Finds `replay_key=` passed to `step` (`@step(replay_key=...)`,
    `step(replay_key=...)(fn)`, `StepWrapper(fn, replay_key=...)`) while the
    target version is 1.19 or older. Any value counts, `None` too. Reported
    at the `replay_key=` argument; for a step made by a wrapper or decorator
    factory of the project that surely passes one (`@keyed_step`,
    `@step_with(replay_key=...)`), at the step's `def`. Silent on 1.20 and
    newer.

    ## Why is this bad?
    `replay_key` arrived in 1.20. On 1.18 and 1.19, `step()` and
    `StepWrapper()` take only `name=`, so the keyword raises `TypeError`
    when the module is imported, and nothing in it runs.

    ## Example
    ```python
    # fixture: target-version=1.19
    from agent_framework import step


    @step(replay_key=lambda job: job)
    async def tick(job: str) -> str:
        return job
    ```

    ## Use instead
    Require `agent-framework-core>=1.20` (and set `target-version`
    accordingly), or drop the keyword on 1.19, where every step is keyed by
    call order anyway:
    ```python
    # fixture: target-version=1.19
    from agent_framework import step


    @step
    async def tick(job: str) -> str:
        return job
    ```

    ## References
    - `step` and `StepWrapper`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    """

    code = "STP041"
    name = "replay-key-unsupported"
    summary = "replay_key= is passed to step on a version without it (1.19 and older)"
    points_at = "the `replay_key=` argument"
    version_dependent = True
    family = BROKEN
    INVALID = (
        """
# fixture: target-version=1.19
from agent_framework import step

@step(replay_key=lambda job: job)  # expect: STP041
async def tick(job: str) -> str:
    return job
""",
    )
    VALID = (
        """
from agent_framework import step

@step(replay_key=lambda job: job)
async def tick(job: str) -> str:
    return job
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        if analysis.fingerprints:
            return
        version = format_version(analysis.target_version)
        for step in analysis.steps_in(module):
            argument = step.replay_key_argument
            through = ""
            if argument is None and step.options is not None and step.options.replay_key_given:
                # Made by a wrapper or factory of the project that passes one (``config_call`` is then None).
                argument, through = step.anchor, " by the project's wrapper that makes it"
            if argument is None:
                continue
            # step() runs where the code that makes the step runs: the module's import, or a call of the function
            when = "at import" if step.made_in is None else f"when '{display_qualname(step.made_in)}' runs"
            yield analysis.diagnostic(
                module,
                argument,
                ReplayKeyUnsupported,
                f"replay_key= is passed to step '{step.display}'{through}, but agent-framework-core {version} has no "
                f"replay_key (it arrived in {format_version(FINGERPRINT_VERSION)}): step() raises TypeError {when}; "
                "remove it, or require agent-framework-core>=1.20",
            )
