"""The small expression forms (``steplint.core.summary``) of one syntax tree's nodes, and of assignment targets.

Each node kind has its form maker in a table (``_SITED`` for the forms the
value-flow analysis runs, ``_PLAIN`` for annotations and ``to_expr``), as
pyflakes dispatches on node types; a kind missing from a table gets the
table's fallback.
"""

from __future__ import annotations

import ast
import operator
from typing import Callable, Iterator

from steplint.core.summary import (
    Attr,
    AttrTarget,
    Await,
    BinOpForm,
    CallExpr,
    Choice,
    Compare,
    Comprehension,
    Const,
    Display,
    Expr,
    Generator,
    ItemTarget,
    LambdaForm,
    NameTarget,
    Negation,
    FormattedString,
    Opaque,
    OtherTarget,
    Ref,
    SliceForm,
    Span,
    Starred,
    Subscript,
    TargetForm,
    UnionExpr,
    UnpackTarget,
    Walrus,
    YieldForm,
)

OPERATORS = {ast.Add: "+", ast.BitOr: "|", ast.Mult: "*", ast.Div: "/"}

_COMPREHENSION_KINDS = {ast.ListComp: "list", ast.SetComp: "set", ast.GeneratorExp: "generator", ast.DictComp: "dict"}
_DISPLAY_KINDS = {ast.List: "list", ast.Tuple: "tuple", ast.Set: "set"}
_SHARED_CONSTANTS = frozenset({type(None), bool, int, str, bytes, type(...)})
# Fields that never hold an expression: contexts and operators (nodes without children).
_NOT_EXPRESSIONS = frozenset({"ctx", "op", "ops", "conversion", "kind"})
_FIELDS: dict[type, tuple[str, ...]] = {}


def expression_fields(kind: type) -> tuple[str, ...]:
    """The fields of an expression node that may hold expressions, in ``ast.iter_child_nodes`` order."""
    found = _FIELDS.get(kind)
    if found is None:
        found = _FIELDS[kind] = tuple(name for name in kind._fields if name not in _NOT_EXPRESSIONS)  # type: ignore[attr-defined]
    return found


def dotted_name(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def no_span(node: ast.AST) -> Span:
    line = getattr(node, "lineno", 1)
    return Span(line, getattr(node, "col_offset", 0), getattr(node, "end_lineno", line) or line, 0)


def to_expr(node: ast.AST, span_of=no_span) -> Expr:  # noqa: ANN001
    """The small expression form of ``node`` (see ``steplint.core.summary``); ``span_of`` gives a node's span."""
    return ExpressionForms(span_of).of(node)


class ExpressionForms:
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

    __slots__ = ("span_of", "by_node", "shared", "makers", "fallback", "lambda_names", "sites", "effects", "call_spans")

    def __init__(self, span_of, shared: dict[object, Expr] | None = None, sited: bool = False,  # noqa: ANN001
                 lambda_names: dict[int, str] | None = None, effects: set[int] | None = None):
        self.span_of = span_of
        self.by_node: dict[int, Expr] = {}
        self.shared: dict[object, Expr] = {} if shared is None else shared
        self.makers, self.fallback = (_SITED, _opaque) if sited else (_PLAIN, _other_display)
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
            return found if found is not None else self.ref(node.id)  # type: ignore[attr-defined]
        found = self.by_node.get(id(node))
        if found is None:
            found = self.by_node[id(node)] = self.makers.get(type(node), self.fallback)(self, node)
        return found

    def ref(self, dotted: str) -> Expr:
        found = self.shared.get(dotted)
        if found is None:
            found = self.shared[dotted] = Ref(dotted)
        return found

    def display(self, kind: str) -> Expr:
        key = ("display", kind)
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = Display(kind)
        return found

    def const(self, value: object) -> Expr:
        # Keyed by type too: 1, 1.0 and True are equal, and a float (nan, -0.0) is never shared.
        if type(value) not in _SHARED_CONSTANTS:
            return Const(value)
        key = (type(value), value)
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = Const(value)
        return found


_Maker = Callable[[ExpressionForms, ast.AST], Expr]


# --- forms of both tables -------------------------------------------------------------


def _attribute(forms: ExpressionForms, node: ast.Attribute) -> Expr:
    dotted = dotted_name(node)
    if dotted is not None:
        return forms.ref(dotted)
    return Attr(forms.of(node.value), node.attr, forms.span_of(node) if forms.makers is _SITED else None)


def _constant(forms: ExpressionForms, node: ast.Constant) -> Expr:
    return forms.const(node.value)


def _call(forms: ExpressionForms, node: ast.Call) -> Expr:
    of, keywords = forms.of, node.keywords
    return CallExpr(
        func=of(node.func),
        args=tuple(of(a) for a in node.args),
        kwargs=tuple((k.arg or "**", of(k.value)) for k in keywords),
        span=forms.call_spans.pop(id(node), None) or forms.span_of(node),
        # Only ``replay_key=`` is ever pointed at (STP041); the others' spans would cost for nothing.
        kw_spans=tuple((k.arg, forms.span_of(k)) for k in keywords if k.arg in ("replay_key", "name")),
    )


def _subscript(forms: ExpressionForms, node: ast.Subscript) -> Expr:
    index = node.slice
    # ``d["a", 1]``: its items; ``d["a",]`` is the one-item tuple ``("a",)``, not ``d["a"]``
    items = index.elts if type(index) is ast.Tuple and len(index.elts) != 1 else [index]
    return Subscript(forms.of(node.value), tuple(forms.of(i) for i in items))


def _slice(forms: ExpressionForms, node: ast.Slice) -> Expr:
    return SliceForm(*(forms.of(part) if part is not None else None for part in (node.lower, node.upper, node.step)))


def _binary(forms: ExpressionForms, node: ast.BinOp) -> Expr:
    if type(node.op) is ast.BitOr:
        return UnionExpr((forms.of(node.left), forms.of(node.right)))
    return BinOpForm(OPERATORS.get(type(node.op), "?"), forms.of(node.left), forms.of(node.right))


def _lambda(forms: ExpressionForms, node: ast.Lambda) -> Expr:
    qualname = forms.lambda_names.get(id(node))
    return LambdaForm(qualname) if qualname is not None else forms.display("lambda")


_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_, ast.Invert: operator.invert}


