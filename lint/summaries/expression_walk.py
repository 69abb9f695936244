"""The walk over expressions: the calls they make (``CallSite``), the names they read and bind, their lambdas.

Each node kind has its visitor in ``_VISITORS`` (a kind missing from it has
its sub-expressions visited), as pyflakes dispatches on node types. A
visitor answers whether the node calls, awaits, yields or binds somewhere
below it (``effects``): only those parts of an opaque value get a form.
"""

from __future__ import annotations

import ast
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator

from steplint.core.summary import Attr, CallSite, Expr, FunctionSummary, Param, Ref, ReturnStmt, Span
from steplint.summaries.expression_forms import dotted_name, expression_fields
from steplint.summaries.scopes import ScopeState


@dataclass(slots=True)  # not frozen: a frozen dataclass's __init__ costs a setattr call per field
class Where:
    """Where an expression is: which calls' arguments, inside a comprehension or lambda."""

    record: bool = True
    enclosing: tuple[Expr, ...] = ()
    in_comprehension: bool = False
    in_lambda: bool = False

    def inside_call(self, callee: Expr) -> "Where":
        return Where(self.record, (callee, *self.enclosing), self.in_comprehension, self.in_lambda)

    def inside_comprehension(self) -> "Where":
        return Where(self.record, self.enclosing, True, self.in_lambda)

    def inside_lambda(self) -> "Where":
        return Where(self.record, self.enclosing, self.in_comprehension, True)


_RECORDED = Where()
_UNRECORDED = Where(record=False)
# Expressions whose elements' values flow where the whole value goes (``IfExp``: not its test).
_PASSING_SINK = frozenset({ast.List, ast.Tuple, ast.Set, ast.Starred, ast.IfExp})


