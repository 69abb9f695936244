"""The walk over statements: each becomes a small statement form (``core.summary``) and binds its names.

Each statement kind has its handler in ``_HANDLERS``, as pyflakes dispatches
on node types; a kind missing from it (assert, pass, break, continue) still
has its expressions' calls recorded.
"""

from __future__ import annotations

import ast
from typing import Callable

from steplint.core.summary import (
    AssignStmt,
    AugAssignStmt,
    ClassStmt,
    ClassSummary,
    DefStmt,
    ExprStmt,
    FromImportStmt,
    FunctionSummary,
    IfStmt,
    ImportStmt,
    LoopStmt,
    MatchStmt,
    NameTarget,
    RaiseStmt,
    ReturnStmt,
    Span,
    Stmt,
    TargetForm,
    TryStmt,
    WithStmt,
)
from steplint.summaries.expression_forms import OPERATORS, target_form
from steplint.summaries.expression_walk import ExpressionWalker
from steplint.summaries.pattern_forms import pattern_form
from steplint.summaries.scopes import Scope

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class StatementWalker(ExpressionWalker):
    def statements(self, body: list[ast.stmt]) -> None:
        handlers, other = _HANDLERS, StatementWalker._other_statement
        for statement in body:
            handlers.get(type(statement), other)(self, statement)

    def block(self, body: list[ast.stmt]) -> tuple[Stmt, ...]:
        """The statements of a nested block, in their own list (the scope's bindings are shared)."""
        scope = self.binding_stack[-1]
        saved = scope.statements
        scope.statements = []
        self.conditional += 1
        try:
            self.statements(body)
            return tuple(scope.statements)
        finally:
            self.conditional -= 1
            scope.statements = saved

    def target_form(self, target: ast.AST) -> TargetForm:
        """The assignment target's form (its sub-expressions' calls are recorded by ``bind_target``)."""
        return target_form(self.forms, target)

    # --- simple statements ---------------------------------------------------------------

    def _expression_statement(self, node: ast.Expr) -> None:
        self.emit(ExprStmt(self.expression(node.value)))

    def _return(self, node: ast.Return) -> None:
        self.emit(ReturnStmt(self.expression(node.value) if node.value is not None else None))

    def _import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.bind(alias.asname, "import", node.lineno, target=alias.name)
                self.emit(ImportStmt(alias.name, alias.asname, False))
            else:
                head = alias.name.split(".", 1)[0]
                self.bind(head, "import", node.lineno, target=head)
                self.emit(ImportStmt(alias.name, head, True))

    def _import_from(self, node: ast.ImportFrom) -> None:
        base = resolve_relative(self.summary.module, self.summary.is_package, node.module, node.level)
        if base is None:
            return
        for alias in node.names:
            if alias.name == "*":
                if len(self.binding_stack) == 1:
                    self.star_imports.append(base)
                self.emit(FromImportStmt(base, "*", "*"))
                continue
            self.bind(alias.asname or alias.name, "import", node.lineno, target=base, imported_name=alias.name)
            self.emit(FromImportStmt(base, alias.name, alias.asname or alias.name))

    def _assign(self, node: ast.Assign) -> None:
        value = self.expression(node.value, sink=_stored_name(node.targets[-1]))
        targets = []
        for target in node.targets:
            self.bind_target(target, value)
            targets.append(self.target_form(target))
        self.emit(AssignStmt(tuple(targets), value))

    def _annotated_assign(self, node: ast.AnnAssign) -> None:
        annotation = self.annotation_forms.of(node.annotation)
        self.visit(node.annotation, record=False)
        value = None
        if node.value is not None:
            value = self.expression(node.value, sink=_stored_name(node.target))
        if node.value is not None or not self.class_stack or self.binding_stack[-1].function is not None:
            self.bind_target(node.target, value, annotation)
        if value is not None:
            self.emit(AssignStmt((self.target_form(node.target),), value))

    def _augmented_assign(self, node: ast.AugAssign) -> None:
        value = self.expression(node.value, sink=_stored_name(node.target))
        self.visit(node.target)
        self.emit(AugAssignStmt(self.target_form(node.target), OPERATORS.get(type(node.op), "?"), value))

    def _type_alias(self, node: ast.stmt) -> None:
        value = self.annotation_forms.of(node.value)  # type: ignore[attr-defined]
        self.visit(node.value, record=False)  # type: ignore[attr-defined]
        self.bind(node.name.id, "assign", node.lineno, value=value, is_type_alias=True)  # type: ignore[attr-defined]

    def _raise(self, node: ast.Raise) -> None:
        value = self.expression(node.exc) if node.exc is not None else None
        if node.cause is not None:
            self.visit(node.cause)
        self.emit(RaiseStmt(value))

    def _global(self, node: ast.Global | ast.Nonlocal) -> None:
        function = self.binding_stack[-1].function
        if function is not None and function is not self.module_function:
            names = frozenset(node.names)
            if type(node) is ast.Global:
                function.declared_global = function.declared_global | names
            else:
                function.declared_nonlocal = function.declared_nonlocal | names

    def _delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self.visit(target)

    def _other_statement(self, node: ast.stmt) -> None:
        """Assert, pass, break, continue: their expressions' calls still count."""
        for value in ast.iter_child_nodes(node):
            if isinstance(value, ast.expr):
                self.emit(ExprStmt(self.expression(value)))

    # --- compound statements -------------------------------------------------------------

    def _for(self, node: ast.For | ast.AsyncFor) -> None:
        iterated = self.expression(node.iter)
        with self.conditionally():
            self.bind_target(node.target)
        target = self.target_form(node.target)
        span = self.head_span(node, node.iter)
        self.implicit_call(iterated, span, awaited=type(node) is ast.AsyncFor)
        body = self.block(node.body)
        self.emit(LoopStmt(target, iterated, None, body, self.block(node.orelse), type(node) is ast.AsyncFor, span,
                           _jumps(node.body)))

    def _while(self, node: ast.While) -> None:
        test = self.expression(node.test)
        body = self.block(node.body)
        self.emit(LoopStmt(None, None, test, body, self.block(node.orelse)))

    def _if(self, node: ast.If) -> None:
        test = self.expression(node.test)
        outer = self.in_main_guard
        self.in_main_guard = outer or (len(self.binding_stack) == 1 and not self.conditional
                                       and _is_main_guard(node.test))
        try:
            body = self.block(node.body)
        finally:
            self.in_main_guard = outer
        self.emit(IfStmt(test, body, self.block(node.orelse)))

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        items = []
        spans = []
        is_async = type(node) is ast.AsyncWith
        with self.conditionally():
            for item in node.items:
                context = self.expression(item.context_expr)
                target = None
                if isinstance(item.optional_vars, ast.Name):
                    self.bind(item.optional_vars.id, "with", node.lineno, value=context)
                    target = NameTarget(item.optional_vars.id)
                elif item.optional_vars is not None:
                    self.bind_target(item.optional_vars)
                    target = self.target_form(item.optional_vars)
                items.append((context, target))
                spans.append(self.head_span(node, item.optional_vars or item.context_expr))
                self.implicit_call(context, spans[-1], awaited=is_async)
        body = self.block(node.body)
        self.emit(WithStmt(tuple(items), body, is_async, tuple(spans)))

    def head_span(self, node: ast.stmt, last: ast.expr) -> Span:
        """From the statement's keyword to the end of ``last``: never a call's own span."""
        start, end = self.span(node), self.span(last)
        return Span(start.line, start.col, end.end_line, end.end_col)

    def _try(self, node: ast.Try) -> None:
        body = self.block(node.body)
        handlers = []
        for handler in node.handlers:
            kind_form = self.expression(handler.type) if handler.type is not None else None
            if handler.name:
                with self.conditionally():
                    self.bind(handler.name, "assign", handler.lineno)
            handlers.append((kind_form, handler.name, self.block(handler.body)))
        orelse = self.block(node.orelse)
        self.emit(TryStmt(body, tuple(handlers), orelse, self.block(node.finalbody)))

    def _match(self, node: ast.Match) -> None:
        subject = self.expression(node.subject)
        cases = []
        for case in node.cases:
            with self.conditionally():
                captured = self._pattern(case.pattern)
            guard = self.expression(case.guard) if case.guard is not None else None
            cases.append((captured, guard, self.block(case.body)))
        patterns = tuple(pattern_form(self.forms, case.pattern) for case in node.cases)
        self.emit(MatchStmt(subject, tuple(cases), patterns))

    def _pattern(self, node: ast.AST) -> tuple[str, ...]:
        captured = []
        for sub in ast.walk(node):
            name = getattr(sub, "name", None) or getattr(sub, "rest", None)
            if isinstance(name, str):
                self.bind(name, "assign", getattr(sub, "lineno", 0))
                captured.append(name)
            if isinstance(sub, ast.expr):
                self.visit(sub)
        return tuple(captured)

    # --- definitions ---------------------------------------------------------------------

    def _function_def(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        # Decorators, defaults and annotations run in the enclosing scope.
        decorators = tuple(self.expression(d) for d in node.decorator_list)
        params = self.parameters(node.args)
        returns = None
        if node.returns is not None:
            returns = self.annotation_forms.of(node.returns)
            self.visit(node.returns, record=False)
        qualname = self.function_qualname(node.name)
        function = FunctionSummary(
            qualname=qualname,
            name=node.name,
            span=self.def_span(node),
            is_async=type(node) is ast.AsyncFunctionDef,
            decorators=decorators,
            params=params,
            class_qualname=self.class_stack[-1] if self.class_stack and self.binding_stack[-1].function is None else None,
            parent=self.parent_qualname(),
            returns=returns,
        )
        self.bind(node.name, "def", node.lineno, target=qualname)
        self.emit(DefStmt(node.name, qualname))
        self.summary.functions.append(function)
        self._function_body(function, self.function_scope(function, params, f"{qualname}.<locals>"), node.body)

    def _function_body(self, function: FunctionSummary, scope: Scope, body: list[ast.stmt]) -> None:
        self.function_stack.append(scope)
        self.binding_stack.append(scope)
        saved_classes, saved_conditional = self.class_stack, self.conditional
        self.class_stack, self.conditional = [], 0
        self.loaded.append(set())
        try:
            self.statements(body)
        finally:
            loaded = self.loaded.pop()
            self.class_stack, self.conditional = saved_classes, saved_conditional
            self.binding_stack.pop()
            self.function_stack.pop()
        function.body = tuple(scope.statements)
        self.close_function_scope(function, scope, loaded)

    def _class_def(self, node: ast.ClassDef) -> None:
        decorators = tuple(self.expression(d) for d in node.decorator_list)
        bases = tuple(self.expression(b) for b in node.bases)
        keywords = tuple((k.arg or "**", self.expression(k.value)) for k in node.keywords)
        qualname = self.qualname(node.name)
        self.bind(node.name, "class", node.lineno, target=qualname)
        self.emit(ClassStmt(node.name, qualname))
        body_names, fields = self._class_names(node.body)
        cls = ClassSummary(
            qualname=qualname,
            name=node.name,
            span=self.def_span(node),
            bases=bases,
            keywords=keywords,
            decorators=decorators,
            parent=self.parent_qualname(),
            body_names=frozenset(body_names),
            fields=tuple(fields),
        )
        self.summary.classes.append(cls)
        class_scope = Scope(None, {}, qualname)
        self.binding_stack.append(class_scope)
        self.class_stack.append(qualname)
        saved_conditional, self.conditional = self.conditional, 0
        try:
            self.statements(node.body)
        finally:
            self.conditional = saved_conditional
            self.class_stack.pop()
            self.binding_stack.pop()
        cls.body = tuple(class_scope.statements)

    def _class_names(self, body: list[ast.stmt]) -> tuple[set[str], list]:
        """The names a class body defines, and its annotated fields with their annotations' forms."""
        names = set()
        fields = []
        for statement in body:
            if isinstance(statement, _DEFINITIONS):
                names.add(statement.name)
            elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                names.add(statement.target.id)
                fields.append((statement.target.id, self.annotation_forms.of(statement.annotation)))
            elif isinstance(statement, ast.Assign):
                names.update(t.id for t in statement.targets if isinstance(t, ast.Name))
        return names, fields


def _optional_kinds(*names: str) -> tuple[type, ...]:
    """The ``ast`` node types of newer Pythons that this one has (``TryStar`` 3.11, ``TypeAlias`` 3.12)."""
    return tuple(kind for kind in (getattr(ast, name, None) for name in names) if kind is not None)


_HANDLERS: dict[type, Callable[[StatementWalker, ast.stmt], None]] = {
    ast.Expr: StatementWalker._expression_statement,
    ast.Return: StatementWalker._return,
    ast.FunctionDef: StatementWalker._function_def,
    ast.AsyncFunctionDef: StatementWalker._function_def,
    ast.ClassDef: StatementWalker._class_def,
    ast.Import: StatementWalker._import,
    ast.ImportFrom: StatementWalker._import_from,
    ast.Assign: StatementWalker._assign,
    ast.AnnAssign: StatementWalker._annotated_assign,
    ast.AugAssign: StatementWalker._augmented_assign,
    **dict.fromkeys(_optional_kinds("TypeAlias"), StatementWalker._type_alias),
    ast.For: StatementWalker._for,
    ast.AsyncFor: StatementWalker._for,
    ast.While: StatementWalker._while,
    ast.If: StatementWalker._if,
    ast.With: StatementWalker._with,
    ast.AsyncWith: StatementWalker._with,
    ast.Try: StatementWalker._try,
    **dict.fromkeys(_optional_kinds("TryStar"), StatementWalker._try),
    ast.Raise: StatementWalker._raise,
    ast.Global: StatementWalker._global,
    ast.Nonlocal: StatementWalker._global,
    ast.Match: StatementWalker._match,
    ast.Delete: StatementWalker._delete,
}


def resolve_relative(module: str, is_package: bool, target: str | None, level: int) -> str | None:
    """The absolute module a ``from`` import names, or None when it leaves the root."""
    if level == 0:
        return target or None
    parts = module.split(".") if module else []
    if not is_package:
        parts = parts[:-1]
    drop = level - 1
    if drop > len(parts):
        return None
    base_parts = parts[: len(parts) - drop] if drop else parts
    if target:
        base_parts = [*base_parts, target]
    return ".".join(base_parts) or None


def _stored_name(target: ast.AST) -> str | None:
    return target.id if isinstance(target, ast.Name) else None


def _is_main_guard(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = (test.left, test.comparators[0])
    return any(isinstance(a, ast.Name) and a.id == "__name__" and isinstance(b, ast.Constant) and b.value == "__main__"
               for a, b in (sides, sides[::-1]))


#: Statements whose blocks belong to another scope or loop: a ``break`` in them is not this loop's (a nested
#: loop's ``else`` is, and is walked).
_OWN_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _jumps(body: list[ast.stmt]) -> bool:
    """Whether a loop's body has a ``break`` or ``continue`` of this loop."""
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Break, ast.Continue)):
            return True
        if isinstance(node, _OWN_SCOPES):
            continue
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            stack.extend(node.orelse)
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(node, field, ()))
    return False
