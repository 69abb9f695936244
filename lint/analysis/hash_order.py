"""Orders that follow the process's hash seed: iterating a set of strings.

Python randomizes ``str`` hashes per process (``PYTHONHASHSEED``), so a set of
two or more strings iterates in another order in another process: a resume in
a new process meets its elements in another order than the run it resumes.
Only what is surely such a set is answered (a display of string literals,
``set(...)``/``frozenset(...)`` of one, or a name bound once to one); a set
built from data is not known to hold strings, and is left alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from steplint.analysis.index import ProjectIndex
from steplint.core.summary import (
    CallExpr,
    Comprehension,
    Const,
    Display,
    Expr,
    FunctionSummary,
    LoopStmt,
    ModuleSummary,
    Ref,
    Span,
)

#: How many names a set is followed through (``REGIONS = SET``, ``SET = {...}``).
_DEPTH = 3


@dataclass(frozen=True, slots=True)
class HashOrderedLoop:
    """A ``for`` (or a comprehension's ``for``) over a set of strings: where it iterates, what, and what runs per
    element (the loop's statements, or the comprehension's element and key)."""

    span: Span
    iterated: Expr
    body: tuple


def string_set(index: ProjectIndex, module: ModuleSummary, scope: FunctionSummary | None, expr: Expr,
               depth: int = _DEPTH) -> bool:
    """Whether ``expr`` is surely a set of two or more strings: a display, ``set(...)``/``frozenset(...)`` of a
    display, or a name bound once (unconditionally) to one. Anything else: not known."""
    if isinstance(expr, Display) and expr.kind == "set":
        return len(expr.items) > 1 and all(isinstance(i, Const) and isinstance(i.value, str) for i in expr.items)
    if isinstance(expr, Comprehension):
        return False
    if isinstance(expr, CallExpr) and isinstance(expr.func, Ref) and expr.func.dotted in ("set", "frozenset") \
            and len(expr.args) == 1 and is_builtin(index, module, scope, expr.func.dotted):
        items = expr.args[0]
        return isinstance(items, Display) and items.kind in ("list", "tuple", "set") and len(items.items) > 1 and all(
            isinstance(i, Const) and isinstance(i.value, str) for i in items.items)
    if isinstance(expr, Ref) and "." not in expr.dotted and depth > 0:
        own = scope is not None and expr.dotted in scope.bindings
        entries = (scope.bindings if own else module.bindings).get(expr.dotted, [])  # type: ignore[union-attr]
        if len(entries) == 1 and entries[0].kind == "assign" and not entries[0].conditional \
                and entries[0].value is not None:
            return string_set(index, module, scope if own else None, entries[0].value, depth - 1)
    return False


def is_builtin(index: ProjectIndex, module: ModuleSummary, scope: FunctionSummary | None, name: str) -> bool:
    """Whether ``name`` read in ``scope`` is the builtin of that name (no binding of the module shadows it)."""
    target = index.lookup(module, scope, name)
    return target is None or (target.kind == "external" and target.name == f"builtins.{name}")


def hash_ordered_loops(index: ProjectIndex, module: ModuleSummary, body: FunctionSummary) -> Iterator[HashOrderedLoop]:
    """The loops of ``body`` (``for`` statements and comprehensions, at any depth of its blocks; nested functions
    and lambdas are bodies of their own) over a set of strings."""
    stack: list = list(body.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (tuple, list)):
            stack.extend(node)
            continue
        if isinstance(node, LoopStmt) and node.iter is not None and node.span is not None \
                and string_set(index, module, body, node.iter):
            yield HashOrderedLoop(node.span, node.iter, node.body)
        elif isinstance(node, Comprehension):
            for generator in node.generators:
                if generator.span is not None and string_set(index, module, body, generator.iter):
                    yield HashOrderedLoop(generator.span, generator.iter, (node.elt, node.key))
        stack.extend(getattr(node, name, None) for name in getattr(type(node), "__slots__", ()))
