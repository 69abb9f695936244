from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.rules.base import Rule

if TYPE_CHECKING:  # the command line's help names this rule: importing it must not load the analysis or the summaries
    from steplint.analysis.program import Analysis
    from steplint.core.summary import ModuleSummary


class SyntaxErrorRule(Rule):
    """
    ## What it does
    Reports a file that cannot be read or parsed: an unknown or wrong
    encoding, a syntax error, or a file too large or too deeply nested to
    analyze. The message says why, with the line.

    Syntax a newer Python accepts than the one running steplint (PEP 695
    type parameters, PEP 701 f-strings, `except*`, PEP 758 `except A, B:`,
    t-strings) is not a syntax error, whatever `requires-python` says or
    whether it says anything: libcst, whose grammar does not depend on the
    running interpreter, reads the file. This is what ruff (0.12 and newer)
    does without a configured Python: it checks version-related syntax
    against the newest Python, to spare projects that declare none false
    errors (ruff, unlike steplint, reports such syntax against a Python the
    project does declare). The rewrite runs in a child process with a
    budget of its own CPU time (10 s plus 40 s per MB of source), so a busy
    machine does not turn a valid file into a finding; a file that exhausts
    it is reported with the error this interpreter's parser gave.

    ## Why is this bad?
    steplint cannot check a file it cannot parse, and neither can Python run
    it. The rest of the project is still analyzed.

    A path named on the command line that does not exist or cannot be read is
    reported too. As ruff reports syntax errors, this rule is reported
    whatever the selection: `--select`, `--ignore`, `per-file-ignores`,
    `# noqa` and `# steplint: disable` comments do not turn it off, so that
    a file that was not checked never passes as checked.

    ## Example
    ```python
    @step
    async def fetch(url: str) -> str
        return url
    ```

    ## Use instead
    ```python
    @step
    async def fetch(url: str) -> str:
        return url
    ```
    """

    code = "STP900"
    name = "syntax-error"
    summary = "the file cannot be read or parsed"
    points_at = "the error position, else line 1"
    silenced_by_add_noqa = False
    always_reported = True
    INVALID = (
        """
def broken(:  # expect: STP900
    pass
""",
    )
    VALID = ("x = 1\n",)

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        from steplint.core.summary import Span

        error = module.error
        if error is None:
            return
        line = max(error.line, 1)
        yield analysis.diagnostic(
            module, Span(line, error.col, line, error.col), SyntaxErrorRule, f"cannot analyze this file: {error.message}"
        )
