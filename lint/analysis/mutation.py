"""Which parameters a function changes in place, and whether a body reads a name after a call.

A parameter is changed in place where the body assigns into it or a part of
it (``doc["k"] = v``, ``doc.a.b = v``, ``doc["n"] += 1``) or calls a
mutating method of it or of a part of it (``items.append(x)``,
``doc["tags"].add(t)``, ``doc.setdefault(k, [])``), in its own statements
(a nested ``def`` or lambda may run elsewhere). A parameter the body rebinds
anywhere (``doc = dict(doc)``, ``doc = doc.model_copy()``) is left out: the
change may be made to a copy. ``del doc[k]`` is not in the summaries, and not
seen here.
"""

from __future__ import annotations

from typing import Iterator

from steplint.core.summary import (
    AssignStmt,
    Attr,
    AttrTarget,
    AugAssignStmt,
    CallExpr,
    FunctionSummary,
    IfStmt,
    ItemTarget,
    LoopStmt,
    MatchStmt,
    NameTarget,
    Ref,
    Subscript,
    TryStmt,
    WithStmt,
    iter_calls,
    spelled,
)

MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "remove", "pop", "clear", "update", "setdefault", "add", "discard", "sort",
    "reverse", "popitem", "difference_update", "intersection_update", "symmetric_difference_update",
    "__setitem__", "__delitem__",
})


def root_name(expr: object) -> str | None:
    """``doc`` for ``doc``, ``doc.a``, ``doc["k"]``, ``doc["k"].a``; None when a call makes the object."""
    if isinstance(expr, Ref):
        return expr.dotted.split(".", 1)[0]
    if isinstance(expr, (Subscript, Attr)):
        return root_name(expr.base)
    return None


def _blocks(statement: object) -> tuple:
    """The statement blocks a compound statement holds, in source order."""
    if isinstance(statement, (IfStmt, LoopStmt)):
        return (statement.body, statement.orelse)
    if isinstance(statement, WithStmt):
        return (statement.body,)
    if isinstance(statement, TryStmt):
        return (statement.body, *(handler[2] for handler in statement.handlers), statement.orelse, statement.final)
    if isinstance(statement, MatchStmt):
        return tuple(case[2] for case in statement.cases)
    return ()


def statements_in_order(body: tuple) -> Iterator[object]:
    """Every statement of a body, compound ones before the statements they hold, in source order."""
    for statement in body:
        yield statement
        for block in _blocks(statement):
            yield from statements_in_order(block)


def _assigned_into(statement: object) -> Iterator[tuple[str, str]]:
    targets = statement.targets if isinstance(statement, AssignStmt) else (
        (statement.target,) if isinstance(statement, AugAssignStmt) else ())
    for target in targets:
        if isinstance(target, (ItemTarget, AttrTarget)):
            name = root_name(target.base)
            if name is not None:
                where = "[...]" if isinstance(target, ItemTarget) else f".{target.attr}"
                yield name, f"assigns {spelled(target.base)}{where}"


def _mutating_call(callee: object) -> tuple[str, str] | None:
    if isinstance(callee, Ref) and "." in callee.dotted:
        head, _, method = callee.dotted.rpartition(".")
        if method in MUTATING_METHODS:
            return head.split(".", 1)[0], f"calls {callee.dotted}()"
    if isinstance(callee, Attr) and callee.attr in MUTATING_METHODS:
        name = root_name(callee.base)
        if name is not None:
            return name, f"calls {spelled(callee.base)}.{callee.attr}()"
    return None


def mutated_params(function: FunctionSummary) -> dict[str, str]:
    """The parameters ``function`` changes in place, each with the first change (``assigns doc[...]``)."""
    params = {p.name for p in function.params if p.kind not in ("vararg", "kwarg")}
    kept = {name for name in params if all(b.kind == "param" for b in function.bindings.get(name, ()))}
    found: dict[str, str] = {}
    for statement in statements_in_order(function.body):
        for name, change in _assigned_into(statement):
            if name in kept:
                found.setdefault(name, change)
    for call in function.calls:
        change = None if call.in_lambda else _mutating_call(call.callee)
        if change is not None and change[0] in kept:
            found.setdefault(change[0], change[1])
    return found


def rebinds_result(body: tuple, span: object, name: str) -> bool:
    """Whether the statement holding the call at ``span`` binds its result to ``name`` (``doc = await f(doc)``).

    Not when the bound value may be the old object itself (``doc = await f(doc) or doc``): it reads ``name``
    outside the call, so the changed object the resume never changes can be what ``name`` holds next.
    """
    holder = _holder(body, span)
    return isinstance(holder, AssignStmt) and any(
        isinstance(target, NameTarget) and target.name == name for target in holder.targets
    ) and not _reads_expression(holder.value, name, skip=span)


def read_after(body: tuple, span: object, name: str) -> bool:
    """Whether a statement after the one holding the call at ``span`` reads ``name`` (before any rebinding of it)."""
    ordered = list(statements_in_order(body))
    holder = _holder(body, span)
    if holder is None:
        return False
    for statement in ordered[ordered.index(holder) + 1:]:
        if _reads(statement, name):
            return True
        if isinstance(statement, AssignStmt) and any(
                isinstance(t, NameTarget) and t.name == name for t in statement.targets):
            return False
    return False


def _holder(body: tuple, span: object) -> object | None:
    """The innermost statement that holds the call at ``span``."""
    found = None
    for statement in statements_in_order(body):
        own = (statement,) if not _blocks(statement) else _header(statement)
        if any(call.span == span for call in iter_calls(own)):
            found = statement
    return found


def _header(statement: object) -> tuple:
    """A compound statement's own expressions (its test, iterable, context managers), not its blocks."""
    if isinstance(statement, IfStmt):
        return (statement.test,)
    if isinstance(statement, LoopStmt):
        return (statement.iter, statement.test)
    if isinstance(statement, WithStmt):
        return tuple(item[0] for item in statement.items)
    if isinstance(statement, MatchStmt):
        return (statement.subject,)
    return ()


def _reads(statement: object, name: str) -> bool:
    return _reads_expression((statement,) if not _blocks(statement) else _header(statement), name)


def _reads_expression(expression: object, name: str, skip: object = None) -> bool:
    """Whether ``expression`` reads ``name``, leaving out the call at span ``skip``."""
    stack: list = [expression]
    while stack:
        node = stack.pop()
        if isinstance(node, CallExpr) and skip is not None and node.span == skip:
            continue
        if isinstance(node, Ref) and node.dotted.split(".", 1)[0] == name:
            return True
        if isinstance(node, tuple):
            stack.extend(node)
        elif node is not None and not isinstance(node, (str, int, float, bool, bytes)):
            stack.extend(getattr(node, slot, None) for slot in getattr(type(node), "__slots__", ()))
    return False
