"""Edits of ``# noqa`` comments: add a code to a line (``--add-noqa``, the editor's quick fix), drop unused codes
(STP100's fix)."""

from __future__ import annotations

import io
import tokenize

from steplint.core.diagnostics import Edit
from steplint.source.python_parse import LINE_BREAK
from steplint.summaries.suppression_comments import FILE_NOQA, NOQA


def add_noqa_edit(text: str, line: int, code: str) -> Edit | None:
    """The edit that silences ``code`` on ``line``: extend its ``# noqa: ...`` or append one.

    None where a comment cannot go: the line ends inside a multi-line string
    or with a backslash continuation, or its noqa already silences everything
    (or already names the code).
    """
    lines = LINE_BREAK.split(text)
    if not 1 <= line <= len(lines):
        return None
    content = lines[line - 1]
    comment: tokenize.TokenInfo | None = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.start[0] > line:
                break
            if token.type == tokenize.COMMENT and token.start[0] == line:
                comment = token
            elif token.start[0] <= line < token.end[0] and token.type != tokenize.NL:
                return None  # a string (or f-string) runs on past this line
    except (tokenize.TokenError, SyntaxError):
        pass  # an unfinished file: the tokens up to the problem are enough
    if content.rstrip().endswith("\\"):
        return None
    if comment is not None:
        noqa = NOQA.search(comment.string)
        if noqa is not None:
            codes = noqa.group("codes")
            if codes is None or code.upper() in {c.upper() for c in codes.replace(",", " ").split()}:
                return None
            at = comment.start[1] + noqa.end("codes") + 1
            return Edit(line, at, line, at, f", {code}")
    end = len(content.rstrip()) + 1
    return Edit(line, end, line, len(content) + 1, f"  # noqa: {code}")


def remove_codes_edit(line_text: str, line: int, span: tuple[int, int], remove: set[str]) -> Edit | None:
    """The edit that takes ``remove`` out of the ``# noqa: ...`` at ``span`` (0-based columns) of ``line``.

    When no code is left, the whole ``# noqa`` goes, with the spaces before it.
    """
    start, end = span
    directive = line_text[start:end]
    match = NOQA.match(directive) or FILE_NOQA.match(directive)
    if match is None or match.group("codes") is None:
        return None
    codes = [c for c in match.group("codes").replace(",", " ").split()]
    kept = [c for c in codes if c.upper() not in remove]
    if len(kept) == len(codes):
        return None
    if kept:  # a file-level directive keeps its own prefix ("# ruff: noqa: ")
        prefix = "# noqa: " if match.re is NOQA else directive[:match.start("codes")]
        return Edit(line, start + 1, line, end + 1, f"{prefix}{', '.join(kept)}")
    rest = line_text[end:]
    if rest.strip():  # more comment after the directive: leave it, drop only the directive
        return Edit(line, start + 1, line, end + 1 + len(rest) - len(rest.lstrip()), "")
    before = len(line_text[:start].rstrip())  # the spaces before the comment go with it
    return Edit(line, before + 1, line, len(line_text) + 1, "")
