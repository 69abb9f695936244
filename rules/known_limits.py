"""Known limits that several rules share, written once (``Rule.known_limits`` puts them in each rule's doc page).

Each is a paragraph in the docstrings' Markdown; ``{code}`` stands for the code of the rule whose page shows it.
"""

from __future__ import annotations

#: The body-runs-again rules (STP030, STP031): a hazard of the definition, reported where nothing resumes yet.
NEVER_RESUMES = """\
Known limit: a project that never resumes a run. The hazard bites only
when the body runs again: `run(checkpoint_id=...)` restoring a
checkpoint (from a checkpoint storage given to `build()`, `run()` or,
before 1.14, `@workflow`), or `run(responses=...)` answering a
`request_info` pause. A project with neither runs each body once, and
the finding is still reported there: it is a property of the workflow's
definition, which the first storage or pause added later exposes
(a host such as `FunctionalWorkflowAgent` may add one), and a storage
can come from outside the analyzed code, so the linter cannot prove
that no caller resumes. A project that truly never resumes silences it
with `per-file-ignores` (`"app/workflows/*.py" = ["{code}"]`),
`# noqa: {code}` on the line, or `ignore = ["{code}"]`."""
