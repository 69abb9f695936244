"""Drop findings their users silenced, and remember which ``# noqa`` codes did the silencing.

The silencers of a file: ``# steplint: disable-file=``, ``# steplint:
disable=`` on the reported line, ``per-file-ignores`` of the configuration and
``# noqa`` on the reported line and the file-level ``# ruff: noqa``, ``#
flake8: noqa`` and ``# steplint: noqa`` (unless noqa is disabled). Every one that
matches a finding counts as used, so that STP100 only reports a ``# noqa``
code that silenced nothing, whatever else also silenced the finding. Nothing
silences a rule that is ``always_reported`` (STP900, as ruff's syntax errors).
"""

from __future__ import annotations

import os
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

from steplint.catalog.registry import always_reported_codes
from steplint.config.settings import Settings
from steplint.core.diagnostics import Diagnostic
from steplint.core.findings import ReportedFile
from steplint.core.summary import ModuleSummary, Suppressions
from steplint.summaries.suppression_comments import ALL


def matching_codes(listed: tuple[str, ...], code: str) -> tuple[str, ...]:
    """The listed codes that silence ``code``: flake8's rule, a code silences every code it prefixes."""
    return tuple(item for item in listed if item == ALL or code.startswith(item))


def code_matches(listed: tuple[str, ...], code: str) -> bool:
    return bool(matching_codes(listed, code))


class FileSuppressions:
    """The silencers of one reported file, and the ``# noqa`` codes that silenced a finding."""

    def __init__(self, file: ReportedFile | ModuleSummary, settings: Settings, use_noqa: bool = True):
        self.comments: Suppressions = file.suppressions
        self.ignored = per_file_ignores(file.path, settings)
        self.use_noqa = use_noqa
        self.used_noqa: dict[int, set[str]] = {}
        self.used_file_noqa: dict[int, set[str]] = {}  # by the line of the file-level ``# ruff: noqa: CODES``

    def silences(self, diagnostic: Diagnostic) -> bool:
        code, line = diagnostic.code, diagnostic.line
        if code in always_reported_codes():
            return False
        silenced = (
            code_matches(self.comments.file_disabled, code)
            or code_matches(self.comments.disabled.get(line, ()), code)
            or code_matches(self.ignored, code)
        )
        if not self.use_noqa:
            return silenced
        silenced = self._file_noqa_silences(code) or silenced
        noqa = self.comments.noqa.get(line)
        if noqa is None:
            return silenced
        if not noqa:  # a bare "# noqa" silences everything on its line
            return True
        used = matching_codes(noqa, code)
        if used:
            self.used_noqa.setdefault(line, set()).update(used)
        return silenced or bool(used)

    def _file_noqa_silences(self, code: str) -> bool:
        """Whether a file-level ``# ruff: noqa`` silences ``code``; every listed code that does counts as used."""
        silenced = False
        for line, codes in self.comments.file_noqa.items():
            used = matching_codes(codes, code)
            if used:
                self.used_file_noqa.setdefault(line, set()).update(used)
            silenced = silenced or not codes or bool(used)
        return silenced

    def unused_noqa_codes(self) -> list[tuple[int, tuple[str, ...]]]:
        """(line, codes) of every ``# noqa: CODES`` whose listed codes silenced nothing, in line order."""
        return _unused(self.comments.noqa, self.used_noqa) if self.use_noqa else []

    def unused_file_noqa_codes(self) -> list[tuple[int, tuple[str, ...]]]:
        """(line, codes) of every file-level ``# ruff: noqa: CODES`` whose listed codes silenced nothing."""
        return _unused(self.comments.file_noqa, self.used_file_noqa) if self.use_noqa else []


def _unused(listed: dict[int, tuple[str, ...]], used: dict[int, set[str]]) -> list[tuple[int, tuple[str, ...]]]:
    found = []
    for line, codes in sorted(listed.items()):
        unused = tuple(code for code in codes if code not in used.get(line, set()))
        if unused:
            found.append((line, unused))
    return found


def per_file_ignores(path: str, settings: Settings) -> tuple[str, ...]:
    """The codes ``per-file-ignores`` silences in ``path``; patterns are relative to the config file's folder."""
    if not settings.per_file_ignores:
        return ()
    base = settings.config_file.parent if settings.config_file is not None else settings.project_root
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(os.path.abspath(base)).as_posix()
    except ValueError:
        relative = absolute.as_posix()
    codes: list[str] = []
    for pattern, listed in settings.per_file_ignores.items():
        if glob_matches(relative, absolute.as_posix(), pattern):
            codes.extend(ALL if code.upper() == "ALL" else code.upper() for code in listed)
    return tuple(codes)


def glob_matches(relative: str, absolute: str, pattern: str) -> bool:
    """ruff's reading of a per-file-ignores pattern.

    ``tests/*.py`` matches from the config folder (``*`` crosses folders, as
    fnmatch does); ``tests/`` or ``tests/**`` a whole folder; ``**/x.py`` at any
    depth; a pattern without a slash (``test_*.py``, ``legacy``) matches a file
    or folder name anywhere; an absolute pattern matches the absolute path.
    """
    pattern = pattern.strip()
    if pattern.startswith("/") or (len(pattern) > 2 and pattern[1] == ":"):
        relative = absolute
    pattern = pattern.removeprefix("./")
    for candidate in _expansions(pattern):
        if fnmatchcase(relative, candidate) or fnmatchcase(relative, candidate + "/*"):
            return True
    if "/" not in pattern:
        return any(fnmatchcase(part, pattern) for part in PurePosixPath(relative).parts)
    return False


def _expansions(pattern: str) -> list[str]:
    bare = pattern.rstrip("/").removesuffix("/**")
    found = [bare]
    if bare.startswith("**/"):
        found.append(bare[3:])  # "**/" matches no folder too
    return found
