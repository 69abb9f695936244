"""Find suppression comments in source text.

A ``# noqa`` inside a string is not a comment: of the lines that hold a
directive, the parts inside string literals are known from the file's syntax
tree (only the statements around those lines are walked), and ``tokenize``
finds the comments of a file that does not parse. Files without the words
``noqa`` or ``steplint`` skip the scan.

- ``# noqa`` / ``# noqa: STP001,STP0``: flake8's form (case-insensitive, codes
  separated by commas or spaces; each code silences the codes it prefixes);
- ``# steplint: disable=STP001,STP010`` silences codes on its line;
- ``# steplint: disable-file=STP030`` (anywhere) silences codes in the file;
  ``*`` or ``all`` means every code;
- ``# ruff: noqa: STP001``, ``# flake8: noqa[: CODES]`` and ``# steplint:
  noqa[: CODES]`` on a line of their own (anywhere) silence codes in the file,
  every code without a list, as ruff reads them (elsewhere on a line ruff
  ignores them, and so does steplint).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from typing import Iterator

from steplint.core.summary import Suppressions
from steplint.source.reading import ParsedSource

# flake8's NOQA_INLINE_REGEXP (a code is letters then digits), with "#noqa" allowed as ruff does.
NOQA = re.compile(
    r"#\s*noqa(?::[\s]?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?",
    re.IGNORECASE,
)
# ruff's file-level exemption: the tool's name is lower-case, "noqa" any case, the codes as in NOQA.
FILE_NOQA = re.compile(
    r"#\s*(?:ruff|flake8|steplint)\s*:\s*(?i:noqa)(?:\s*:\s*(?P<codes>[A-Za-z]+[0-9]+(?:[,\s]+[A-Za-z]+[0-9]+)*))?"
)
_CODE = r"(?:\*|[A-Za-z]+[0-9]*)"
# Codes are comma-separated, so words after them ("disable=STP001 because ...") are a reason, not codes.
_DIRECTIVE = re.compile(rf"steplint:\s*(?P<kind>disable-file|disable)\s*=\s*(?P<codes>{_CODE}(?:\s*,\s*{_CODE})*)")
_CODES = re.compile(r"\*|[A-Z]+[0-9]*", re.IGNORECASE)
ALL = "*"


def parse_codes(text: str) -> tuple[str, ...]:
    """``"stp001, STP0"`` -> ``("STP001", "STP0")``; ``all`` and ``*`` -> ``("*",)``."""
    return tuple(ALL if code.lower() == "all" else code.upper() for code in _CODES.findall(text))


def scan_suppressions(text: str, parsed: ParsedSource | None = None) -> Suppressions:
    """The suppressions in ``text``; ``parsed`` (the text parsed, when it parses) says where its strings are."""
    found = Suppressions()
    if "noqa" not in text.lower() and "steplint" not in text:
        return found
    file_codes: list[str] = []
    lines: list[str] | None = None
    comments = _comments_outside_strings(parsed) if parsed is not None and parsed.tree is not None else _comments(text)
    for line, column, comment in comments:
        noqa = NOQA.search(comment)
        file_noqa = FILE_NOQA.match(comment) if noqa is None else None
        if noqa is not None or file_noqa is not None:
            lines = lines if lines is not None else text.splitlines()
            _record_noqa(found, line, column, noqa or file_noqa, noqa is None, lines)
        for directive in _DIRECTIVE.finditer(comment):
            codes = parse_codes(directive.group("codes"))
            if directive.group("kind") == "disable-file":
                file_codes.extend(codes)
            else:
                found.disabled[line] = found.disabled.get(line, ()) + codes
    found.file_disabled = tuple(file_codes)
    return found


def _record_noqa(found: Suppressions, line: int, column: int, match: re.Match, file_level: bool, lines: list[str]) -> None:
    """A ``# noqa`` for its line, or a file-level one when it stands on a line of its own (ruff ignores it after code)."""
    text = lines[line - 1] if line <= len(lines) else None
    if file_level and (text is None or text[:column].strip()):
        return
    codes = match.group("codes")
    listed, spans = (found.file_noqa, found.file_noqa_spans) if file_level else (found.noqa, found.noqa_spans)
    listed[line] = parse_codes(codes) if codes else ()
    spans[line] = (column + match.start(), column + match.end())
    if text is not None:
        found.noqa_lines[line] = text


