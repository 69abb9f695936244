from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.analysis.program import Analysis
from steplint.rules.base import BROKEN, Rule
from steplint.core.summary import ModuleSummary


class StepOnMethod(Rule):
    """
    ## What it does
    Finds `step` applied to a function in a class body in a way that cannot
    work, on every release from 1.18 to 1.26:
    - an instance method: `step` directly on a `def` whose first parameter
      is positional (`self`), with neither `@staticmethod` nor `@classmethod`
      above it;
    - `@step` written above `@classmethod` or `@staticmethod`.

    It stays silent for `@staticmethod` above `@step`, for `@classmethod`
    above `@step` (the class is passed, so the call works; STP010 reports
    that a class object cannot be fingerprinted), and for a method with no
    positional parameter (nothing to bind). It is reported at the `def`.

    ## Why is this bad?
    MAF's `StepWrapper` is not a descriptor (it has no `__get__`), so
    `obj.method` and `self.method` give the wrapper itself, not a bound
    method: the instance is never passed, and every call through an
    instance raises `TypeError` (`missing 1 required positional argument`
    on 1.18 and 1.19, `missing a required argument` from 1.20), inside a
    workflow and outside one. `@step` above `@classmethod`/`@staticmethod`
    receives a descriptor object instead of a coroutine function and raises
    `TypeError` when the class is created. `tests/runtime/test_step_on_method.py`
    checks both on the installed release; if a release makes `StepWrapper`
    a descriptor, this rule must become version-aware.

    ## Example
    ```python
    from agent_framework import step


    class Pipeline:
        def __init__(self, base_url: str) -> None:
            self.base_url = base_url

        @step
        async def fetch(self, path: str) -> str:
            return self.base_url + path
    ```

    ## Use instead
    A module-level step that takes the object's data as fingerprintable
    arguments:
    ```python
    from agent_framework import step


    @step
    async def fetch(base_url: str, path: str) -> str:
        return base_url + path


    class Pipeline:
        def __init__(self, base_url: str) -> None:
            self.base_url = base_url

        async def load(self, path: str) -> str:
            return await fetch(self.base_url, path)
    ```
    Or a `@staticmethod` above `@step`:
    ```python
    from agent_framework import step


    class Pipeline:
        @staticmethod
        @step
        async def fetch(base_url: str, path: str) -> str:
            return base_url + path
    ```
    Or a step built per instance in `__init__`, with a `replay_key` (it
    captures `self`, which MAF cannot hash):
    ```python
    from agent_framework import step


    class Pipeline:
        def __init__(self, base_url: str) -> None:
            async def fetch(path: str) -> str:
                return base_url + path

            self.fetch = step(name="fetch", replay_key=lambda path: f"{base_url}|{path}")(fetch)
    ```

    ## References
    - `StepWrapper`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    - steplint's runtime check: `tests/runtime/test_step_on_method.py`
    """

    code = "STP042"
    name = "step-on-method"
    summary = "step decorates a method, which never receives self"
    points_at = "the `def`, never at the decorator line"
    family = BROKEN
    INVALID = (
        """
from agent_framework import step

class Pipeline:
    @step
    async def fetch(self, path: str) -> str:  # expect: STP042
        return path
""",
    )
    VALID = (
        """
from agent_framework import step

class Pipeline:
    @staticmethod
    @step
    async def fetch(path: str) -> str:
        return path
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        for step in analysis.steps_in(module):
            form = analysis.method_form(step)
            if form == "instance":
                receiver = step.body.params[0].name  # type: ignore[union-attr]
                message = (
                    f"step '{step.display}' is an instance method: MAF's StepWrapper is not a descriptor, so "
                    f"'{receiver}' is never passed and every call through an instance raises TypeError (missing "
                    "argument); make it a module-level step taking the object's data, a @staticmethod above "
                    "@step, or a step built per instance in __init__ with replay_key"
                )
            elif form == "wraps-descriptor":
                message = (
                    f"@step is applied on top of @classmethod/@staticmethod for '{step.display}': step receives "
                    "a descriptor, not a coroutine function, and raises TypeError when the class is created; "
                    "put @staticmethod above @step"
                )
            else:
                continue
            yield analysis.diagnostic(step.module, step.anchor, StepOnMethod, message)
