"""agent-framework-core releases, as far as steplint's rules care.

Every release on the registry from 1.2.0 (the first with the functional API)
to the newest steplint knows is listed, and what changed between them for a
rule is a named boundary below, with what the wheels show. The boundaries cut
the releases into *semantic epochs*: runs of releases on which every rule's
verdict and message are the same, so a project that admits several releases
is checked once per epoch it admits (``steplint.run.epochs``), not once per release.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Version = tuple[int, int, int]

#: The releases before the functional API (no ``agent_framework._workflows._functional``).
WITHOUT_FUNCTIONAL_API: tuple[Version, ...] = ((1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1))

#: Every release of agent-framework-core with the functional API, oldest first (the registry's list).
RELEASES: tuple[Version, ...] = (
    (1, 2, 0), (1, 2, 1), (1, 2, 2), (1, 3, 0), (1, 4, 0), (1, 5, 0), (1, 6, 0), (1, 7, 0),
    (1, 8, 0), (1, 8, 1), (1, 9, 0), (1, 10, 0), (1, 11, 0), (1, 12, 0), (1, 12, 1), (1, 13, 0),
    (1, 14, 0), (1, 15, 0), (1, 16, 0), (1, 17, 0), (1, 18, 0), (1, 19, 0), (1, 20, 0), (1, 21, 0),
    (1, 22, 0), (1, 23, 0), (1, 26, 0),
)

#: ``_workflows/_functional.py`` first ships: ``step`` (``name=`` only), ``StepWrapper``, ``RunContext``,
#: and ``@workflow`` returning a runnable ``FunctionalWorkflow`` (``.run()``, ``checkpoint_storage=`` on the
#: decorator). Every step is keyed by call order; the checkpoint encoding pickles any class and unpickles
#: through an allowlist (``allowed_checkpoint_types=`` on ``FileCheckpointStorage``).
FUNCTIONAL_API: Version = (1, 2, 0)
#: Names ``agent_framework`` exports on every release from ``FUNCTIONAL_API`` on (its ``__init__`` re-exports
#: them from ``_functional.py``), so ``from agent_framework import step, workflow`` cannot fail on a release
#: steplint targets, and a ``try:`` around it never runs its handler there.
ALWAYS_EXPORTED: frozenset[str] = frozenset({"RunContext", "step", "workflow"})
#: ``@workflow`` returns a stateless ``FunctionalWorkflowDefinition``: ``.build(checkpoint_storage=...)``
#: makes the runnable ``FunctionalWorkflow``, and the decorator lost ``checkpoint_storage=``. The
#: analysis follows both shapes; STP043 reads it (``.run()`` on a definition raises from here).
WORKFLOW_DEFINITION: Version = (1, 14, 0)
#: ``register_checkpoint_type`` (in ``_checkpoint_encoding.py``) arrived: before it, importing it fails,
#: and ``allowed_checkpoint_types=`` on the storage is the only way to allow a class.
REGISTER_CHECKPOINT_TYPE: Version = (1, 15, 0)
#: ``FileCheckpointStorage`` raises ``WorkflowCheckpointException`` for a checkpoint it cannot encode or
#: load; before it, the checkpoint is written, then skipped by ``list_checkpoints`` with a log line.
LOUD_CHECKPOINT_FAILURE: Version = (1, 19, 0)
#: Argument fingerprints and ``replay_key=`` (``_functional.py`` 1.19: 1655 lines, 1.20: 2311): a step
#: is keyed by its arguments unless one cannot be fingerprinted; before it ``step()`` rejects ``replay_key=``.
FINGERPRINT_VERSION: Version = (1, 20, 0)
#: The checkpoint encoding pickles a subclass of ``dict`` or ``list`` (``type(value) is dict`` in ``_encode``)
#: and allows ``collections:Counter``; before it every ``dict``/``list`` instance takes the JSON path and is
#: restored as a plain ``dict``/``list``, so no allowlist ever judges such a subclass (STP050).
PICKLED_CONTAINER_SUBCLASSES: Version = (1, 20, 0)
#: From 1.20 a step's result is cached as a deep copy (``_try_snapshot_step_cache_value``) and replayed as one;
#: before, by reference: a later change to the object is in the cache.
SNAPSHOT_RESULTS: Version = (1, 20, 0)
#: ``FunctionalWorkflow`` passes the message and the run context by keyword to a keyword-only parameter
#: (``_functional.py`` 1.23's ``call_kwargs``); before it both go positionally, so a keyword-only one makes every
#: run raise ``TypeError`` (STP044).
KEYWORD_ONLY_INPUT: Version = (1, 23, 0)

#: The boundaries some rule's verdict or message reads. The other releases' changes touch no rule: 1.22's pause
#: handling of tasks a step spawns; 1.26's per-step checkpoint saves that teardown awaits instead of cancelling,
#: and its unpickling of ``builtins:type`` restricted to ``type(value)`` of a non-class (a metaclass or a
#: member-less ``Enum`` class is refused; a step result holding ``type`` itself, not a class, is rare enough that
#: no rule reads it). 1.24 and 1.25 were never published.
SEMANTIC_BOUNDARIES: tuple[Version, ...] = (
    WORKFLOW_DEFINITION, REGISTER_CHECKPOINT_TYPE, LOUD_CHECKPOINT_FAILURE, FINGERPRINT_VERSION,
    PICKLED_CONTAINER_SUBCLASSES, KEYWORD_ONLY_INPUT,
)

#: What holds before and from each boundary, for the rule book's version table (``steplint.catalog.docs``).
FACTS: tuple[tuple[Version, str, str], ...] = (
    (WORKFLOW_DEFINITION, "`@workflow` makes the runnable workflow (`.run()`, `checkpoint_storage=` on the decorator)",
     "`@workflow` makes a definition; `.build(checkpoint_storage=...)` makes the runnable workflow"),
    (REGISTER_CHECKPOINT_TYPE, "only `allowed_checkpoint_types=` on a storage allows a class",
     "`register_checkpoint_type(cls)` allows a class too"),
    (LOUD_CHECKPOINT_FAILURE, "`FileCheckpointStorage` writes a checkpoint it cannot load, then skips it",
     "a checkpoint it cannot encode or load raises `WorkflowCheckpointException`"),
    (FINGERPRINT_VERSION, "every step is keyed by call order; `replay_key=` raises `TypeError`",
     "steps are keyed by argument fingerprints unless one cannot be made; `replay_key=`"),
    (PICKLED_CONTAINER_SUBCLASSES, "a checkpoint stores any `dict`/`list` subclass as a plain `dict`/`list`",
     "a `dict`/`list` subclass is pickled (allowlisted or refused); `Counter` is allowlisted"),
    (KEYWORD_ONLY_INPUT, "a `@workflow` gets its message and run context positionally (a keyword-only one: `TypeError`)",
     "a keyword-only message or run context parameter is passed by keyword"),
)

OLDEST_SUPPORTED: Version = FUNCTIONAL_API
NEWEST: Version = RELEASES[-1]

_VERSION = re.compile(r"^\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")


@dataclass(frozen=True)
class Epoch:
    """A run of releases between two semantic boundaries."""

    releases: tuple[Version, ...]

    @property
    def first(self) -> Version:
        return self.releases[0]

    @property
    def last(self) -> Version:
        return self.releases[-1]

    def __contains__(self, version: object) -> bool:
        return isinstance(version, tuple) and self.first <= version <= (*self.last[:2], 10**9)


def _epochs() -> tuple[Epoch, ...]:
    cuts = [0, *(next(i for i, r in enumerate(RELEASES) if r >= b) for b in SEMANTIC_BOUNDARIES), len(RELEASES)]
    return tuple(Epoch(RELEASES[start:end]) for start, end in zip(cuts, cuts[1:]) if start < end)


EPOCHS: tuple[Epoch, ...] = _epochs()


def epoch_of(version: Version) -> Epoch:
    """The epoch a release behaves as (a release newer than steplint knows: the newest epoch)."""
    for epoch in EPOCHS:
        if version < epoch.first:
            break
        if version in epoch:
            return epoch
    return EPOCHS[-1] if version > NEWEST else EPOCHS[0]


_PYTHON_RELEASE = re.compile(r"py(3)(\d+)")


def parse_version(text: str) -> Version:
    """``1.19`` -> (1, 19, 0). Raises ValueError on anything that is not a version."""
    match = _VERSION.match(text)
    if match is None or match.end() != len(text.strip()) and not text.strip()[match.end():].startswith(("a", "b", "rc", ".", "+", "-")):
        raise ValueError(f"not a version: {text!r}")
    major, minor, patch = (int(part) if part else 0 for part in match.groups())
    return (major, minor, patch)


def format_version(version: Version) -> str:
    return ".".join(str(part) for part in version)


def short_version(version: Version) -> str:
    """``1.20.0`` -> ``1.20``; a patch release keeps its patch (``1.2.2``)."""
    return format_version(version[:2] if version[2] == 0 else version)  # type: ignore[arg-type]


def describe_releases(releases: tuple[Version, ...] | list[Version]) -> str:
    """Known releases as runs of consecutive ones: ``1.20-1.23``, ``1.2-1.14, 1.19``, ``1.19``."""
    ordered = sorted(set(releases))
    runs: list[list[Version]] = []
    for version in ordered:
        known = version in RELEASES
        if runs and known and runs[-1][-1] in RELEASES and RELEASES.index(version) == RELEASES.index(runs[-1][-1]) + 1:
            runs[-1].append(version)
        else:
            runs.append([version])
    return ", ".join(short_version(run[0]) + (f"-{short_version(run[-1])}" if len(run) > 1 else "") for run in runs)


def format_range() -> str:
    return f"{short_version(OLDEST_SUPPORTED)} to {short_version(NEWEST)}"


def checked_target(text: str) -> Version:
    """A ``target-version`` as a user wrote it: a release steplint knows the semantics of, or ``newest``.

    Raises ValueError naming the supported range for anything older than the
    functional API or newer than the newest release steplint knows.
    """
    if text.strip().lower() == "newest":
        return NEWEST
    python = _PYTHON_RELEASE.fullmatch(text.strip().lower())
    if python is not None:  # ruff's target-version is the Python release; a ruff user writes it here first
        written = f"{python.group(1)}.{python.group(2)}"
        raise ValueError(
            f"{text.strip()!r} is a Python release, but target-version is agent-framework-core's (e.g. 1.21): "
            f"for the Python, use --target-python {written} (target-python = \"{written}\")"
        )
    version = parse_version(text)
    if version < OLDEST_SUPPORTED or version[:2] > NEWEST[:2]:
        raise ValueError(
            f"{text.strip()} is not a release steplint knows (it knows {format_range()}); "
            f"to check code for a newer one as {format_version(NEWEST)[:-2]}, pass 'newest'"
        )
    return version
