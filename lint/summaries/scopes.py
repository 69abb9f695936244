"""The scopes a summary's walk is in, and what it binds in them.

``ScopeState`` is the state one file's walk shares: the scope stacks, the
names read, the expression forms. The walkers build on it
(``expression_walk``, then ``statement_walk``), one concern per module; they
extend it as subclasses rather than hold it, so that a walk's many small
calls cost one attribute lookup, not two.
"""

from __future__ import annotations

import ast
from contextlib import contextmanager
from typing import Iterator

from steplint.core.summary import REDEFINITION_MARK, Binding, FunctionSummary, ModuleSummary, Param, Span, Stmt
from steplint.source.reading import ParsedSource
from steplint.summaries.expression_forms import ExpressionForms, no_span
from steplint.summaries.positions import Positions

MODULE_SCOPE = "<module>"


class Scope:
    __slots__ = ("function", "bindings", "order", "qualname", "locals_", "statements", "lambdas")

    def __init__(self, function: FunctionSummary | None, bindings: dict[str, list[Binding]], qualname: str):
        self.function = function
        self.bindings = bindings
        self.order = 0
        self.qualname = qualname
        self.locals_: set[str] = set()
        self.statements: list[Stmt] = []
        self.lambdas = 0


class ScopeState:
    def __init__(self, summary: ModuleSummary, parsed: ParsedSource):
        self.summary = summary
        self.module_function = FunctionSummary(
            qualname=MODULE_SCOPE,
            name=MODULE_SCOPE,
            span=Span(1, 0, 1, 0),
            is_async=False,
            decorators=(),
            params=(),
        )
        self.star_imports: list[str] = []
        self.module_bound: list[tuple[str, Binding]] | None = None  # kept only when building in parts
        # The innermost *function* scope receives calls; class bodies do not own calls.
        self.function_stack: list[Scope] = []
        self.binding_stack: list[Scope] = []
        self.class_stack: list[str] = []
        self.loaded: list[set[str]] = []
        self.conditional = 0  # how many branches, loops, try or with blocks of the scope we are in
        self.in_main_guard = False  # walking the body of the module's top-level ``if __name__ == "__main__":``
        self.lambda_names: dict[int, str] = {}
        self.defined: dict[str, int] = {}  # qualified name -> how many ``def`` statements made it so far
        self.defined_digest = 0
        self.defined_here: list[str] = []  # every qualified name ``def`` made, in order (a group's share of them)
        # Nothing here refers back to the builder: the tree is freed as soon as the summary is made.
        positions = Positions(parsed)
        self.span = positions.span
        self.def_span = positions.def_span
        self.effects: set[int] = set()
        self.forms = ExpressionForms(self.span, sited=True, lambda_names=self.lambda_names, effects=self.effects)
        # Assignment and parameter annotations keep their forms without spans (as ``to_expr`` gives them).
        self.annotation_forms = ExpressionForms(no_span, self.forms.shared)

    def bind(self, name: str, kind: str, line: int, **fields: object) -> None:
        scope = self.binding_stack[-1]
        scope.order += 1
        binding = Binding(kind=kind, order=scope.order, line=line, conditional=self.conditional > 0,  # type: ignore[arg-type]
                          main_only=self.in_main_guard and len(self.binding_stack) == 1, **fields)
        scope.bindings.setdefault(name, []).append(binding)
        scope.locals_.add(name)
        if self.module_bound is not None and len(self.binding_stack) == 1:
            self.module_bound.append((name, binding))

    def qualname(self, name: str) -> str:
        prefix = self.binding_stack[-1].qualname
        return f"{prefix}.{name}" if prefix else name

    def function_qualname(self, name: str) -> str:
        """A ``def``'s qualified name; a second ``def`` of the same name in the same scope is ``name#2``."""
        qualname = self.qualname(name)
        count = self.count_definition(qualname)
        return qualname if count == 1 else f"{qualname}{REDEFINITION_MARK}{count}"

    def count_definition(self, qualname: str) -> int:
        """One more ``def`` of ``qualname``: how many there are now. ``defined_digest`` follows the counts (a
        group of top-level statements is kept only when the counts before it are the same: ``builder``)."""
        before = self.defined.get(qualname, 0)
        self.defined[qualname] = before + 1
        if before:
            self.defined_digest ^= hash((qualname, before))
        self.defined_digest ^= hash((qualname, before + 1))
        self.defined_here.append(qualname)
        return before + 1

    def lambda_qualname(self, node: ast.Lambda) -> str:
        """A lambda's name, made the first time it is asked for: the n-th lambda of its scope is ``<lambdan>``."""
        found = self.lambda_names.get(id(node))
        if found is None:
            scope = self.binding_stack[-1]
            scope.lambdas += 1
            name = f"<lambda{scope.lambdas}>"
            found = self.lambda_names[id(node)] = f"{scope.qualname}.{name}" if scope.qualname else name
        return found

    def parent_qualname(self) -> str | None:
        """The function a definition here is nested in; None at module level."""
        enclosing = self.function_stack[-1].function
        return enclosing.qualname if enclosing is not self.module_function else None  # type: ignore[union-attr]

    def emit(self, statement: Stmt) -> None:
        self.binding_stack[-1].statements.append(statement)

    @contextmanager
    def conditionally(self) -> Iterator[None]:
        self.conditional += 1
        try:
            yield
        finally:
            self.conditional -= 1

    def function_scope(self, function: FunctionSummary, params: tuple[Param, ...], qualname: str) -> Scope:
        """A new scope for ``function``'s body, its parameters bound first."""
        scope = Scope(function, function.bindings, qualname)
        for param in params:
            scope.locals_.add(param.name)
            scope.order += 1
            function.bindings.setdefault(param.name, []).append(Binding("param", scope.order, param.span.line))
        return scope

    def close_function_scope(self, function: FunctionSummary, scope: Scope, loaded: set[str]) -> None:
        """Keep the names ``function``'s body read (``loaded``); the free ones are read by the enclosing scope too."""
        function.loaded_names = frozenset(loaded)
        nonlocal_ = function.declared_nonlocal
        self.loaded[-1].update(loaded - scope.locals_ if not nonlocal_ else loaded - (scope.locals_ - nonlocal_))

