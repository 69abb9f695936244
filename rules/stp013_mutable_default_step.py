from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.analysis.program import Analysis
from steplint.rules.base import NOT_DURABLE, NOT_DURABLE_OUTCOME, Rule
from steplint.core.summary import ModuleSummary


class MutableDefaultStep(Rule):
    """
    ## What it does
    Finds a parameter default of a step without `replay_key=` that MAF
    (1.20+) does not count as durable: a list, dict or set display, a
    comprehension, a lambda, a tuple holding one of those, a call known to
    build a mutable or opaque object (`list()`, `dict()`, an instance of a
    class, `datetime.now()`, `Path(...)`, `uuid4()`), an Enum member, a name
    bound to one of those, or a call of your own function whose return
    annotation is mutable (`def fresh_options() -> dict[str, int]`) or whose
    returned value the analysis follows to one of those (a list it builds,
    an instance it makes). Reported at the default value.

    Calls known to return immutable values (`frozenset(...)`, `tuple(...)`,
    `str(...)`, `int(...)`, a function that returns a string) and calls
    whose result is unknown (`os.getenv(...)`, an outside library's
    function) stay silent. Silent on 1.19 and older, where every step is
    keyed by call order anyway.

    ## Why is this bad?
    MAF hashes a step's defaults into its wrapper identity and counts them as
    durable only when each is None, bool, int, float, complex, str, bytes or
    a tuple or frozenset of those. Otherwise, without a `replay_key`, the
    step's calls fall back to the call-order key, a call from a concurrent
    task raises `ValueError`, and so does the run's first checkpoint, with a
    checkpoint storage, or its first `request_info` pause, with or without
    one ("Cannot checkpoint @step calls without a durable replay
    identity"). A run with neither completes.

    ## Example
    ```python
    from agent_framework import step


    @step
    async def tag(label: str, tags: list[str] = []) -> list[str]:
        return [*tags, label]
    ```

    ## Use instead
    An immutable default (`None`, a tuple or frozenset), or a `replay_key`:
    ```python
    from agent_framework import step


    @step
    async def tag(label: str, tags: tuple[str, ...] = ()) -> list[str]:
        return [*tags, label]
    ```

    ## References
    - MAF's wrapper identity, `_get_step_wrapper_defaults_state`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    - https://github.com/microsoft/agent-framework/issues/9383
    """

    code = "STP013"
    name = "mutable-default-step"
    summary = "a step parameter's default is mutable or opaque (not durable identity)"
    points_at = "the default value"
    version_dependent = True
    family = NOT_DURABLE
    INVALID = (
        """
from agent_framework import step

@step
async def tag(label: str, tags: list[str] = []) -> str:  # expect: STP013
    return label
""",
    )
    VALID = (
        """
from agent_framework import step

@step
async def tag(label: str, tags: tuple[str, ...] = (), limit: int | None = None) -> str:
    return label
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        for step in analysis.auto_keyed_steps_in(module):
            for param, state in analysis.mutable_defaults(step):
                yield analysis.diagnostic(
                    step.module,
                    param.default_span or param.span,
                    MutableDefaultStep,
                    f"the default of parameter '{param.name}' of step '{step.display}' is {state.what}, which MAF "
                    f"does not count as durable: {NOT_DURABLE_OUTCOME}; use an immutable default (None, a tuple) or "
                    "add replay_key=...",
                )
