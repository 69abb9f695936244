"""The shape every rule has: a small class whose docstring is its doc page.

A rule's docstring holds ruff's sections (What it does / Why is this bad? /
Example / Use instead); ``VALID`` and ``INVALID`` hold code that must stay
silent and code that must be reported (marked ``# expect: CODE``). The tests
lint both, and ``steplint rule CODE`` prints the docstring.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, ClassVar, Iterator

from steplint.core.diagnostics import ERROR

if TYPE_CHECKING:
    from steplint.core.diagnostics import Diagnostic
    from steplint.analysis.program import Analysis
    from steplint.core.summary import ModuleSummary


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[str] = ERROR
    default_enabled: ClassVar[bool] = True
    summary: ClassVar[str]
    VALID: ClassVar[tuple[str, ...]] = ()
    INVALID: ClassVar[tuple[str, ...]] = ()

    def check(self, analysis: "Analysis", module: "ModuleSummary") -> Iterator["Diagnostic"]:
        """Findings in one reported module (which may lean on any other)."""
        raise NotImplementedError

    @classmethod
    def doc(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def help_uri(cls) -> str:
        return f"https://github.com/steplint/steplint/blob/main/README.md#{cls.code.lower()}"