def _unary(forms: ExpressionForms, node: ast.UnaryOp) -> Expr:
    """``-1``, ``not 0``: the constant Python computes (``t[::-1]`` steps backwards); ``not x``: its negation (sited
    forms); else the operand's parts."""
    if type(node.operand) is ast.Constant:
        try:
            return forms.const(_UNARY[type(node.op)](node.operand.value))
        except (TypeError, ValueError):  # ``-"a"``: Python raises; its value is unknown
            pass
    if type(node.op) is ast.Not and forms.makers is _SITED:
        return Negation(forms.of(node.operand))
    return forms.fallback(forms, node)


# --- annotation forms: displays without their elements' places --------------------------


def _plain_display(forms: ExpressionForms, node: ast.List | ast.Tuple | ast.Set) -> Expr:
    elements, name = node.elts, _DISPLAY_KINDS[type(node)]
    return Display(name, tuple(forms.of(e) for e in elements)) if elements else forms.display(name)


def _plain_dict(forms: ExpressionForms, node: ast.Dict) -> Expr:
    return forms.display("dict")


def _plain_comprehension(forms: ExpressionForms, node: ast.expr) -> Expr:
    return forms.display("comprehension")


def _other_display(forms: ExpressionForms, node: ast.AST) -> Expr:
    return forms.display("other")


# --- sited forms: what the value-flow analysis runs ------------------------------------------


def _sited_display(forms: ExpressionForms, node: ast.List | ast.Tuple | ast.Set) -> Expr:
    return Display(_DISPLAY_KINDS[type(node)], tuple(forms.of(e) for e in node.elts), forms.site())


def _sited_dict(forms: ExpressionForms, node: ast.Dict) -> Expr:
    keys = tuple(forms.of(k) if k is not None else None for k in node.keys)
    return Display("dict", tuple(forms.of(v) for v in node.values), forms.site(), keys)


def _sited_comprehension(forms: ExpressionForms, node: ast.ListComp | ast.SetComp | ast.GeneratorExp) -> Expr:
    generators = _generators(forms, node.generators)
    return Comprehension(_COMPREHENSION_KINDS[type(node)], forms.of(node.elt), None, generators, forms.site())


def _sited_dict_comprehension(forms: ExpressionForms, node: ast.DictComp) -> Expr:
    generators = _generators(forms, node.generators)
    return Comprehension("dict", forms.of(node.value), forms.of(node.key), generators, forms.site())


def _generators(forms: ExpressionForms, generators: list[ast.comprehension]) -> tuple[Generator, ...]:
    return tuple(
        Generator(_comprehension_target(forms, g.target), forms.of(g.iter), tuple(forms.of(c) for c in g.ifs),
                  forms.span_of(g.iter), bool(g.is_async))
        for g in generators
    )


def _await(forms: ExpressionForms, node: ast.Await) -> Expr:
    return Await(forms.of(node.value), forms.span_of(node))


def _formatted(forms: ExpressionForms, node: ast.JoinedStr) -> Expr:
    """An f-string: its literal text and the values it formats (kept, so that a search following a value sees it
    reach the string, and the analysis can make the string where every value is a known constant)."""
    parts: list[Expr] = []
    pieces: list[str | int] | None = []
    for value in node.values:
        if type(value) is ast.FormattedValue:
            if pieces is not None and (value.conversion != -1 or value.format_spec is not None):
                pieces = None
            if pieces is not None:
                pieces.append(len(parts))
            parts.append(forms.of(value.value))
        elif pieces is not None and type(value) is ast.Constant and type(value.value) is str:
            pieces.append(value.value)
        else:
            pieces = None
    return FormattedString(tuple(parts), tuple(pieces) if pieces is not None else None)


def _starred(forms: ExpressionForms, node: ast.Starred) -> Expr:
    return Starred(forms.of(node.value))


