"""Find suppression comments in source text.

Comments are found with ``tokenize`` so that a ``# noqa`` inside a string is
not one; files without the words ``noqa`` or ``steplint`` skip the scan.

- ``# noqa`` / ``# noqa: STP001,STP0``: flake8's form (case-insensitive, codes
  separated by commas or spaces; each code silences the codes it prefixes);
- ``# steplint: disable=STP001,STP010`` silences codes on its line;
- ``# steplint: disable-file=STP030`` (anywhere) silences codes in the file;
  ``*`` or ``all`` means every code.
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Iterator

from steplint.core.summary import Suppressions

# flake8's NOQA_INLINE_REGEXP (a code is letters then digits), with "#noqa" allowed as ruff does.
NOQA = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?",
    re.IGNORECASE,
)
_CODE = r"(?:\*|[A-Za-z]+[0-9]*)"
# Codes are comma-separated, so words after them ("disable=STP001 because ...") are a reason, not codes.
_DIRECTIVE = re.compile(rf"steplint:\s*(?P<kind>disable-file|disable)\s*=\s*(?P<codes>{_CODE}(?:\s*,\s*{_CODE})*)")
_CODES = re.compile(r"\*|[A-Z]+[0-9]*", re.IGNORECASE)
ALL = "*"


def parse_codes(text: str) -> tuple[str, ...]:
    """``"stp001, STP0"`` -> ``("STP001", "STP0")``; ``all`` and ``*`` -> ``("*",)``."""
    return tuple(ALL if code.lower() == "all" else code.upper() for code in _CODES.findall(text))


def scan_suppressions(text: str) -> Suppressions:
    found = Suppressions()
    if "noqa" not in text.lower() and "steplint" not in text:
        return found
    file_codes: list[str] = []
    lines: list[str] | None = None
    for line, column, comment in _comments(text):
        noqa = NOQA.search(comment)
        if noqa is not None:
            codes = noqa.group("codes")
            found.noqa[line] = parse_codes(codes) if codes else ()
            found.noqa_spans[line] = (column + noqa.start(), column + noqa.end())
            lines = lines if lines is not None else text.splitlines()
            if line <= len(lines):
                found.noqa_lines[line] = lines[line - 1]
        for directive in _DIRECTIVE.finditer(comment):
            codes = parse_codes(directive.group("codes"))
            if directive.group("kind") == "disable-file":
                file_codes.extend(codes)
            else:
                found.disabled[line] = found.disabled.get(line, ()) + codes
    found.file_disabled = tuple(file_codes)
    return found


def _comments(text: str) -> Iterator[tuple[int, int, str]]:
    """(line, 0-based column, comment text) of every comment."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.start[1], token.string
    except (tokenize.TokenError, SyntaxError, IndentationError):
        # A file tokenize gives up on (it is an STP900 anyway) still gets line-by-line comments.
        for number, line in enumerate(text.splitlines(), start=1):
            at = line.find("#")
            if at >= 0:
                yield number, at, line[at:]
