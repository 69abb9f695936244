"""The summary of a document that is edited over and over, remade on each edit only where the edit reaches.

The language server summarizes an open document on every pause in typing,
and in a module of a few thousand lines parsing and summarizing all of it
is most of a lint. So the document is kept as groups of whole top-level
statements (with the comment lines after them). After an edit, the groups
before the first changed character and the groups after the last one are
kept; only the text between them is parsed again, on its own, with its
line numbers padded. Groups after the edit are kept only if the edit left
their lines where they were; otherwise they are parsed again too.

Parsing a stretch on its own gives the same statements as parsing the
whole file: it starts at the beginning of a line where the tokenizer holds
nothing open (a top-level statement began there), and if it parses, it
closes everything it opens, so the unchanged text after it starts afresh
too. A stretch that does not parse on its own (the edit opened a bracket,
indented a line, left a syntax error) is not patched: the whole text is
parsed, exactly as ``summarize_source`` does, and that answer is the one
given. The builder adds a kept group's part of the summary again when the
counters before it (binding order, lambdas, display sites) match
(``summarize_in_parts``), so the summary equals the one made from scratch;
``tests/test_open_document.py`` checks that over random edits of real files.
"""

from __future__ import annotations

import ast
import threading
from bisect import bisect_right
from itertools import accumulate
from dataclasses import dataclass

from steplint.core import gc_pause
from steplint.core.summary import ModuleSummary
from steplint.source.module_identity import module_of
from steplint.source.python_parse import LINE_BREAK, quiet_parse
from steplint.source.reading import ParsedSource, count_lines, parse_text
from steplint.summaries.builder import TopLevelPart, summarize, summarize_in_parts
from steplint.summaries.file_summary import summarize_source

_BLOCK = 4096  # characters compared at a time when looking for the first and last change


@dataclass(slots=True)
class _Group:
    """Whole top-level statements and the lines after them, up to the next group."""

    line: int  # its first line (1-based)
    offset: int  # the character where that line starts
    statements: list[ast.stmt]
    part: TopLevelPart | None = None