def _if_expression(forms: ExpressionForms, node: ast.IfExp) -> Expr:
    return Choice((forms.of(node.body), forms.of(node.orelse)), (forms.of(node.test),))


def _boolean(forms: ExpressionForms, node: ast.BoolOp) -> Expr:
    return Choice(tuple(forms.of(v) for v in node.values), (), "and" if type(node.op) is ast.And else "or")


def _walrus(forms: ExpressionForms, node: ast.NamedExpr) -> Expr:
    return Walrus(node.target.id, forms.of(node.value))  # type: ignore[attr-defined]


def _yield(forms: ExpressionForms, node: ast.Yield | ast.YieldFrom) -> Expr:
    delegate = type(node) is ast.YieldFrom
    return YieldForm(forms.of(node.value) if node.value is not None else None, delegate,
                     forms.span_of(node) if delegate else None)


_COMPARISONS = {ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not", ast.Lt: "<", ast.LtE: "<=",
                ast.Gt: ">", ast.GtE: ">=", ast.In: "in", ast.NotIn: "not in"}


def _compare(forms: ExpressionForms, node: ast.Compare) -> Expr:
    """``a == b``, ``0 < n <= 3``, ``x in MODES``: a form the analysis can decide on known values."""
    ops = [_COMPARISONS[type(op)] for op in node.ops]
    operands = [forms.of(operand) for operand in node.comparators]
    return Compare(ops[0], forms.of(node.left), operands[0], tuple(zip(ops[1:], operands[1:])))


def _opaque(forms: ExpressionForms, node: ast.AST) -> Expr:
    effects = forms.effects
    parts = tuple(
        forms.of(child) for child in _child_expressions(node)
        if effects is None or id(child) in effects
    )
    return Opaque(parts) if parts else forms.display("other")


def _child_expressions(node: ast.AST) -> Iterator[ast.expr]:
    """The expressions directly under ``node``, in ``ast.iter_child_nodes`` order."""
    for name in expression_fields(type(node)):
        value = getattr(node, name)
        if type(value) is list:
            for item in value:
                if isinstance(item, ast.expr):
                    yield item
        elif isinstance(value, ast.expr):
            yield value


_BOTH: dict[type, _Maker] = {
    ast.Name: lambda forms, node: forms.ref(node.id),
    ast.Attribute: _attribute,
    ast.Constant: _constant,
    ast.Call: _call,
    ast.Subscript: _subscript,
    ast.Slice: _slice,
    ast.BinOp: _binary,
    ast.Lambda: _lambda,
    ast.UnaryOp: _unary,
}
_PLAIN: dict[type, _Maker] = {
    **_BOTH,
    **dict.fromkeys(_DISPLAY_KINDS, _plain_display),
    ast.Dict: _plain_dict,
    **dict.fromkeys(_COMPREHENSION_KINDS, _plain_comprehension),
}
_SITED: dict[type, _Maker] = {
    **_BOTH,
    **dict.fromkeys(_DISPLAY_KINDS, _sited_display),
    ast.Dict: _sited_dict,
    ast.ListComp: _sited_comprehension,
    ast.SetComp: _sited_comprehension,
    ast.GeneratorExp: _sited_comprehension,
    ast.DictComp: _sited_dict_comprehension,
    ast.Await: _await,
    ast.Starred: _starred,
    ast.JoinedStr: _formatted,
    ast.IfExp: _if_expression,
    ast.BoolOp: _boolean,
    ast.Compare: _compare,
    ast.NamedExpr: _walrus,
    ast.Yield: _yield,
    ast.YieldFrom: _yield,
}


# --- assignment targets ------------------------------------------------------------------------


def target_form(forms: ExpressionForms, target: ast.AST) -> TargetForm:
    """The form of an assignment target (``for`` and ``with`` targets too)."""
    return _TARGETS.get(type(target), _other_target)(forms, target)


def _comprehension_target(forms: ExpressionForms, target: ast.AST) -> TargetForm:
    # ``for *a in ...`` parses (the compiler rejects it): a comprehension keeps no form of it.
    return target_form(forms, target) if type(target) is not ast.Starred else OtherTarget()


def _unpack_target(forms: ExpressionForms, target: ast.Tuple | ast.List) -> TargetForm:
    star = next((i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)), -1)
    items = tuple(target_form(forms, e.value if isinstance(e, ast.Starred) else e) for e in target.elts)
    return UnpackTarget(items, star)


def _other_target(forms: ExpressionForms, target: ast.AST) -> TargetForm:
    return OtherTarget((forms.of(target),) if isinstance(target, ast.expr) else ())


_TARGETS: dict[type, Callable[[ExpressionForms, ast.AST], TargetForm]] = {
    ast.Name: lambda forms, target: NameTarget(target.id),
    ast.Attribute: lambda forms, target: AttrTarget(forms.of(target.value), target.attr),
    ast.Subscript: lambda forms, target: ItemTarget(forms.of(target.value), forms.of(target.slice)),
    ast.Tuple: _unpack_target,
    ast.List: _unpack_target,
    ast.Starred: lambda forms, target: UnpackTarget((target_form(forms, target.value),), 0),
}
