"""The edits a rule's fix makes to the call it reports: a libcst rewrite, turned into the smallest text edit.

A rule makes its fix with ``rewrite_call``: a libcst transformation of the
reported call's own source, so the formatting and comments inside it survive,
turned into the smallest text edit that has the same effect (``tick(x)`` ->
``tick.__wrapped__(x)`` is one insertion). Edits are plain data, so an editor
can offer them as code actions, and ``steplint.fixes.apply`` applies them to
any text that the findings were made from (a file, an unsaved buffer).

Only the reported call is parsed, never the whole module, and libcst is only
imported then: fixes cost nothing in files without fixable findings.
``call_attribute`` (``tick(x)`` -> ``tick.__wrapped__(x)``) edits a call
written plainly as ``callee(...)`` as text, without libcst, to the same edit.
"""

from __future__ import annotations

import ast
from functools import partial
from typing import TYPE_CHECKING, Callable

from steplint.core.diagnostics import Edit, Fix
from steplint.core.summary import Span
from steplint.fixes.positions import position_after, text_between
from steplint.summaries.builder import dotted_name as ast_dotted_name

if TYPE_CHECKING:
    import libcst as cst


def rewrite_call(
    text: str | None,
    span: Span,
    callee: str,
    transform: Callable[["cst.Call"], "cst.BaseExpression"],
    *,
    title: str,
    safe: bool,
) -> Fix | None:
    """The fix that replaces the call at ``span`` by ``transform(call)``, or None.

    ``callee`` is the dotted name the rule saw called there: when the text no
    longer holds that call (it changed since it was summarized), there is no fix.
    """
    if text is None:
        return None
    import libcst as cst

    snippet = text_between(text, span)
    if snippet is None:
        return None
    try:
        call = cst.parse_expression(snippet)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return None
    if not isinstance(call, cst.Call) or dotted_name(call.func) != callee:
        return None
    replacement = cst.Module(body=()).code_for_node(transform(call))
    edit = smallest_edit(snippet, replacement, span.line, span.col)
    return Fix((edit,), safe=safe, title=title) if edit is not None else None


def call_attribute(
    text: str | None, span: Span, callee: str, attribute: str, *, title: str, safe: bool
) -> Fix | None:
    """The fix that calls ``callee.attribute`` instead of ``callee`` at ``span`` (``tick(x)`` -> ``tick.__wrapped__(x)``).

    A call written exactly ``callee(...)`` (nearly every one) is edited as
    text: libcst would print the same characters around the inserted
    attribute, and parsing the call with it costs a millisecond and its import
    a third of a second. Any other spelling (spaces, parentheses or comments
    around the callee, a changed text) takes ``rewrite_call``'s libcst path.
    """
    snippet = text_between(text, span) if text is not None else None
    if snippet is not None and is_plain_call(snippet, callee):
        edit = smallest_edit(snippet, f"{callee}.{attribute}{snippet[len(callee):]}", span.line, span.col)
        return Fix((edit,), safe=safe, title=title) if edit is not None else None
    return rewrite_call(text, span, callee, partial(with_attribute, attribute), title=title, safe=safe)


def call_through_method(
    text: str | None, span: Span, callee: str, method: str, *, title: str, safe: bool
) -> Fix | None:
    """The fix that calls ``receiver.method().attribute`` instead of ``callee`` = ``receiver.attribute`` at ``span``
    (``pipeline.run(x)`` -> ``pipeline.build().run(x)``): as text where the call is plain, else through libcst."""
    receiver, _, attribute = callee.rpartition(".")
    snippet = text_between(text, span) if text is not None else None
    if receiver and snippet is not None and is_plain_call(snippet, callee):
        replacement = f"{receiver}.{method}().{attribute}{snippet[len(callee):]}"
        edit = smallest_edit(snippet, replacement, span.line, span.col)
        return Fix((edit,), safe=safe, title=title) if edit is not None else None
    if not receiver:
        return None
    return rewrite_call(text, span, callee, partial(through_method, method), title=title, safe=safe)


def through_method(method: str, call: "cst.Call") -> "cst.Call":
    import libcst as cst

    func = call.func
    assert isinstance(func, cst.Attribute)  # rewrite_call checked the callee is the dotted ``receiver.attribute``
    made = cst.Call(func=cst.Attribute(value=func.value, attr=cst.Name(method)))
    return call.with_changes(func=func.with_changes(value=made))


def is_plain_call(snippet: str, callee: str) -> bool:
    """``snippet`` is one call whose callee is exactly the text ``callee``, followed by the call's parentheses.

    Not with a carriage return: libcst prints the call's other line breaks as
    ``\\n``, and the text path must not fix what that path would not.
    """
    if not (snippet.startswith(callee) and snippet[len(callee) : len(callee) + 1] == "(" and snippet.endswith(")")):
        return False
    if "\r" in snippet:
        return False
    try:
        call = ast.parse(snippet, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    func = call.func if isinstance(call, ast.Call) else None
    return (
        isinstance(func, (ast.Name, ast.Attribute))
        and (func.end_lineno, func.end_col_offset) == (1, len(callee.encode("utf-8")))
        and ast_dotted_name(func) == callee
    )


def with_attribute(attribute: str, call: "cst.Call") -> "cst.Call":
    import libcst as cst

    return call.with_changes(func=cst.Attribute(value=call.func, attr=cst.Name(attribute)))


def dotted_name(node: "cst.BaseExpression") -> str | None:
    """``a.b.c`` for a Name/Attribute chain (whatever the spaces, parentheses and comments), else None."""
    import libcst as cst

    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base is not None else None
    return None


def smallest_edit(old: str, new: str, line: int, column: int) -> Edit | None:
    """The one edit turning ``old`` (which starts at 1-based ``line``, 0-based ``column``) into ``new``."""
    if old == new:
        return None
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    start = position_after(old[:prefix], line, column)
    end = position_after(old[: len(old) - suffix], line, column)
    return Edit(start[0], start[1] + 1, end[0], end[1] + 1, new[prefix : len(new) - suffix])
