"""Lint text that a tool holds in memory (flake8's lines, an editor's unsaved buffer) as a file of its project.

The buffer stands for the file at ``path``: its project's ``[tool.steplint]``
settings apply, and the modules it imports are read from disk under its
package root, so cross-module findings are the same as ``steplint check``'s.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

from steplint.core.diagnostics import Diagnostic


def buffer_bytes(text: str) -> bytes:
    """The bytes the text was decoded from: a PEP 263 cookie (``latin-1``) must still describe them."""
    text = text.removeprefix("\ufeff")
    utf8 = text.encode("utf-8")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(utf8).readline)
        return text.encode(encoding)
    except (SyntaxError, LookupError, UnicodeEncodeError):
        return utf8


def lint_buffer(text: str, path: str, use_noqa: bool = True) -> list[Diagnostic]:
    """Findings in ``text`` as the file ``path``; raises ``ConfigError`` for a bad ``[tool.steplint]``."""
    from steplint.api import lint_source, load_settings

    settings = load_settings(None, Path(path).parent)
    return lint_source(buffer_bytes(text), path, settings, use_noqa=use_noqa).diagnostics