class OpenDocument:
    """``summarize_source`` for successive versions of one document, reusing what an edit did not reach."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()  # two lints of one document may overlap in the server's threads
        self._text: str | None = None
        self._identity: tuple[str, bool] | None = None
        self._groups: list[_Group] = []
        self._summary: ModuleSummary | None = None
        self.parsed_lines = 0  # how many lines the last ``summary`` parsed (what an edit costs, for tests and benches)

    def summary(self, data: bytes) -> ModuleSummary:
        """The summary ``summarize_source(data, path)`` gives, never an exception."""
        with self._lock:
            text = _utf8_text(data)
            identity = module_of(self.path)
            if text is not None:
                try:
                    with gc_pause.paused():
                        found = self._summarize(text, identity)
                    if found is not None:
                        return found
                except Exception:  # too deep, out of memory, a bug: the plain path below says what it is
                    pass
            self._forget()
            return summarize_source(data, self.path)

    def _forget(self) -> None:
        self._text, self._groups, self._summary = None, [], None

    def _summarize(self, text: str, identity: tuple[str, bool]) -> ModuleSummary | None:
        if self._text is not None and identity == self._identity:
            if text == self._text:
                self.parsed_lines = 0
                return self._summary
            groups = self._patched(text)
        else:
            groups = None
        if groups is None:
            parsed = parse_text(text, self.path)
            self.parsed_lines = parsed.line_count
            if parsed.tree is None:
                self._forget()
                return summarize(parsed, self.path, *identity)
            groups = _grouped(parsed.tree.body, 1, 0, _line_starts(text))
        else:
            tree = ast.Module(body=[statement for group in groups for statement in group.statements], type_ignores=[])
            parsed = ParsedSource(text, tree, None, count_lines(text))
        summary, parts = summarize_in_parts(parsed, self.path, *identity, [g.statements for g in groups],
                                            [g.part for g in groups])
        for group, part in zip(groups, parts):
            group.part = part
        self._text, self._identity, self._groups, self._summary = text, identity, groups, summary
        return summary

    def _patched(self, text: str) -> list[_Group] | None:
        """The groups of ``text``, the edited stretch parsed anew; None when it does not parse on its own."""
        old, groups = self._text, self._groups
        assert old is not None
        prefix = _common_prefix(old, text)
        suffix = _common_suffix(old, text, min(len(old), len(text)) - prefix)
        offsets = [group.offset for group in groups]
        first = max(bisect_right(offsets, prefix) - 1, 0)
        changed_end = len(old) - suffix  # old[prefix:changed_end] was replaced
        last = max(bisect_right(offsets, changed_end - 1) - 1, first)
        starts = _line_starts(text)
        start = offsets[first] if first else 0
        start_line = _line_at(starts, start)
        if start_line is None:
            return None
        shift = len(text) - len(old)
        kept: list[_Group] = []
        end = len(text)
        if last + 1 < len(groups):
            following = groups[last + 1]
            # Kept only if it still starts a line, the same one: the edit neither joined it to the line above
            # nor moved it (then every group below is parsed again, and each one's summary remade).
            if _line_at(starts, following.offset + shift) == following.line:
                end = following.offset + shift
                kept = [_Group(g.line, g.offset + shift, g.statements, g.part) for g in groups[last + 1:]]
        source = text[start:end]
        try:
            stretch = quiet_parse("\n" * (start_line - 1) + source, self.path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        self.parsed_lines = count_lines(source)
        return [*groups[:first], *_grouped(stretch.body, start_line, start, starts), *kept]


def _grouped(statements: list[ast.stmt], line: int, offset: int, starts: list[int]) -> list[_Group]:
    """Statements that start at ``line`` (character ``offset``) in groups: a group starts on a line of its own."""
    groups = [_Group(line, offset, [])]
    last_line = 0
    for statement in statements:
        decorators = getattr(statement, "decorator_list", None)
        begins = min(statement.lineno, *(d.lineno for d in decorators)) if decorators else statement.lineno
        if groups[-1].statements and begins > last_line:
            groups.append(_Group(begins, starts[begins - 1], []))
        groups[-1].statements.append(statement)
        last_line = max(last_line, statement.end_lineno or statement.lineno)
    return groups


def _line_starts(text: str) -> list[int]:
    """The character offset where each line starts (line n at item n - 1), as Python's tokenizer breaks lines."""
    if "\r" in text:
        return [0, *(match.end() for match in LINE_BREAK.finditer(text))]
    lines = text.split("\n")
    lines.pop()  # after the last line break there is no line break left to count
    return [0, *accumulate(map((1).__add__, map(len, lines)))]  # each line and its break


def _line_at(starts: list[int], offset: int) -> int | None:
    """The 1-based line that starts exactly at ``offset``, or None when ``offset`` is inside a line."""
    index = bisect_right(starts, offset) - 1
    return index + 1 if index >= 0 and starts[index] == offset else None


def _common_prefix(a: str, b: str) -> int:
    """How many leading characters ``a`` and ``b`` share."""
    limit = min(len(a), len(b))
    at = 0
    while at < limit and a[at:at + _BLOCK] == b[at:at + _BLOCK]:
        at += _BLOCK
    at = min(at, limit)
    low, high = at, min(at + _BLOCK, limit)  # the first difference is in a[low:high]
    while low < high:
        middle = (low + high + 1) // 2
        if a[at:middle] == b[at:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    """How many trailing characters ``a`` and ``b`` share, at most ``limit``."""
    size_a, size_b = len(a), len(b)
    at = 0
    while at < limit and a[max(size_a - at - _BLOCK, size_a - limit):size_a - at] == b[max(size_b - at - _BLOCK, size_b - limit):size_b - at]:
        at += _BLOCK
    at = min(at, limit)
    low, high = at, min(at + _BLOCK, limit)
    while low < high:
        middle = (low + high + 1) // 2
        if a[size_a - middle:size_a - at] == b[size_b - middle:size_b - at]:
            low = middle
        else:
            high = middle - 1
    return low


def _utf8_text(data: bytes) -> str | None:
    """The text of bytes that decode as plain UTF-8 (no byte order mark, no encoding declaration); else None."""
    if data.startswith(b"\xef\xbb\xbf") or b"coding" in b"\n".join(data.split(b"\n", 2)[:2]):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
