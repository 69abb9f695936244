"""Find suppression comments in source text.

Comments are found with ``tokenize`` so that a ``# noqa`` inside a string is
not one; files without the words ``noqa`` or ``steplint`` skip the scan.
"""

from __future__ import annotations

import io
import re
import tokenize

from steplint.summary import Suppressions

# flake8's form: "# noqa", "# noqa: A1,B2", case-insensitive, codes separated by commas or spaces.
NOQA = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?",
    re.IGNORECASE,
)
_CODES = re.compile(r"[A-Z]+[0-9]*", re.IGNORECASE)
_DIRECTIVE = re.compile(r"steplint:\s*(?P<kind>disable-file|disable)\s*=\s*(?P<codes>[A-Za-z0-9_,\s*-]+)")
_STP_CODE = re.compile(r"^[A-Z]+[0-9]*$")


def parse_codes(text: str) -> tuple[str, ...]:
    return tuple(code.upper() for code in _CODES.findall(text))


def scan_suppressions(text: str) -> Suppressions:
    found = Suppressions()
    if "noqa" not in text.lower() and "steplint" not in text:
        return found
    file_codes: list[str] = []
    for line, comment in _comments(text):
        noqa = NOQA.search(comment)
        if noqa is not None:
            codes = noqa.group("codes")
            found.noqa[line] = parse_codes(codes) if codes else ()
        for directive in _DIRECTIVE.finditer(comment):
            raw = directive.group("codes").strip()
            codes = ("*",) if raw.startswith("*") or raw.lower().startswith("all") else parse_codes(raw)
            if directive.group("kind") == "disable-file":
                file_codes.extend(codes)
            else:
                found.disabled[line] = found.disabled.get(line, ()) + codes
    found.file_disabled = tuple(file_codes)
    return found


def _comments(text: str):
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.string
    except (tokenize.TokenError, SyntaxError, IndentationError):
        # A file tokenize gives up on still gets line-by-line comments.
        for number, line in enumerate(text.splitlines(), start=1):
            at = line.find("#")
            if at >= 0:
                yield number, line[at:]
