from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.analysis.program import Analysis
from steplint.rules.base import NOT_DURABLE, NOT_DURABLE_OUTCOME, Rule
from steplint.core.summary import ModuleSummary


class ClosureStateStep(Rule):
    """
    ## What it does
    Finds a step without `replay_key=` whose wrapper identity MAF (1.20+)
    never treats as durable, reported at its `def`:
    - a step defined inside a function whose body reads a local of an
      enclosing function, or declares it `nonlocal` (a closure cell: a
      parameter, a variable, a helper, a class or another step defined
      there, also when only a function nested in the step reads it),
      whatever the value is;
    - a step made while a workflow runs: defined (or wrapped with `step()`)
      inside a `@workflow` or `@step` body, even with no closure.

    A step inside a function that reads only its own parameters and
    module-level names has no closure and stays silent. Silent on 1.19 and
    older, where every step is keyed by call order anyway.

    ## Why is this bad?
    MAF hashes a step's closure cells into its wrapper identity, but counts
    the identity as durable only for a function with no closure at all: on
    1.20 to 1.26, `_get_step_wrapper_identity` starts from
    `func.__closure__ is None`, so even a captured `str` makes it
    non-durable. A wrapper built while a run is active is never durable
    either. Without a durable identity or a `replay_key`, the step's calls
    fall back to the call-order key, a call from a concurrent task raises
    `ValueError`, and so does the run's first checkpoint, with a checkpoint
    storage, or its first `request_info` pause, with or without one
    ("Cannot checkpoint @step calls without a durable replay identity"). A
    run with neither completes: the hazard waits for the first storage or
    pause the workflow is given.

    ## Example
    ```python
    import httpx
    from agent_framework import step


    def make_fetch(client: httpx.AsyncClient):
        @step
        async def fetch(url: str) -> str:
            return (await client.get(url)).text

        return fetch
    ```

    ## Use instead
    Pass the data as fingerprintable arguments to a module-level step, or
    keep the closure and give the step a `replay_key` (your promise that the
    captured state does not change what a key means):
    ```python
    import httpx
    from agent_framework import step


    def make_fetch(client: httpx.AsyncClient):
        @step(replay_key=lambda url: url)
        async def fetch(url: str) -> str:
            return (await client.get(url)).text

        return fetch
    ```

    ## References
    - MAF's wrapper identity, `_get_step_wrapper_identity`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    - https://github.com/microsoft/agent-framework/issues/9383
    """

    code = "STP012"
    name = "closure-state-step"
    summary = "a step captures enclosing locals (or is made during a run) and has no replay_key"
    points_at = "the `def`, never at the decorator line"
    version_dependent = True
    family = NOT_DURABLE
    INVALID = (
        """
from agent_framework import step

def make_fetch(seen: list[str]):
    @step
    async def fetch(url: str) -> str:  # expect: STP012
        seen.append(url)
        return url

    return fetch
""",
    )
    VALID = (
        """
from agent_framework import step

def make_fetch(base_url: str):
    @step(replay_key=lambda path: base_url + path)
    async def fetch(path: str) -> str:
        return base_url + path

    return fetch
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        for step in analysis.auto_keyed_steps_in(module):
            if step.body is None:
                continue
            owner = analysis.made_during_run(step)
            if owner is not None:
                yield analysis.diagnostic(
                    step.module,
                    step.anchor,
                    ClosureStateStep,
                    f"step '{step.display}' is made while {owner.kind} '{owner.display}' runs: MAF never treats "
                    f"such a step's identity as durable, so {NOT_DURABLE_OUTCOME}; define it at module level or add "
                    "replay_key=...",
                )
                continue
            captured = analysis.captured_names(step)
            if not captured:
                continue
            names = ", ".join(f"'{name}'" for name in captured)
            yield analysis.diagnostic(
                step.module,
                step.anchor,
                ClosureStateStep,
                f"step '{step.display}' captures {names} from its enclosing function: MAF cannot make that "
                f"state durable, so {NOT_DURABLE_OUTCOME}; pass the data as fingerprintable arguments or add "
                "replay_key=...",
            )