class ExpressionWalker(ScopeState):
    def expression(self, node: ast.expr, record: bool = True, sink: str | None = None, where: Where | None = None) -> Expr:
        """Record the calls and name loads in ``node``; return its expression form.

        ``sink`` is the local name ``node``'s value is stored into, if any.
        """
        self._visit(node, where if where is not None else (_RECORDED if record else _UNRECORDED), sink=sink)
        return self.forms.of(node)

    def visit(self, node: ast.expr, record: bool = True, sink: str | None = None) -> None:
        """``expression`` for a node whose form nobody reads."""
        self._visit(node, _RECORDED if record else _UNRECORDED, sink=sink)

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

    def parameters(self, args: ast.arguments) -> tuple[Param, ...]:
        params: list[Param] = []
        positional = [*args.posonlyargs, *args.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        for index, arg in enumerate(positional):
            kind = "posonly" if index < len(args.posonlyargs) else "normal"
            params.append(self._parameter(arg, kind, defaults[index]))
        if args.vararg is not None:
            params.append(self._parameter(args.vararg, "vararg", None))
        for arg, default in zip(args.kwonlyargs, args.kw_defaults):
            params.append(self._parameter(arg, "kwonly", default))
        if args.kwarg is not None:
            params.append(self._parameter(args.kwarg, "kwarg", None))
        return tuple(params)

    def _parameter(self, arg: ast.arg, kind: str, default: ast.expr | None) -> Param:
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

    def _visit(self, node: ast.AST, where: Where, awaited: bool = False, sink: str | None = None) -> bool:
        """Record the calls and name loads in ``node``; True when it calls, awaits, yields or binds (``effects``)."""
        kind = type(node)
        if kind is ast.Name:  # a third of all nodes: visited here, without a visitor's call
            context = type(node.ctx)  # type: ignore[attr-defined]
            if context is ast.Load:
                self.loaded[-1].add(node.id)  # type: ignore[attr-defined]
            elif context is ast.Store:
                # A walrus binds in the enclosing function.
                self.bind(node.id, "assign", node.lineno)  # type: ignore[attr-defined]
            return False
        return _VISITORS.get(kind, ExpressionWalker._visit_parts)(self, node, where, awaited, sink)

    def _visit_constant(self, node: ast.Constant, where: Where, awaited: bool, sink: str | None) -> bool:
        return False

    def _visit_attribute(self, node: ast.Attribute, where: Where, awaited: bool, sink: str | None) -> bool:
        effect = self._visit(node.value, where)
        if where.record and type(node.ctx) is ast.Load:
            form = self.forms.of(node)  # made after the walk, which names the lambdas inside
            if type(form) is Attr:  # ``make().prop``: a property's getter or ``__getattr__`` may run here
                self.implicit_call(form.base, form.span, awaited=False, where=where)  # type: ignore[arg-type]
        if effect:
            self.effects.add(id(node))
            return True
        return False

    def _visit_await(self, node: ast.Await, where: Where, awaited: bool, sink: str | None) -> bool:
        self._visit(node.value, where, awaited=True)
        if where.record:  # ``await obj`` runs ``type(obj).__await__``
            form = self.forms.of(node)  # made after the walk, which names the lambdas inside
            self.implicit_call(form.value, form.span, awaited=True, where=where)  # type: ignore[attr-defined]
        self.effects.add(id(node))
        return True

    def _visit_comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp,
                             where: Where, awaited: bool, sink: str | None) -> bool:
        inside = where.inside_comprehension()
        targets = {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        with self._own_scope(targets):
            for generator in node.generators:
                self._visit(generator.iter, inside)
                if where.record:  # iterating runs ``__iter__``/``__next__`` (a generator's body) there
                    self.implicit_call(self.forms.of(generator.iter), self.forms.span_of(generator.iter),
                                       awaited=bool(generator.is_async), where=inside)
                for condition in generator.ifs:
                    self._visit(condition, inside)
            if type(node) is ast.DictComp:
                self._visit(node.key, inside)
                self._visit(node.value, inside)
            else:
                self._visit(node.elt, inside, sink=sink)
        self.effects.add(id(node))
        return True

    def _visit_lambda(self, node: ast.Lambda, where: Where, awaited: bool, sink: str | None) -> bool:
        if where.record:
            self._lambda_function(node, where)
        else:
            arguments = node.args
            for default in [*arguments.defaults, *[d for d in arguments.kw_defaults if d is not None]]:
                self._visit(default, where)
        self.effects.add(id(node))
        return True

    def _visit_walrus(self, node: ast.NamedExpr, where: Where, awaited: bool, sink: str | None) -> bool:
        self._visit(node.target, where)
        self._visit(node.value, where, sink=node.target.id)
        self.effects.add(id(node))
        return True

    def _visit_yield(self, node: ast.Yield | ast.YieldFrom, where: Where, awaited: bool, sink: str | None) -> bool:
        function = self.binding_stack[-1].function
        if function is not None:  # a yield makes the innermost function (or lambda) a generator
            function.is_generator = True
        self._visit_parts(node, where, awaited, sink)
        self.effects.add(id(node))
        return True

    def _visit_parts(self, node: ast.AST, where: Where, awaited: bool, sink: str | None) -> bool:
        """Any other expression: its sub-expressions are visited."""
        effect = False
        kind = type(node)
        # The value of a display element or of either branch flows where the whole goes.
        flows = sink if kind in _PASSING_SINK else None
        for name in expression_fields(kind):
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

    def _visit_call(self, node: ast.Call, where: Where, awaited: bool, sink: str | None) -> bool:
        if where.record and type(node.func) is not ast.Name and dotted_name(node.func) is None:
            # The callee's form is made before it is walked: name its lambdas first (``(lambda: f)()``).
            for sub in _outer_lambdas(node.func):
                self.lambda_qualname(sub)
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
        if type(node.func) is ast.Attribute:  # a method's read is the call's, not a property read of its own
            if self._visit(node.func.value, where):
                self.effects.add(id(node.func))
        else:
            self._visit(node.func, where)
        inside = where.inside_call(callee)
        # ``tasks.append(call)`` stores ``call`` into ``tasks``.
        collector = _collector(callee)
        for arg in node.args:
            self._visit(arg, inside, sink=collector)
        for keyword in node.keywords:
            self._visit(keyword.value, inside)
        self.effects.add(id(node))
        return True

    def implicit_call(self, operand: Expr, span: Span, awaited: bool, where: Where = _RECORDED) -> None:
        """A protocol method Python calls on ``operand``'s value at ``span``, in a function's body."""
        function = self.function_stack[-1].function
        if function is None or function is self.module_function:
            return  # the rules read implicit calls in bodies only; the value flow records them everywhere
        function.implicit_calls.append(CallSite(
            callee=operand, span=span, awaited=awaited, enclosing=where.enclosing,
            in_comprehension=where.in_comprehension, in_lambda=where.in_lambda))

    def _lambda_function(self, node: ast.Lambda, where: Where) -> None:
        """A lambda becomes a function of the module whose one statement is ``return body``.

        Its calls stay recorded in the function that holds it (``in_lambda``), where the rules read them.
        """
        qualname = self.lambda_qualname(node)
        params = self.parameters(node.args)  # defaults run here, in the enclosing scope
        function = FunctionSummary(
            qualname=qualname,
            name="<lambda>",
            span=self.span(node),
            is_async=False,
            decorators=(),
            params=params,
            parent=self.parent_qualname(),
            is_lambda=True,
        )
        self.summary.functions.append(function)
        scope = self.function_scope(function, params, f"{qualname}.<locals>")
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
        self.close_function_scope(function, scope, loaded)


_Visitor = Callable[[ExpressionWalker, ast.AST, Where, bool, "str | None"], bool]
_VISITORS: dict[type, _Visitor] = {
    ast.Constant: ExpressionWalker._visit_constant,
    ast.Attribute: ExpressionWalker._visit_attribute,
    ast.Await: ExpressionWalker._visit_await,
    ast.Call: ExpressionWalker._visit_call,
    ast.ListComp: ExpressionWalker._visit_comprehension,
    ast.SetComp: ExpressionWalker._visit_comprehension,
    ast.GeneratorExp: ExpressionWalker._visit_comprehension,
    ast.DictComp: ExpressionWalker._visit_comprehension,
    ast.Lambda: ExpressionWalker._visit_lambda,
    ast.NamedExpr: ExpressionWalker._visit_walrus,
    ast.Yield: ExpressionWalker._visit_yield,
    ast.YieldFrom: ExpressionWalker._visit_yield,
}

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


def _names_type_alias(annotation: Expr) -> bool:
    return isinstance(annotation, Ref) and annotation.dotted.rsplit(".", 1)[-1] == "TypeAlias"