def _comments_outside_strings(parsed: ParsedSource) -> Iterator[tuple[int, int, str]]:
    """(line, 0-based column, comment text) of the comments on lines that may hold a directive."""
    lines = parsed.lines()
    candidates = {
        number for number, line in enumerate(lines, start=1)
        if "#" in line and (NOQA.search(line) is not None or FILE_NOQA.search(line) is not None or "steplint" in line)
    }
    if not candidates:
        return
    strings = _string_spans(parsed, candidates)
    for number in sorted(candidates):
        line = lines[number - 1]
        inside = strings.get(number, ())
        at = line.find("#")
        while at >= 0 and any(start <= at < end for start, end in inside):
            at = line.find("#", at + 1)
        if at >= 0:
            yield number, at, line[at:]


def _string_spans(parsed: ParsedSource, wanted: set[int]) -> dict[int, list[tuple[int, int]]]:
    """For each line of ``wanted``, the character ranges string literals cover on it.

    Only the statements around those lines are walked. A literal over several
    lines may be adjacent strings joined (with comments between them): its own
    text is tokenized to find the strings' exact extent.
    """
    spans: dict[int, list[tuple[int, int]]] = {}
    low, high = min(wanted), max(wanted)
    stack: list[ast.AST] = [parsed.tree] if parsed.tree is not None else []
    while stack:
        node = stack.pop()
        first, last = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        if first is not None and last is not None:
            decorators = getattr(node, "decorator_list", None)
            if decorators:  # a definition's line is its ``def``: its decorators come before it
                first = min(first, *(d.lineno for d in decorators))
            if last < low or first > high or not any(first <= line <= last for line in wanted):
                continue
            if type(node) is ast.JoinedStr or (type(node) is ast.Constant and isinstance(node.value, (str, bytes))):
                start = parsed.column(first, node.col_offset)
                end = parsed.column(last, node.end_col_offset)
                if first == last:
                    spans.setdefault(first, []).append((start, end))
                else:
                    for line, piece in _token_spans(parsed.lines(), first, start, last, end):
                        spans.setdefault(line, []).append(piece)
                continue
        stack.extend(ast.iter_child_nodes(node))
    return spans


def _token_spans(lines: list[str], first: int, start: int, last: int, end: int) -> Iterator[tuple[int, tuple[int, int]]]:
    """(line, character range) of each string token between (first, start) and (last, end)."""
    segment = [lines[first - 1][start:], *lines[first:last - 1], lines[last - 1][:end]]
    source = "(" + "\n".join(segment) + ")\n"  # in brackets, adjacent strings and comments tokenize as written
    opened: tuple[int, int] | None = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            kind = tokenize.tok_name.get(token.exact_type, "")
            if token.type == tokenize.STRING or kind == "FSTRING_START":
                opened = token.start
            if token.type == tokenize.STRING or kind == "FSTRING_END":
                assert opened is not None
                yield from _covered(opened, token.end, first, start)
                opened = None
    except (tokenize.TokenError, SyntaxError, IndentationError, AssertionError):
        for line in range(first, last + 1):  # cannot say: the whole literal counts as string
            yield line, (start if line == first else 0, end if line == last else 1 << 30)


def _covered(begin: tuple[int, int], finish: tuple[int, int], first: int, start: int) -> Iterator[tuple[int, tuple[int, int]]]:
    """A token's (row, col) extent in the bracketed segment, as ranges of the file's lines."""
    for row in range(begin[0], finish[0] + 1):
        offset = start - 1 if row == 1 else 0  # the segment's first line starts at ``start``, after the bracket
        low = begin[1] + offset if row == begin[0] else 0
        high = finish[1] + offset if row == finish[0] else 1 << 30
        yield first + row - 1, (low, high)


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
