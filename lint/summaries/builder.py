"""Build a ``ModuleSummary`` from source text in one pass over the syntax tree.

The tree comes from ``steplint.source.reading``; this module only walks it. It
records, per function:

- the calls rules judge (``CallSite``), in the innermost function that
  lexically contains them (lambdas and comprehensions belong to their
  function), with their context: awaited, inside which enclosing calls'
  arguments, inside a comprehension or a lambda;
- the bindings of each scope (what the project index resolves names with);
- the statements in order, as small forms (``core.summary``'s statement
  classes): what the value-flow analysis (``steplint.analysis.interpreter``)
  runs. Lambdas become functions of their own (``outer.<lambda1>``) so that
  values can flow through them.
"""

from __future__ import annotations

import ast
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from steplint.core.summary import (
    AssignStmt,
    Attr,
    AttrTarget,
    AugAssignStmt,
    Await,
    BinOpForm,
    Binding,
    CallExpr,
    CallSite,
    Choice,
    ClassStmt,
    ClassSummary,
    Comprehension,
    Const,
    DefStmt,
    Display,
    Expr,
    ExprStmt,
    FromImportStmt,
    FunctionSummary,
    Generator,
    IfStmt,
    ImportStmt,
    ItemTarget,
    LambdaForm,
    LoopStmt,
    MatchStmt,
    ModuleSummary,
    NameTarget,
    Opaque,
    OtherTarget,
    Param,
    RaiseStmt,
    Ref,
    ReturnStmt,
    SliceForm,
    Span,
    Starred,
    Stmt,
    Subscript,
    TargetForm,
    TryStmt,
    UnionExpr,
    UnpackTarget,
    Walrus,
    WithStmt,
    YieldForm,
)
from steplint.source.reading import ParsedSource
from steplint.summaries.suppression_comments import scan_suppressions

MODULE_SCOPE = "<module>"

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_COMPREHENSION_KINDS = {ast.ListComp: "list", ast.SetComp: "set", ast.GeneratorExp: "generator", ast.DictComp: "dict"}
_TYPE_ALIAS = getattr(ast, "TypeAlias", None)
_OPERATORS = {ast.Add: "+", ast.BitOr: "|", ast.Mult: "*"}


def summarize(parsed: ParsedSource, path: str, module: str, is_package: bool) -> ModuleSummary:
    summary = _empty_summary(parsed, path, module, is_package)
    if parsed.error is not None:
        summary.error = parsed.error
        return summary
    builder = _Builder(summary, parsed)
    builder.build(parsed.tree)
    return summary


@dataclass(slots=True, eq=False)
class TopLevelPart:
    """What one group of top-level statements adds to its module's summary.

    The share depends only on the group's statements (their text and lines)
    and on three counters of the statements before it: the module scope's
    binding order, its lambdas, and the file's display sites. So a group an
    edit did not reach, whose counters ``entry`` are unchanged, is added
    again as it is instead of being summarized anew (``summarize_in_parts``).
    """

    entry: tuple[int, int, int]
    exit: tuple[int, int, int]
    bindings: tuple[tuple[str, Binding], ...]
    statements: tuple[Stmt, ...]
    functions: tuple[FunctionSummary, ...]
    classes: tuple[ClassSummary, ...]
    calls: tuple[CallSite, ...]
    star_imports: tuple[str, ...]
    makes_generator: bool


def summarize_in_parts(
    parsed: ParsedSource, path: str, module: str, is_package: bool,
    groups: list[list[ast.stmt]], earlier: list[TopLevelPart | None],
) -> tuple[ModuleSummary, list[TopLevelPart]]:
    """``summarize`` of a parsed file whose top-level statements come in ``groups``, and each group's part.

    ``earlier[i]`` is the part group ``i`` had in a previous version of the
    file with the same text at the same lines (None: unknown): it is used
    again when the counters before the group match. The summary equals
    ``summarize``'s.
    """
    summary = _empty_summary(parsed, path, module, is_package)
    builder = _Builder(summary, parsed)
    return summary, builder.build_parts(groups, earlier)


def _empty_summary(parsed: ParsedSource, path: str, module: str, is_package: bool) -> ModuleSummary:
    summary = ModuleSummary(path=path, module=module, is_package=is_package, line_count=parsed.line_count)
    summary.suppressions = scan_suppressions(parsed.text, parsed)
    return summary


class _Scope:
    __slots__ = ("function", "bindings", "order", "qualname", "locals_", "statements", "lambdas")

    def __init__(self, function: FunctionSummary | None, bindings: dict[str, list[Binding]], qualname: str):
        self.function = function
        self.bindings = bindings
        self.order = 0
        self.qualname = qualname
        self.locals_: set[str] = set()
        self.statements: list[Stmt] = []
        self.lambdas = 0


