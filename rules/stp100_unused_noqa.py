from __future__ import annotations

from typing import Iterator

from steplint.fixes.noqa_edits import remove_codes_edit
from steplint.core.diagnostics import Diagnostic, Fix
from steplint.core.findings import ReportedFile
from steplint.rules.base import SuppressionRule

_OWN_PREFIX = "STP"


class UnusedNoqa(SuppressionRule):
    """
    ## What it does
    Finds a `# noqa: STPxxx` comment whose steplint codes silence nothing on
    their line: the finding they were written for is gone, or never was
    there. Only `STP` codes are judged (a `# noqa: E501` belongs to another
    tool), a bare `# noqa` is never reported, and a code is only judged when
    every rule it names ran in this run (a `# noqa: STP011` is left alone
    while the opt-in STP011 is off). A code that names no steplint rule at
    all is reported. Opt-in; `--disable-noqa` turns it off with the comments.

    ## Why is this bad?
    A stale suppression hides the next real finding on that line: when the
    code changes and a step starts calling a step there, nobody hears of it.

    ## Example
    ```python
    # fixture: extend-select=STP100
    from agent_framework import step, workflow


    @step
    async def tick(job: str) -> str:
        return job


    @workflow
    async def run(job: str) -> str:
        return await tick(job)  # noqa: STP001
    ```

    ## Use instead
    Remove the code (or the whole comment) that no longer silences anything.
    `--fix` does it: the fix is safe, it only edits the comment.
    ```python
    # fixture: extend-select=STP100
    from agent_framework import step, workflow


    @step
    async def tick(job: str) -> str:
        return job


    @workflow
    async def run(job: str) -> str:
        return await tick(job)
    ```

    ## Fix safety
    Safe: the fix removes the unused codes from the comment, and the whole
    `# noqa` when none is left (other tools' codes stay).
    """

    code = "STP100"
    name = "unused-noqa"
    severity = "warning"
    default_enabled = False
    summary = "a '# noqa: STPxxx' comment silences nothing"
    fix = "safe"
    VALID = (
        """
x = 1  # noqa: E501
y = 2  # noqa
z = 3  # noqa: STP001
""",
    )
    INVALID = (
        """
x = 1  # noqa: STP999, E501  # expect: STP100
""",
    )

    def check_suppressions(
        self,
        module: ReportedFile,
        unused_noqa: list[tuple[int, tuple[str, ...]]],
        selected: frozenset[str],
        known: tuple[str, ...],
    ) -> Iterator[Diagnostic]:
        spans = module.suppressions.noqa_spans
        for line, codes in unused_noqa:
            unknown = [code for code in codes if code.startswith(_OWN_PREFIX) and not _names_rules(code, known)]
            unused = [code for code in codes if code not in unknown and _all_ran(code, known, selected)]
            if not unknown and not unused:
                continue
            start, end = spans.get(line, (0, 0))
            text = module.suppressions.noqa_lines.get(line)
            edit = remove_codes_edit(text, line, (start, end), {*unused, *unknown}) if text is not None else None
            yield Diagnostic(
                path=module.path,
                line=line,
                column=start + 1,
                end_line=line,
                end_column=end + 1,
                code=self.code,
                name=self.name,
                severity=self.severity,
                message=_message(unused, unknown),
                fix=Fix((edit,), safe=True, title="Remove the unused noqa codes") if edit is not None else None,
            )


def _names_rules(listed: str, known: tuple[str, ...]) -> list[str]:
    return [code for code in known if code.startswith(listed)]


def _all_ran(listed: str, known: tuple[str, ...], selected: frozenset[str]) -> bool:
    """A steplint code whose every rule ran: had there been a finding, it would have silenced it."""
    named = _names_rules(listed, known)
    return listed.startswith(_OWN_PREFIX) and bool(named) and all(code in selected for code in named)


def _message(unused: list[str], unknown: list[str]) -> str:
    parts = []
    if unused:
        parts.append(f"{', '.join(unused)} silence{'s' if len(unused) == 1 else ''} nothing on this line")
    if unknown:
        parts.append(f"{', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not a steplint rule code")
    return f"unused noqa: {'; '.join(parts)}; remove {'it' if len(unused) + len(unknown) == 1 else 'them'}"
