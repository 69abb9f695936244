"""Whether ``steplint.source.downlevel`` could make a file parse, told from its text alone.

``parse`` asks this after ``ast`` rejected a file and before it imports libcst
(a third of a second of CPU, most of a run over a tree without Agent
Framework code). The answer may be "maybe" for a file downlevel cannot help
(markers in comments and strings only cost a libcst parse), but it is never
"no" for one it can: every construct downlevel rewrites has a marker here
that over-approximates it.

- type parameters and aliases: ``def``, ``class`` or ``type``, a name, then
  ``[`` (or ``=`` after ``type``), with any whitespace and line continuations
  between;
- ``except*``;
- ``except A, B:``: a comma at bracket depth 0 of an ``except`` clause;
- any t-string, and an f-string that this Python does not parse on its own
  (downlevel rewrites exactly those). An f-string is read up to the first
  closing quote, as Python before 3.12 reads it: where PEP 701 reuses that
  quote inside a replacement field, the text read ends in the open field and
  does not parse either.

A file whose error is in one of its tokens (a ``0777``, an invalid character)
on a line before every marker is not helped either: downlevel rewrites
nothing before the first marker, and a successful parse tokenizes every line,
so the rewritten file meets the same token.
"""

from __future__ import annotations

import re

from steplint.source.python_parse import LINE_BREAK, quiet_parse

_GAP = r"[\s\\]"  # whitespace, line breaks, and the backslash of a continuation
_NAME = r"[^\s\\\[\](){}=:;,.#'\"]+"  # an over-approximation of an identifier
_TYPE_PARAMETERS = re.compile(rf"(?:def|class){_GAP}+{_NAME}{_GAP}*\[|type{_GAP}+{_NAME}{_GAP}*[\[=]")
_EXCEPT_STAR = re.compile(rf"except{_GAP}*\*")
_EXCEPT = re.compile(r"\bexcept\b")
_FORMATTED = re.compile(r"(?<!\w)(?:(?P<template>[tT][rR]?|[rR][tT])|[fF][rR]?|[rR][fF])(?P<quote>'''|\"\"\"|'|\")")
# A string's body up to its closing quote, as Python before 3.12 reads it: a backslash takes the
# next character along, and a one-quote string ends at a line break.
_BODIES = {
    quote: re.compile(body + quote, re.DOTALL)
    for quote, body in (
        ("'", r"(?:[^'\\\r\n]|\\.)*"),
        ('"', r'(?:[^"\\\r\n]|\\.)*'),
        ("'''", r"(?:[^'\\]|\\.|'(?!''))*"),
        ('"""', r'(?:[^"\\]|\\.|"(?!""))*'),
    )
}
# Enough of a tokenizer to follow an ``except`` clause to its colon.
_CLAUSE = re.compile(
    r"""(?P<string>[rRbBuUfFtT]{0,2}(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"|'(?:\\.|[^\\'\r\n])*'|"(?:\\.|[^\\"\r\n])*"))
    |(?P<unterminated>['"])
    |(?P<comment>\#[^\r\n]*)
    |(?P<continuation>\\(?:\r\n|\r|\n))
    |(?P<open>[(\[{])
    |(?P<close>[)\]}])
    |(?P<newline>\r\n|\r|\n)
    |(?P<comma>,)
    |(?P<colon>:)
    |(?P<lambda>\blambda\b)
    |(?P<other>\w+|[^'"\#\\()\[\]{}\r\n,:\w]+|\\)""",
    re.VERBOSE | re.DOTALL,
)
# Errors the tokenizer finds in one token, on the line it reports: a rewrite after that line
# cannot change them (Python 3.10-3.13 spellings).
_TOKEN_ERRORS = (
    "leading zeros in decimal integer literals",
    "invalid decimal literal",
    "invalid hexadecimal literal",
    "invalid octal literal",
    "invalid binary literal",
    "invalid digit",
    "invalid character",
    "invalid non-printable character",
)


def downlevel_may_help(text: str, error: SyntaxError) -> bool:
    """False only when ``downlevel(text)`` cannot be text that parses (``error``: what ``ast`` said)."""
    first = first_marker(text)
    if first is None:
        return False
    return not _token_error_before(text, error, first)


def first_marker(text: str) -> int | None:
    """Where the first construct downlevel may rewrite could start, or None when there is none."""
    if _formatted_string_at_risk(text):
        return 0  # a rewritten f-string may be concatenated with strings before it
    starts = [found.start() for found in (_TYPE_PARAMETERS.search(text), _EXCEPT_STAR.search(text)) if found]
    for match in _EXCEPT.finditer(text):
        if starts and match.start() > min(starts):
            break
        if _clause_has_comma(text, match.end()):
            starts.append(match.start())
            break
    return min(starts) if starts else None


def parses_alone(source: str) -> bool:
    """``source`` is an expression this Python parses (how downlevel tests a string)."""
    try:
        quiet_parse(f"(\n{source}\n)", mode="eval")
        return True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def _formatted_string_at_risk(text: str) -> bool:
    for match in _FORMATTED.finditer(text):
        if match.group("template"):
            return True
        end = _closing_quote(text, match.end(), match.group("quote"))
        if end is None:
            return True
        if "{" in text[match.end() : end] and not parses_alone(text[match.start() : end]):
            return True
    return False


def _closing_quote(text: str, at: int, quote: str) -> int | None:
    """The end of the string whose body starts at ``at``, by quotes and backslashes only."""
    found = _BODIES[quote].match(text, at)
    return found.end() if found else None


def _clause_has_comma(text: str, at: int) -> bool:
    """Whether the ``except`` clause from ``at`` has a comma outside brackets before its colon."""
    depth = 0
    lambdas = 0  # a lambda at depth 0 owns the next colon
    while at < len(text):
        token = _CLAUSE.match(text, at)
        assert token is not None  # ``other`` matches any character the others do not
        at = token.end()
        kind = token.lastgroup
        if kind == "unterminated":
            return True  # no telling where the clause ends: maybe
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth < 0:
                return False
        elif depth == 0:
            if kind == "comma":
                return True
            if kind == "newline":
                return False
            if kind == "lambda":
                lambdas += 1
            elif kind == "colon":
                if not lambdas:
                    return False
                lambdas -= 1
    return False


def _token_error_before(text: str, error: SyntaxError, first: int) -> bool:
    """``error`` is a bad token on a line that ends before ``first``, and really on that line."""
    if not error.msg.startswith(_TOKEN_ERRORS) or not error.lineno or error.text is None:
        return False
    line_start = 0
    for number, match in enumerate(LINE_BREAK.finditer(text), start=1):
        if number == error.lineno:
            line = text[line_start : match.start()]
            return match.end() <= first and line == error.text.rstrip("\r\n")
        line_start = match.end()
    return False  # the last line: nothing can start after it
