"""Drop findings their users silenced: inline comments and per-file ignores."""

from __future__ import annotations

import os
from fnmatch import fnmatchcase
from pathlib import Path

from steplint.config import Settings
from steplint.diagnostics import Diagnostic
from steplint.summary import Suppressions


def code_matches(codes: tuple[str, ...], code: str) -> bool:
    """flake8's rule: a listed code silences every code it is a prefix of."""
    return any(code.startswith(listed) or listed == "*" for listed in codes)


def inline_suppressed(diagnostic: Diagnostic, suppressions: Suppressions, use_noqa: bool = True) -> bool:
    if code_matches(suppressions.file_disabled, diagnostic.code):
        return True
    disabled = suppressions.disabled.get(diagnostic.line)
    if disabled is not None and code_matches(disabled, diagnostic.code):
        return True
    if not use_noqa:
        return False
    noqa = suppressions.noqa.get(diagnostic.line)
    return noqa is not None and (not noqa or code_matches(noqa, diagnostic.code))


def per_file_ignored(diagnostic: Diagnostic, settings: Settings) -> bool:
    if not settings.per_file_ignores:
        return False
    base = settings.config_file.parent if settings.config_file is not None else settings.project_root
    absolute = Path(os.path.abspath(diagnostic.path))
    try:
        relative = absolute.relative_to(base).as_posix()
    except ValueError:
        relative = absolute.as_posix()
    for pattern, codes in settings.per_file_ignores.items():
        if _glob(relative, pattern) and code_matches(tuple(c.upper() for c in codes), diagnostic.code):
            return True
    return False


def _glob(relative: str, pattern: str) -> bool:
    pattern = pattern.lstrip("./") if pattern.startswith("./") else pattern
    if fnmatchcase(relative, pattern) or fnmatchcase(relative, pattern.rstrip("/") + "/*"):
        return True
    # A pattern without a slash matches a file name anywhere, as in ruff.
    return "/" not in pattern and fnmatchcase(relative.rsplit("/", 1)[-1], pattern)
