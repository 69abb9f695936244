from __future__ import annotations

from steplint.rules.base import SuppressionRule


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

    A file-level `# ruff: noqa: STPxxx` (or `# flake8: noqa: STPxxx`, `#
    steplint: noqa: STPxxx`) is judged the same way over its whole file: a
    code that silenced nothing anywhere in the file is reported on the
    comment. A bare file-level noqa exempts the whole file, this rule too.

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
    points_at = "the `# noqa` directive"
    silenced_by_add_noqa = False
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
        """
# ruff: noqa: STP999  # expect: STP100
x = 1
""",
    )