class _Positions:
    """Spans of one parsed file's nodes, in characters."""

    __slots__ = ("parsed", "wide_lines")

    def __init__(self, parsed: ParsedSource):
        self.parsed = parsed
        # The lines (1-based) with a non-ASCII character: elsewhere ``ast``'s byte offsets are the columns.
        text = parsed.text
        self.wide_lines = frozenset() if text.isascii() else frozenset(
            number for number, line in enumerate(parsed.lines(), 1) if not line.isascii()
        )

    def span(self, node: ast.AST) -> Span:
        line = node.lineno  # type: ignore[attr-defined]
        end_line = getattr(node, "end_lineno", None) or line
        wide = self.wide_lines
        if not wide or (line not in wide and end_line not in wide):
            start = node.col_offset  # type: ignore[attr-defined]
            return Span(line, start, end_line, getattr(node, "end_col_offset", None) or start)
        column = self.parsed.column
        return Span(
            line,
            column(line, node.col_offset),  # type: ignore[attr-defined]
            end_line,
            column(end_line, getattr(node, "end_col_offset", None) or node.col_offset),  # type: ignore[attr-defined]
        )


class _Builder:
    def __init__(self, summary: ModuleSummary, parsed: ParsedSource):
        self.summary = summary
        self.parsed = parsed
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
        self.function_stack: list[_Scope] = []
        self.binding_stack: list[_Scope] = []
        self.class_stack: list[str] = []
        self.loaded: list[set[str]] = []
        self.conditional = 0  # how many branches, loops, try or with blocks of the scope we are in
        self.lambda_names: dict[int, str] = {}
        # Nothing here refers back to the builder: the tree is freed as soon as the summary is made.
        self.span = _Positions(parsed).span
        self.effects: set[int] = set()
        self.forms = _Forms(self.span, sited=True, lambda_names=self.lambda_names, effects=self.effects)
        # Assignment and parameter annotations keep their forms without spans (as ``to_expr`` gives them).
        self.annotation_forms = _Forms(_no_span, self.forms.shared)

    # --- entry ---------------------------------------------------------------

    def build(self, tree: ast.Module) -> None:
        module_scope = self._enter_module()
        self._statements(tree.body)
        self._leave_module(module_scope)

    def build_parts(self, groups: list[list[ast.stmt]], earlier: list[TopLevelPart | None]) -> list[TopLevelPart]:
        module_scope = self._enter_module()
        self.module_bound = []
        parts = []
        for statements, part in zip(groups, earlier):
            if part is not None and part.entry == self._counters(module_scope):
                self._add_part(module_scope, part)
            else:
                part = self._part(module_scope, statements)
            parts.append(part)
        self._leave_module(module_scope)
        return parts

    def _enter_module(self) -> _Scope:
        module_scope = _Scope(self.module_function, self.summary.bindings, "")
        self.function_stack.append(module_scope)
        self.binding_stack.append(module_scope)
        self.loaded.append(set())
        return module_scope

    def _leave_module(self, module_scope: _Scope) -> None:
        self.module_function.body = tuple(module_scope.statements)
        self.summary.functions.insert(0, self.module_function)
        self.summary.star_imports = tuple(self.star_imports)

    def _counters(self, module_scope: _Scope) -> tuple[int, int, int]:
        return module_scope.order, module_scope.lambdas, self.forms.sites

    def _part(self, module_scope: _Scope, statements: list[ast.stmt]) -> TopLevelPart:
        summary, module_function, bound = self.summary, self.module_function, self.module_bound
        entry = self._counters(module_scope)
        bindings, statements_before, functions, classes = (
            len(bound), len(module_scope.statements), len(summary.functions), len(summary.classes))
        calls, star_imports = len(module_function.calls), len(self.star_imports)
        was_generator, module_function.is_generator = module_function.is_generator, False
        self._statements(statements)
        part = TopLevelPart(
            entry, self._counters(module_scope), tuple(bound[bindings:]), tuple(module_scope.statements[statements_before:]),
            tuple(summary.functions[functions:]), tuple(summary.classes[classes:]),
            tuple(module_function.calls[calls:]), tuple(self.star_imports[star_imports:]), module_function.is_generator,
        )
        module_function.is_generator = was_generator or part.makes_generator
        return part

    def _add_part(self, module_scope: _Scope, part: TopLevelPart) -> None:
        bindings = self.summary.bindings
        for name, binding in part.bindings:
            bindings.setdefault(name, []).append(binding)
            module_scope.locals_.add(name)
        self.module_bound.extend(part.bindings)
        module_scope.statements.extend(part.statements)
        self.summary.functions.extend(part.functions)
        self.summary.classes.extend(part.classes)
        self.module_function.calls.extend(part.calls)
        self.star_imports.extend(part.star_imports)
        self.module_function.is_generator = self.module_function.is_generator or part.makes_generator
        module_scope.order, module_scope.lambdas, self.forms.sites = part.exit

    # --- positions ----------------------------------------------------------

    def def_span(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> Span:
        start = self.span(node)
        text = self.parsed.line_text(node.lineno)
        name_at = text.find(node.name, start.col)
        end_col = name_at + len(node.name) if name_at >= 0 else start.col
        return Span(start.line, start.col, start.line, end_col)

    # --- binding helpers -------------------------------------------------------

    def bind(self, name: str, kind: str, line: int, **fields: object) -> None:
        scope = self.binding_stack[-1]
        scope.order += 1
        binding = Binding(kind=kind, order=scope.order, line=line, conditional=self.conditional > 0, **fields)  # type: ignore[arg-type]
        scope.bindings.setdefault(name, []).append(binding)
        scope.locals_.add(name)
        if self.module_bound is not None and len(self.binding_stack) == 1:
            self.module_bound.append((name, binding))

    def bind_target(self, target: ast.AST, value: Expr | None = None, annotation: Expr | None = None) -> None:
        if isinstance(target, ast.Name):
            is_alias = annotation is not None and _names_type_alias(annotation)
            self.bind(target.id, "assign", target.lineno, value=value, annotation=annotation, is_type_alias=is_alias)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.bind_target(element)
        elif isinstance(target, ast.Starred):
            self.bind_target(target.value)
        else:
            self.visit(target)

    def target_form(self, target: ast.AST) -> TargetForm:
        """The assignment target's form (its sub-expressions' calls are recorded by ``bind_target``)."""
        kind = type(target)
        if kind is ast.Name:
            return NameTarget(target.id)
        if kind is ast.Attribute:
            return AttrTarget(self.forms.of(target.value), target.attr)
        if kind is ast.Subscript:
            return ItemTarget(self.forms.of(target.value), self.forms.of(target.slice))
        if kind is ast.Tuple or kind is ast.List:
            star = next((i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)), -1)
            items = tuple(self.target_form(e.value if isinstance(e, ast.Starred) else e) for e in target.elts)
            return UnpackTarget(items, star)
        if kind is ast.Starred:
            return UnpackTarget((self.target_form(target.value),), 0)
        return OtherTarget((self.forms.of(target),) if isinstance(target, ast.expr) else ())

    def qualname(self, name: str) -> str:
        prefix = self.binding_stack[-1].qualname
        return f"{prefix}.{name}" if prefix else name

    def emit(self, statement: Stmt) -> None:
        self.binding_stack[-1].statements.append(statement)

    @contextmanager
    def _conditionally(self) -> Iterator[None]:
        self.conditional += 1
        try:
            yield
        finally:
            self.conditional -= 1

    def block(self, body: list[ast.stmt]) -> tuple[Stmt, ...]:
        """The statements of a nested block, in their own list (the scope's bindings are shared)."""
        scope = self.binding_stack[-1]
        saved = scope.statements
        scope.statements = []
        self.conditional += 1
        try:
            self._statements(body)
            return tuple(scope.statements)
        finally:
            self.conditional -= 1
            scope.statements = saved

    # --- statements ---------------------------------------------------------

    def _statements(self, body: list[ast.stmt]) -> None:
        for statement in body:
            self.statement(statement)

    def statement(self, node: ast.stmt) -> None:
        kind = type(node)
        if kind is ast.Expr:  # the most common statements first
            self.emit(ExprStmt(self.expression(node.value)))  # type: ignore[attr-defined]
        elif kind is ast.Return:
            value = self.expression(node.value) if node.value is not None else None  # type: ignore[attr-defined]
            self.emit(ReturnStmt(value))
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            self.function_def(node)  # type: ignore[arg-type]
        elif kind is ast.ClassDef:
            self.class_def(node)  # type: ignore[arg-type]
        elif kind is ast.Import:
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.asname:
                    self.bind(alias.asname, "import", node.lineno, target=alias.name)
                    self.emit(ImportStmt(alias.name, alias.asname, False))
                else:
                    head = alias.name.split(".", 1)[0]
                    self.bind(head, "import", node.lineno, target=head)
                    self.emit(ImportStmt(alias.name, head, True))
        elif kind is ast.ImportFrom:
            self.import_from(node)  # type: ignore[arg-type]
        elif kind is ast.Assign:
            value = self.expression(node.value, sink=_stored_name(node.targets[-1]))  # type: ignore[attr-defined]
            targets = []
            for target in node.targets:  # type: ignore[attr-defined]
                self.bind_target(target, value)
                targets.append(self.target_form(target))
            self.emit(AssignStmt(tuple(targets), value))
        elif kind is ast.AnnAssign:
            annotation = self.annotation_forms.of(node.annotation)  # type: ignore[attr-defined]
            self.visit(node.annotation, record=False)  # type: ignore[attr-defined]
            value = None
            if node.value is not None:  # type: ignore[attr-defined]
                value = self.expression(node.value, sink=_stored_name(node.target))  # type: ignore[attr-defined]
            if node.value is not None or not self.class_stack or self.binding_stack[-1].function is not None:  # type: ignore[attr-defined]
                self.bind_target(node.target, value, annotation)  # type: ignore[attr-defined]
            if value is not None:
                self.emit(AssignStmt((self.target_form(node.target),), value))  # type: ignore[attr-defined]
        elif kind is ast.AugAssign:
            value = self.expression(node.value, sink=_stored_name(node.target))  # type: ignore[attr-defined]
            self.visit(node.target)  # type: ignore[attr-defined]
            op = _OPERATORS.get(type(node.op), "?")  # type: ignore[attr-defined]
            self.emit(AugAssignStmt(self.target_form(node.target), op, value))  # type: ignore[attr-defined]
        elif _TYPE_ALIAS is not None and kind is _TYPE_ALIAS:
            value = self.annotation_forms.of(node.value)  # type: ignore[attr-defined]
            self.visit(node.value, record=False)  # type: ignore[attr-defined]
            self.bind(node.name.id, "assign", node.lineno, value=value, is_type_alias=True)  # type: ignore[attr-defined]
        elif kind is ast.For or kind is ast.AsyncFor:
            iterated = self.expression(node.iter)  # type: ignore[attr-defined]
            with self._conditionally():
                self.bind_target(node.target)  # type: ignore[attr-defined]
            target = self.target_form(node.target)  # type: ignore[attr-defined]
            body = self.block(node.body)  # type: ignore[attr-defined]
            orelse = self.block(node.orelse)  # type: ignore[attr-defined]
            self.emit(LoopStmt(target, iterated, None, body, orelse))
        elif kind is ast.While:
            test = self.expression(node.test)  # type: ignore[attr-defined]
            body = self.block(node.body)  # type: ignore[attr-defined]
            orelse = self.block(node.orelse)  # type: ignore[attr-defined]
            self.emit(LoopStmt(None, None, test, body, orelse))
        elif kind is ast.If:
            test = self.expression(node.test)  # type: ignore[attr-defined]
            body = self.block(node.body)  # type: ignore[attr-defined]
            orelse = self.block(node.orelse)  # type: ignore[attr-defined]
            self.emit(IfStmt(test, body, orelse))
        elif kind is ast.With or kind is ast.AsyncWith:
            items = []
            with self._conditionally():
                for item in node.items:  # type: ignore[attr-defined]
                    context = self.expression(item.context_expr)
                    target = None
                    if isinstance(item.optional_vars, ast.Name):
                        self.bind(item.optional_vars.id, "with", node.lineno, value=context)
                        target = NameTarget(item.optional_vars.id)
                    elif item.optional_vars is not None:
                        self.bind_target(item.optional_vars)
                        target = self.target_form(item.optional_vars)
                    items.append((context, target))
            body = self.block(node.body)  # type: ignore[attr-defined]
            self.emit(WithStmt(tuple(items), body, kind is ast.AsyncWith))
        elif kind is ast.Try or kind.__name__ == "TryStar":
            body = self.block(node.body)  # type: ignore[attr-defined]
            handlers = []
            for handler in node.handlers:  # type: ignore[attr-defined]
                kind_form = self.expression(handler.type) if handler.type is not None else None
                if handler.name:
                    with self._conditionally():
                        self.bind(handler.name, "assign", handler.lineno)
                handlers.append((kind_form, handler.name, self.block(handler.body)))
            orelse = self.block(node.orelse)  # type: ignore[attr-defined]
            final = self.block(node.finalbody)  # type: ignore[attr-defined]
            self.emit(TryStmt(body, tuple(handlers), orelse, final))
        elif kind is ast.Raise:
            value = self.expression(node.exc) if node.exc is not None else None  # type: ignore[attr-defined]
            if node.cause is not None:  # type: ignore[attr-defined]
                self.visit(node.cause)  # type: ignore[attr-defined]
            self.emit(RaiseStmt(value))
        elif kind is ast.Global or kind is ast.Nonlocal:
            scope = self.binding_stack[-1]
            if scope.function is not None and scope.function is not self.module_function:
                names = frozenset(node.names)  # type: ignore[attr-defined]
                if kind is ast.Global:
                    scope.function.declared_global = scope.function.declared_global | names
                else:
                    scope.function.declared_nonlocal = scope.function.declared_nonlocal | names
        elif kind.__name__ == "Match":
            self.match(node)
        elif kind is ast.Delete:
            for target in node.targets:  # type: ignore[attr-defined]
                self.visit(target)
        else:  # assert, pass, break, continue: their expressions' calls still count
            for value in ast.iter_child_nodes(node):
                if isinstance(value, ast.expr):
                    self.emit(ExprStmt(self.expression(value)))

    def match(self, node: ast.stmt) -> None:
        subject = self.expression(node.subject)  # type: ignore[attr-defined]
        cases = []
        for case in node.cases:  # type: ignore[attr-defined]
            with self._conditionally():
                captured = self.pattern(case.pattern)
            guard = self.expression(case.guard) if case.guard is not None else None
            cases.append((captured, guard, self.block(case.body)))
        self.emit(MatchStmt(subject, tuple(cases)))

    def pattern(self, node: ast.AST) -> tuple[str, ...]:
        captured = []
        for sub in ast.walk(node):
            name = getattr(sub, "name", None) or getattr(sub, "rest", None)
            if isinstance(name, str):
                self.bind(name, "assign", getattr(sub, "lineno", 0))
                captured.append(name)
            if isinstance(sub, ast.expr):
                self.visit(sub)
        return tuple(captured)

    def import_from(self, node: ast.ImportFrom) -> None:
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

    def function_def(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        # Decorators, defaults and annotations run in the enclosing scope.
        decorators = tuple(self.expression(d) for d in node.decorator_list)
        params = self.parameters(node.args)
        returns = None
        if node.returns is not None:
            returns = self.annotation_forms.of(node.returns)
            self.visit(node.returns, record=False)
        qualname = self.qualname(node.name)
        enclosing = self.function_stack[-1]
        function = FunctionSummary(
            qualname=qualname,
            name=node.name,
            span=self.def_span(node),
            is_async=isinstance(node, ast.AsyncFunctionDef),
            decorators=decorators,
            params=params,
            class_qualname=self.class_stack[-1] if self._directly_in_class() else None,
            parent=enclosing.function.qualname if enclosing.function is not self.module_function else None,
            returns=returns,
        )
        self.bind(node.name, "def", node.lineno, target=qualname)
        self.emit(DefStmt(node.name, qualname))
        self.summary.functions.append(function)
        self._function_body(function, params, lambda: self._statements(node.body))

    def _function_body(self, function: FunctionSummary, params: tuple[Param, ...], walk) -> None:  # noqa: ANN001
        scope = _Scope(function, function.bindings, f"{function.qualname}.<locals>")
        for param in params:
            scope.locals_.add(param.name)
            scope.order += 1
            function.bindings.setdefault(param.name, []).append(Binding("param", scope.order, param.span.line))
        self.function_stack.append(scope)
        self.binding_stack.append(scope)
        saved_classes, saved_conditional = self.class_stack, self.conditional
        self.class_stack, self.conditional = [], 0
        self.loaded.append(set())
        try:
            walk()
        finally:
            loaded = self.loaded.pop()
            self.class_stack, self.conditional = saved_classes, saved_conditional
            self.binding_stack.pop()
            self.function_stack.pop()
        function.body = tuple(scope.statements)
        function.loaded_names = frozenset(loaded)
        # A name read here and not bound here is free: the enclosing scope reads it too.
        free = loaded - scope.locals_ if not function.declared_nonlocal else loaded - (scope.locals_ - function.declared_nonlocal)
        self.loaded[-1].update(free)

    def _directly_in_class(self) -> bool:
        return bool(self.class_stack) and self.binding_stack[-1].function is None

    def class_def(self, node: ast.ClassDef) -> None:
        decorators = tuple(self.expression(d) for d in node.decorator_list)
        bases = tuple(self.expression(b) for b in node.bases)
        keywords = tuple((k.arg or "**", self.expression(k.value)) for k in node.keywords)
        qualname = self.qualname(node.name)
        enclosing = self.function_stack[-1]
        self.bind(node.name, "class", node.lineno, target=qualname)
        self.emit(ClassStmt(node.name, qualname))
        body_names = set()
        fields = []
        for statement in node.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                body_names.add(statement.name)
            elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                body_names.add(statement.target.id)
                fields.append((statement.target.id, self.annotation_forms.of(statement.annotation)))
            elif isinstance(statement, ast.Assign):
                body_names.update(t.id for t in statement.targets if isinstance(t, ast.Name))
        cls = ClassSummary(
            qualname=qualname,
            name=node.name,
            span=self.def_span(node),
            bases=bases,
            keywords=keywords,
            decorators=decorators,
            parent=enclosing.function.qualname if enclosing.function is not self.module_function else None,
            body_names=frozenset(body_names),
            fields=tuple(fields),
        )
        self.summary.classes.append(cls)
        class_scope = _Scope(None, {}, qualname)
        self.binding_stack.append(class_scope)
        self.class_stack.append(qualname)
        saved_conditional, self.conditional = self.conditional, 0
        try:
            self._statements(node.body)
        finally:
            self.conditional = saved_conditional
            self.class_stack.pop()
            self.binding_stack.pop()
        cls.body = tuple(class_scope.statements)

    def parameters(self, args: ast.arguments) -> tuple[Param, ...]:
        params: list[Param] = []
        positional = [*args.posonlyargs, *args.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        for index, arg in enumerate(positional):
            kind = "posonly" if index < len(args.posonlyargs) else "normal"
            params.append(self.parameter(arg, kind, defaults[index]))
        if args.vararg is not None:
            params.append(self.parameter(args.vararg, "vararg", None))
        for arg, default in zip(args.kwonlyargs, args.kw_defaults):
            params.append(self.parameter(arg, "kwonly", default))
        if args.kwarg is not None:
            params.append(self.parameter(args.kwarg, "kwarg", None))
        return tuple(params)

    def parameter(self, arg: ast.arg, kind: str, default: ast.expr | None) -> Param:
        annotation = None
        if arg.annotation is not None:
            annotation = self.annotation_forms.of(arg.annotation)
            self.visit(arg.annotation, record=False)
        default_expr = self.expression(default) if default is not None else None
        return Param(
            name=arg.arg,
            kind=kind,
            span=self.span(arg),
            annotation=annotation,
            default=default_expr,
            default_span=self.span(default) if default is not None else None,
        )

    def lambda_function(self, node: ast.Lambda, where: "_Where") -> None:
        """A lambda becomes a function of the module whose one statement is ``return body``.

        Its calls stay recorded in the function that holds it (``in_lambda``), where the rules read them.
        """
        qualname = self.forms.lambda_qualname(node, self.binding_stack[-1])
        holder = self.function_stack[-1]
        params = self.parameters(node.args)  # defaults run here, in the enclosing scope
        function = FunctionSummary(
            qualname=qualname,
            name="<lambda>",
            span=self.span(node),
            is_async=False,
            decorators=(),
            params=params,
            parent=holder.function.qualname if holder.function is not self.module_function else None,
            is_lambda=True,
        )
        self.summary.functions.append(function)
        scope = _Scope(function, function.bindings, f"{qualname}.<locals>")
        for param in params:
            scope.locals_.add(param.name)
            scope.order += 1
            function.bindings.setdefault(param.name, []).append(Binding("param", scope.order, param.span.line))
        self.binding_stack.append(scope)
        self.loaded.append(set())
        saved_conditional, self.conditional = self.conditional, 0
        try:
            value = self.expression(node.body, where=where.inside_lambda())
        finally:
            self.conditional = saved_conditional
            loaded = self.loaded.pop()
            self.binding_stack.pop()
        function.body = (ReturnStmt(value),)
        function.loaded_names = frozenset(loaded)
        self.loaded[-1].update(loaded - scope.locals_)

    # --- expressions -----------------------------------------------------------

    def expression(self, node: ast.expr, record: bool = True, sink: str | None = None, where: "_Where | None" = None) -> Expr:
        """Record the calls and name loads in ``node``; return its expression form.

        ``sink`` is the local name ``node``'s value is stored into, if any.
        """
        self._visit(node, where if where is not None else (_RECORDED if record else _UNRECORDED), sink=sink)
        return self.forms.of(node)

    def visit(self, node: ast.expr, record: bool = True, sink: str | None = None) -> None:
        """``expression`` for a node whose form nobody reads."""
        self._visit(node, _RECORDED if record else _UNRECORDED, sink=sink)

    def _visit(self, node: ast.AST, where: "_Where", awaited: bool = False, sink: str | None = None) -> bool:
        """Record the calls and name loads in ``node``; True when it calls, awaits, yields or binds (``effects``)."""
        kind = type(node)
        if kind is ast.Name:
            if type(node.ctx) is ast.Load:
                self.loaded[-1].add(node.id)
            elif type(node.ctx) is ast.Store:
                # A walrus binds in the enclosing function.
                self.bind(node.id, "assign", node.lineno)
            return False
        if kind is ast.Constant:
            return False
        if kind is ast.Attribute:
            if self._visit(node.value, where):
                self.effects.add(id(node))
                return True
            return False
        if kind is ast.Await:
            self._visit(node.value, where, awaited=True)
        elif kind is ast.Call:
            self._call(node, where, awaited, sink)
        elif kind in _COMPREHENSIONS:
            inside = where.inside_comprehension()
            targets = {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
            with self._own_scope(targets):
                for generator in node.generators:
                    self._visit(generator.iter, inside)
                    for condition in generator.ifs:
                        self._visit(condition, inside)
                if kind is ast.DictComp:
                    self._visit(node.key, inside)
                    self._visit(node.value, inside)
                else:
                    self._visit(node.elt, inside, sink=sink)
        elif kind is ast.Lambda:
            if where.record:
                self.lambda_function(node, where)
            else:
                arguments = node.args
                for default in [*arguments.defaults, *[d for d in arguments.kw_defaults if d is not None]]:
                    self._visit(default, where)
        elif kind is ast.NamedExpr:
            self._visit(node.target, where)
            self._visit(node.value, where, sink=node.target.id)
        else:
            effect = False
            if kind is ast.Yield or kind is ast.YieldFrom:
                effect = True
                function = self.binding_stack[-1].function
                if function is not None:  # a yield makes the innermost function (or lambda) a generator
                    function.is_generator = True
            # The value of a display element or of either branch flows where the whole goes.
            flows = sink if kind in _PASSING_SINK else None
            for name in _expression_fields(kind):
                value = getattr(node, name)
                if type(value) is list:
                    for item in value:
                        if item is not None and self._visit(item, where, sink=flows):
                            effect = True
                elif isinstance(value, ast.AST):
                    if self._visit(value, where, sink=None if name == "test" else flows):
                        effect = True
            if not effect:
                return False
        self.effects.add(id(node))
        return True

    @contextmanager
    def _own_scope(self, bound: set[str]) -> Iterator[None]:
        """A comprehension's or lambda's own names are not read from the enclosing function.

        (A comprehension's first iterable is, but a name it shares with a target is rare.)
        """
        self.loaded.append(set())
        try:
            yield
        finally:
            loaded = self.loaded.pop()
            self.loaded[-1].update(loaded - bound)

    def _call(self, node: ast.Call, where: "_Where", awaited: bool, sink: str | None) -> None:
        if where.record and type(node.func) is not ast.Name and dotted_name(node.func) is None:
            # The callee's form is made before it is walked: name its lambdas first (``(lambda: f)()``).
            for sub in _outer_lambdas(node.func):
                self.forms.lambda_qualname(sub, self.binding_stack[-1])
        callee = self.forms.of(node.func)
        if where.record:
            span = self.forms.call_spans[id(node)] = self.span(node)
            self.function_stack[-1].function.calls.append(  # type: ignore[union-attr]
                CallSite(
                    callee=callee,
                    span=span,
                    awaited=awaited,
                    enclosing=where.enclosing,
                    in_comprehension=where.in_comprehension,
                    arg_count=len(node.args) + len(node.keywords),
                    in_lambda=where.in_lambda,
                    sink=None if awaited else sink,
                    arg_names=_argument_names(node),
                )
            )
        self._visit(node.func, where)
        inside = where.inside_call(callee)
        # ``tasks.append(call)`` stores ``call`` into ``tasks``.
        collector = _collector(callee)
        for arg in node.args:
            self._visit(arg, inside, sink=collector)
        for keyword in node.keywords:
            self._visit(keyword.value, inside)


@dataclass(slots=True)  # not frozen: a frozen dataclass's __init__ costs a setattr call per field
class _Where:
    """Where an expression is: which calls' arguments, inside a comprehension or lambda."""

    record: bool = True
    enclosing: tuple[Expr, ...] = ()
    in_comprehension: bool = False
    in_lambda: bool = False

    def inside_call(self, callee: Expr) -> "_Where":
        return _Where(self.record, (callee, *self.enclosing), self.in_comprehension, self.in_lambda)

    def inside_comprehension(self) -> "_Where":
        return _Where(self.record, self.enclosing, True, self.in_lambda)

    def inside_lambda(self) -> "_Where":
        return _Where(self.record, self.enclosing, self.in_comprehension, True)


_RECORDED = _Where()
_UNRECORDED = _Where(record=False)
# Expressions whose elements' values flow where the whole value goes (``IfExp``: not its test).
_PASSING_SINK = frozenset({ast.List, ast.Tuple, ast.Set, ast.Starred, ast.IfExp})
# Fields that never hold an expression: contexts and operators (nodes without children).
_NOT_EXPRESSIONS = frozenset({"ctx", "op", "ops", "conversion", "kind"})
_FIELDS: dict[type, tuple[str, ...]] = {}


def _expression_fields(kind: type) -> tuple[str, ...]:
    """The fields of an expression node that may hold expressions, in ``ast.iter_child_nodes`` order."""
    found = _FIELDS.get(kind)
    if found is None:
        found = _FIELDS[kind] = tuple(name for name in kind._fields if name not in _NOT_EXPRESSIONS)  # type: ignore[attr-defined]
    return found


def _child_expressions(node: ast.AST, kind: type) -> Iterator[ast.expr]:
    """The expressions directly under ``node``, in ``ast.iter_child_nodes`` order."""
    for name in _expression_fields(kind):
        value = getattr(node, name)
        if type(value) is list:
            for item in value:
                if isinstance(item, ast.expr):
                    yield item
        elif isinstance(value, ast.expr):
            yield value


_COLLECTING_METHODS = frozenset({"append", "extend", "add", "insert"})


def _collector(callee: Expr) -> str | None:
    """``tasks`` for ``tasks.append``/``extend``/``add``/``insert``, else None."""
    if isinstance(callee, Ref) and callee.dotted.count(".") == 1:
        owner, method = callee.dotted.split(".")
        if method in _COLLECTING_METHODS:
            return owner
    return None


def _argument_names(node: ast.Call) -> tuple[str, ...]:
    values = [arg.value if isinstance(arg, ast.Starred) else arg for arg in node.args]
    values.extend(keyword.value for keyword in node.keywords)
    return tuple(value.id for value in values if isinstance(value, ast.Name))


def _outer_lambdas(node: ast.AST) -> Iterator[ast.Lambda]:
    """The lambdas in an expression that are not inside another lambda of it."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Lambda):
            yield current
            continue
        stack.extend(ast.iter_child_nodes(current))


# --- pure conversions ----------------------------------------------------------------


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


def dotted_name(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _no_span(node: ast.AST) -> Span:
    line = getattr(node, "lineno", 1)
    return Span(line, getattr(node, "col_offset", 0), getattr(node, "end_lineno", line) or line, 0)


def to_expr(node: ast.AST, span_of=_no_span) -> Expr:  # noqa: ANN001
    """The small expression form of ``node`` (see ``steplint.core.summary``); ``span_of`` gives a node's span."""
    return _Forms(span_of).of(node)


class _Forms:
    """The expression forms of one tree's nodes.

    Each node's form is built once (``by_node``): the callee of each call in
    ``f()()()...`` contains the next one, so without it a chain of n calls
    builds n*n/2 forms. Equal names and literals are one shared object
    (``shared``, which may serve several tables): forms are immutable, and a
    summary pickles and loads each shared form once (a module names ``str`` or
    ``step`` dozens of times). ``sited`` forms give each display the span where
    it makes its object (the value-flow analysis allocates one per place);
    annotation forms share their empty displays instead.
    """

    __slots__ = ("span_of", "by_node", "shared", "sited", "lambda_names", "sites", "effects", "call_spans")

    def __init__(self, span_of, shared: dict[object, Expr] | None = None, sited: bool = False,  # noqa: ANN001
                 lambda_names: dict[int, str] | None = None, effects: set[int] | None = None):
        self.span_of = span_of
        self.by_node: dict[int, Expr] = {}
        self.shared: dict[object, Expr] = {} if shared is None else shared
        self.sited = sited
        self.lambda_names = lambda_names if lambda_names is not None else {}
        self.sites = 0
        self.call_spans: dict[int, Span] = {}  # a call's span, made once for its CallSite and its form
        # Nodes whose subtree calls, yields, awaits or binds: the parts of an opaque value worth a form.
        self.effects = effects

    def site(self) -> int:
        self.sites += 1
        return self.sites

    def of(self, node: ast.AST) -> Expr:
        if type(node) is ast.Name:  # the commonest node: its form is shared anyway, so the memo is skipped
            found = self.shared.get(node.id)  # type: ignore[attr-defined]
            return found if found is not None else self._ref(node.id)  # type: ignore[attr-defined]
        found = self.by_node.get(id(node))
        if found is None:
            found = self.by_node[id(node)] = self._build(node)
        return found

    def lambda_qualname(self, node: ast.Lambda, scope: _Scope) -> str:
        found = self.lambda_names.get(id(node))
        if found is None:
            scope.lambdas += 1
            name = f"<lambda{scope.lambdas}>"
            found = self.lambda_names[id(node)] = f"{scope.qualname}.{name}" if scope.qualname else name
        return found

    def _build(self, node: ast.AST) -> Expr:
        kind = type(node)
        if kind is ast.Name:
            return self._ref(node.id)
        if kind is ast.Attribute:
            dotted = dotted_name(node)
            return self._ref(dotted) if dotted is not None else Attr(self.of(node.value), node.attr)
        if kind is ast.Constant:
            return self._const(node.value)
        if kind is ast.Call:
            keywords = node.keywords
            return CallExpr(
                func=self.of(node.func),
                args=tuple(self.of(a) for a in node.args),
                kwargs=tuple((k.arg or "**", self.of(k.value)) for k in keywords),
                span=self.call_spans.pop(id(node), None) or self.span_of(node),
                # Only ``replay_key=`` is ever pointed at (STP041); the others' spans would cost for nothing.
                kw_spans=tuple((k.arg, self.span_of(k)) for k in keywords if k.arg == "replay_key"),
            )
        if kind is ast.Subscript:
            index = node.slice
            items = index.elts if type(index) is ast.Tuple else [index]
            return Subscript(self.of(node.value), tuple(self.of(i) for i in items))
        if kind is ast.Slice:
            return SliceForm(*(self.of(part) if part is not None else None for part in (node.lower, node.upper, node.step)))
        if kind is ast.BinOp:
            if type(node.op) is ast.BitOr:
                return UnionExpr((self.of(node.left), self.of(node.right)))
            return BinOpForm(_OPERATORS.get(type(node.op), "?"), self.of(node.left), self.of(node.right))
        if kind is ast.List or kind is ast.Tuple or kind is ast.Set:
            elements = node.elts
            name = "list" if kind is ast.List else "tuple" if kind is ast.Tuple else "set"
            if self.sited:
                return Display(name, tuple(self.of(e) for e in elements), self.site())
            return Display(name, tuple(self.of(e) for e in elements)) if elements else self._display(name)
        if kind is ast.Dict:
            if self.sited:
                keys = tuple(self.of(k) if k is not None else None for k in node.keys)
                return Display("dict", tuple(self.of(v) for v in node.values), self.site(), keys)
            return self._display("dict")
        if kind in _COMPREHENSIONS:
            if not self.sited:
                return self._display("comprehension")
            generators = tuple(
                Generator(_target_form_of(self, g.target), self.of(g.iter), tuple(self.of(c) for c in g.ifs))
                for g in node.generators
            )
            if kind is ast.DictComp:
                return Comprehension("dict", self.of(node.value), self.of(node.key), generators, self.site())
            return Comprehension(_COMPREHENSION_KINDS[kind], self.of(node.elt), None, generators, self.site())
        if kind is ast.Lambda:
            qualname = self.lambda_names.get(id(node))
            return LambdaForm(qualname) if qualname is not None else self._display("lambda")
        if kind is ast.UnaryOp and type(node.operand) is ast.Constant:
            return self._const(node.operand.value)
        if not self.sited:
            return self._display("other")
        if kind is ast.Await:
            return Await(self.of(node.value))
        if kind is ast.Starred:
            return Starred(self.of(node.value))
        if kind is ast.IfExp:
            return Choice((self.of(node.body), self.of(node.orelse)), (self.of(node.test),))
        if kind is ast.BoolOp:
            return Choice(tuple(self.of(v) for v in node.values))
        if kind is ast.NamedExpr:
            return Walrus(node.target.id, self.of(node.value))
        if kind is ast.Yield or kind is ast.YieldFrom:
            return YieldForm(self.of(node.value) if node.value is not None else None, kind is ast.YieldFrom)
        effects = self.effects
        parts = tuple(
            self.of(child) for child in _child_expressions(node, kind)
            if effects is None or id(child) in effects
        )
        return Opaque(parts) if parts else self._display("other")

    def _ref(self, dotted: str) -> Expr:
        found = self.shared.get(dotted)
        if found is None:
            found = self.shared[dotted] = Ref(dotted)
        return found

    def _display(self, kind: str) -> Expr:
        key = ("display", kind)
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = Display(kind)
        return found

    def _const(self, value: object) -> Expr:
        # Keyed by type too: 1, 1.0 and True are equal, and a float (nan, -0.0) is never shared.
        if type(value) not in _SHARED_CONSTANTS:
            return Const(value)
        key = (type(value), value)
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = Const(value)
        return found


def _target_form_of(forms: _Forms, target: ast.AST) -> TargetForm:
    kind = type(target)
    if kind is ast.Name:
        return NameTarget(target.id)
    if kind is ast.Tuple or kind is ast.List:
        star = next((i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)), -1)
        items = tuple(_target_form_of(forms, e.value if isinstance(e, ast.Starred) else e) for e in target.elts)
        return UnpackTarget(items, star)
    if kind is ast.Attribute:
        return AttrTarget(forms.of(target.value), target.attr)
    if kind is ast.Subscript:
        return ItemTarget(forms.of(target.value), forms.of(target.slice))
    return OtherTarget()


_SHARED_CONSTANTS = frozenset({type(None), bool, int, str, bytes, type(...)})


def _stored_name(target: ast.AST) -> str | None:
    return target.id if isinstance(target, ast.Name) else None


def _names_type_alias(annotation: Expr) -> bool:
    return isinstance(annotation, Ref) and annotation.dotted.rsplit(".", 1)[-1] == "TypeAlias"
