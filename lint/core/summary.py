"""The per-module summary: plain, picklable data that rules read instead of trees.

A summary is built once per file (``steplint.summaries.builder``) and can be cached by
content hash or built in another process. Expressions that rules must judge
(decorators, annotations, assigned values, callees) are kept in a tiny
expression form (``Ref``/``CallExpr``/``Subscript``/...) whose names are still
unresolved: ``steplint.analysis.index`` resolves them across modules.

Positions: ``line`` is 1-based, ``col`` is a 0-based character offset, as in
the source text; formatters convert to their own conventions.

Values: spans, expressions, bindings, parameters and call sites are never
changed once built (one form may serve many places of a module), and they hash
by value. They are not ``frozen`` dataclasses only because a frozen
``__init__`` sets each field through ``object.__setattr__``: that made building
and unpickling these few hundred objects per file twice as slow.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Iterator, Union


@dataclass(slots=True, unsafe_hash=True)
class Span:
    line: int
    col: int
    end_line: int
    end_col: int


# --- expressions --------------------------------------------------------------


@dataclass(slots=True, unsafe_hash=True)
class Ref:
    """A dotted name as written: ``step``, ``maf.step``, ``self.helper``."""

    dotted: str


@dataclass(slots=True, unsafe_hash=True)
class CallExpr:
    func: "Expr"
    args: tuple["Expr", ...]
    kwargs: tuple[tuple[str, "Expr"], ...]
    span: Span
    kw_spans: tuple[tuple[str, Span], ...] = ()

    def kwarg(self, name: str) -> "Expr | None":
        for key, value in self.kwargs:
            if key == name:
                return value
        return None

    def kwarg_span(self, name: str) -> Span | None:
        for key, span in self.kw_spans:
            if key == name:
                return span
        return None


@dataclass(slots=True, unsafe_hash=True)
class Subscript:
    base: "Expr"
    items: tuple["Expr", ...]


@dataclass(slots=True, unsafe_hash=True)
class UnionExpr:
    """``X | Y`` in an annotation."""

    items: tuple["Expr", ...]


@dataclass(slots=True, unsafe_hash=True)
class Const:
    """A literal: None, bool, int, float, complex, str, bytes or Ellipsis."""

    value: object


@dataclass(slots=True, unsafe_hash=True)
class Display:
    """A list/dict/set/tuple display, a comprehension, a lambda, or anything else.

    ``site`` numbers the place where the display makes a new object, in its
    file (the value-flow analysis allocates one per place); annotation forms
    leave it 0. For a dict, ``items`` are the values and ``keys`` their keys
    (None for ``**x``).
    """

    kind: str  # "list", "dict", "set", "tuple", "comprehension", "lambda", "other"
    items: tuple["Expr", ...] = ()
    site: int = 0
    keys: tuple["Expr | None", ...] = ()


@dataclass(slots=True, unsafe_hash=True)
class Attr:
    """``base.attr`` where ``base`` is not a dotted name (``make().send``, ``items[0].run``).

    ``span`` is where a property's getter or a ``__getattr__`` runs when the read is not a call's callee.
    """

    base: "Expr"
    attr: str
    span: "Span | None" = None


@dataclass(slots=True, unsafe_hash=True)
class SliceForm:
    """``lower:upper:step`` inside a subscript."""

    lower: "Expr | None"
    upper: "Expr | None"
    step: "Expr | None"


@dataclass(slots=True, unsafe_hash=True)
class Starred:
    value: "Expr"


@dataclass(slots=True, unsafe_hash=True)
class Await:
    """``await value``; ``span`` (the whole expression) is where ``type(value).__await__`` runs."""

    value: "Expr"
    span: "Span | None" = None


@dataclass(slots=True, unsafe_hash=True)
class Choice:
    """A value that is one of ``items`` (``a if t else b``, ``a or b``); ``effects`` are evaluated only for their calls.
    ``op`` is ``and`` or ``or`` for a boolean operation, whose items run left to right until one decides it."""

    items: tuple["Expr", ...]
    effects: tuple["Expr", ...] = ()
    op: str = ""


@dataclass(slots=True, unsafe_hash=True)
class Walrus:
    """``name := value``, binding ``name`` in the enclosing function."""

    name: str
    value: "Expr"


@dataclass(slots=True, unsafe_hash=True)
class YieldForm:
    value: "Expr | None"
    delegate: bool  # ``yield from``
    span: "Span | None" = None  # ``yield from gen``: where ``gen`` runs when this generator is iterated


@dataclass(slots=True, unsafe_hash=True)
class BinOpForm:
    """``left + right`` (a concatenation of sequences, or an unknown number)."""

    op: str
    left: "Expr"
    right: "Expr"


@dataclass(slots=True, unsafe_hash=True)
class Compare:
    """``left op right``: known where both sides are known values the operator decides (``if __name__ ==
    "__main__":`` in a module's import, ``LIMIT <= 3``, ``"a" in MODES``), else unknown. ``rest`` continues a chain
    (``0 < n <= 3``: ``op`` is ``<``, ``rest`` is ``(("<=", 3),)``), whose later operands run only while it holds."""

    op: str  # "==", "!=", "is", "is not", "<", "<=", ">", ">=", "in" or "not in"
    left: "Expr"
    right: "Expr"
    rest: tuple[tuple[str, "Expr"], ...] = ()


@dataclass(slots=True, unsafe_hash=True)
class Negation:
    """``not operand``: known where the operand's truth is."""

    operand: "Expr"


@dataclass(slots=True, unsafe_hash=True)
class Opaque:
    """A value the analysis does not model (a comparison other than one ``==`` or ``!=``...); ``parts`` are evaluated
    for their calls."""

    parts: tuple["Expr", ...] = ()


@dataclass(slots=True, unsafe_hash=True)
class FormattedString:
    """An f-string. ``pieces`` is its text in order: a literal piece as a ``str``, a formatted value as the position
    of its expression in ``parts``; None where a value has a conversion or a format spec (``{x!r}``, ``{x:>4}``),
    whose text the analysis does not make. ``parts`` are evaluated for their calls."""

    parts: tuple["Expr", ...] = ()
    pieces: "tuple[str | int, ...] | None" = None


@dataclass(slots=True, unsafe_hash=True)
class LambdaForm:
    """A lambda: its body is the function ``qualname`` of the module (``outer.<lambda1>``)."""

    qualname: str


@dataclass(slots=True, unsafe_hash=True)
class Generator:
    """``for target in iter if cond ...`` inside a comprehension."""

    target: "TargetForm"
    iter: "Expr"
    conditions: tuple["Expr", ...]
    span: "Span | None" = None  # the iterable: where iterating it runs what it runs (a generator's body)
    is_async: bool = False  # ``async for``: ``__aiter__``/``__anext__``


@dataclass(slots=True, unsafe_hash=True)
class Comprehension:
    """``[elt for ...]``, ``{key: elt for ...}``, ``(elt for ...)``: a new container (a generator for ``(...)``)."""

    kind: str  # "list", "set", "dict", "generator"
    elt: "Expr"
    key: "Expr | None"
    generators: tuple[Generator, ...]
    site: int  # numbers the place in its file, as ``Display.site`` does


Expr = Union[
    Ref, CallExpr, Subscript, UnionExpr, Const, Display, Attr, SliceForm, Starred, Await, Choice, Walrus,
    YieldForm, BinOpForm, Compare, Negation, Opaque, FormattedString, LambdaForm, Comprehension,
]


# --- assignment targets ------------------------------------------------------------


@dataclass(slots=True, unsafe_hash=True)
class NameTarget:
    name: str


@dataclass(slots=True, unsafe_hash=True)
class AttrTarget:
    base: "Expr"
    attr: str


@dataclass(slots=True, unsafe_hash=True)
class ItemTarget:
    base: "Expr"
    index: "Expr"


@dataclass(slots=True, unsafe_hash=True)
class UnpackTarget:
    """``a, *b, c``: ``star`` is the position of the starred item, or -1."""

    items: tuple["TargetForm", ...]
    star: int = -1


@dataclass(slots=True, unsafe_hash=True)
class OtherTarget:
    """A target the analysis does not follow (``f().x[i:j]``...): evaluated for its calls only."""

    parts: tuple["Expr", ...] = ()


TargetForm = Union[NameTarget, AttrTarget, ItemTarget, UnpackTarget, OtherTarget]


# --- statements, in order: what the value-flow analysis runs ------------------------


@dataclass(slots=True)
class AssignStmt:
    targets: tuple[TargetForm, ...]
    value: Expr


@dataclass(slots=True)
class AugAssignStmt:
    target: TargetForm
    op: str
    value: Expr


@dataclass(slots=True)
class ExprStmt:
    value: Expr


@dataclass(slots=True)
class ReturnStmt:
    value: Expr | None


@dataclass(slots=True)
class IfStmt:
    test: Expr
    body: tuple["Stmt", ...]
    orelse: tuple["Stmt", ...]


@dataclass(slots=True)
class LoopStmt:
    """``for target in iter`` (``test`` None) or ``while test`` (``target`` and ``iter`` None)."""

    target: TargetForm | None
    iter: Expr | None
    test: Expr | None
    body: tuple["Stmt", ...]
    orelse: tuple["Stmt", ...]
    is_async: bool = False
    span: Span | None = None  # ``for target in iter``: where ``__iter__``/``__next__`` (``__aiter__``/``__anext__``) run
    jumps: bool = True  # the body may ``break`` or ``continue`` this loop (an iteration may end before the body does)


@dataclass(slots=True)
class WithStmt:
    """``spans``: per item, from the statement's start to the item's end, where its ``__enter__``/``__exit__`` run."""

    items: tuple[tuple[Expr, TargetForm | None], ...]
    body: tuple["Stmt", ...]
    is_async: bool
    spans: tuple[Span, ...] = ()


@dataclass(slots=True)
class TryStmt:
    body: tuple["Stmt", ...]
    handlers: tuple[tuple[Expr | None, str | None, tuple["Stmt", ...]], ...]
    orelse: tuple["Stmt", ...]
    final: tuple["Stmt", ...]


@dataclass(slots=True)
class DefStmt:
    """``def``/``async def``: binds ``name`` to the function ``qualname`` (decorators and defaults run here)."""

    name: str
    qualname: str


@dataclass(slots=True)
class ClassStmt:
    name: str
    qualname: str


@dataclass(slots=True)
class ImportStmt:
    """``import module`` (binds the head ``name`` to the top package) or ``import module as name``."""

    module: str
    name: str
    binds_head: bool


@dataclass(slots=True)
class FromImportStmt:
    """``from module import imported as name``; ``imported`` "*" for a star import; ``module`` already absolute."""

    module: str
    imported: str
    name: str


@dataclass(slots=True)
class RaiseStmt:
    value: Expr | None


@dataclass(slots=True, unsafe_hash=True)
class CapturePattern:
    """``name``, ``_`` (no name), ``p as name`` (``inner`` p), ``*rest`` in a sequence pattern."""

    name: str | None
    inner: "PatternForm | None" = None


@dataclass(slots=True, unsafe_hash=True)
class SequencePattern:
    """``[a, *rest, b]`` / ``(a, b)``: ``star`` is the position of the starred item, -1 without one."""

    items: tuple["PatternForm", ...]
    star: int = -1


@dataclass(slots=True, unsafe_hash=True)
class MappingPattern:
    """``{key: pattern, **rest}``."""

    keys: tuple[Expr, ...]
    values: tuple["PatternForm", ...]
    rest: str | None = None


@dataclass(slots=True, unsafe_hash=True)
class ClassPattern:
    """``Cls(p, name=q)``: positional patterns match the attributes ``Cls.__match_args__`` names."""

    cls: Expr
    positional: tuple["PatternForm", ...]
    keywords: tuple[tuple[str, "PatternForm"], ...]


@dataclass(slots=True, unsafe_hash=True)
class OrPattern:
    alternatives: tuple["PatternForm", ...]


@dataclass(slots=True, unsafe_hash=True)
class ValuePattern:
    """``"fast"``, ``Mode.FAST`` (matched by ``==``), ``None``, ``True``, ``False`` (``identity``: matched by ``is``)."""

    value: Expr
    identity: bool = False


#: What a ``case`` pattern binds from the subject, and what it matches; None for a form not followed.
PatternForm = Union[CapturePattern, SequencePattern, MappingPattern, ClassPattern, OrPattern, ValuePattern, None]


@dataclass(slots=True)
class MatchStmt:
    subject: Expr
    cases: tuple[tuple[tuple[str, ...], Expr | None, tuple["Stmt", ...]], ...]  # captured names, guard, body
    patterns: tuple[PatternForm, ...] = ()  # each case's pattern, in the order of ``cases``


Stmt = Union[
    AssignStmt, AugAssignStmt, ExprStmt, ReturnStmt, IfStmt, LoopStmt, WithStmt, TryStmt, DefStmt, ClassStmt,
    ImportStmt, FromImportStmt, RaiseStmt, MatchStmt,
]


# --- bindings and definitions ---------------------------------------------------


@dataclass(slots=True, unsafe_hash=True)
class Binding:
    """One statement that binds a name in a module (or function) scope.

    ``kind`` is "def", "class", "import" or "assign". ``order`` is the
    statement's position in the scope, so that ``fn = step(fn)`` can resolve
    its own ``fn`` to the binding before it.
    """

    kind: str  # also "param", and "with" (``with value as name``: value is the context expression)
    order: int
    line: int
    target: str = ""  # def/class: qualname; import: the absolute module name
    imported_name: str = ""  # ``from module import imported_name``; empty for ``import module``
    value: Expr | None = None  # assign: the value
    annotation: Expr | None = None  # assign: ``X: TypeAlias = ...``
    is_type_alias: bool = False  # ``type X = ...`` or annotated ``TypeAlias``
    #: Inside a branch, a loop, ``try``/``except`` or ``with`` of its scope: a later binding
    #: does not surely replace it (``try: from agent_framework import step`` / ``except: step = None``).
    conditional: bool = False
    #: A module-level binding in the body of the module's top-level ``if __name__ == "__main__":``, which runs
    #: when the file is run as a script, never when it is imported.
    main_only: bool = False


@dataclass(slots=True, unsafe_hash=True)
class Param:
    name: str
    kind: str  # "posonly", "normal", "vararg", "kwonly", "kwarg"
    span: Span
    annotation: Expr | None
    default: Expr | None
    default_span: Span | None


@dataclass(slots=True, unsafe_hash=True)
class CallSite:
    """A call expression in a function body.

    ``enclosing`` lists the callees of the calls whose arguments contain this
    call, innermost first (``asyncio.gather(tick(a))`` gives ``tick`` the
    enclosing ``(Ref("asyncio.gather"),)``); ``in_comprehension`` marks a call
    inside a comprehension or generator expression, ``in_lambda`` one inside a
    lambda (which may run elsewhere, later). ``sink`` is the local name the
    call's (un-awaited) value is stored into: ``n = call``, ``n = [call for
    ...]``, ``n.append(call)``; ``arg_names`` are the plain names passed as
    arguments (``gather(*tasks)`` gives ``("tasks",)``).
    """

    callee: Expr
    span: Span
    awaited: bool
    enclosing: tuple[Expr, ...] = ()
    in_comprehension: bool = False
    arg_count: int = 0
    in_lambda: bool = False
    sink: str | None = None
    arg_names: tuple[str, ...] = ()


@dataclass(slots=True)
class FunctionSummary:
    qualname: str  # ``outer.<locals>.inner``, ``Cls.method``; "<module>" for top-level code
    name: str
    span: Span  # the ``def`` (or ``async def``) keyword through the name
    is_async: bool
    decorators: tuple[Expr, ...]
    params: tuple[Param, ...]
    calls: list[CallSite] = field(default_factory=list)
    class_qualname: str | None = None  # set for functions defined directly in a class body
    parent: str | None = None  # enclosing function's qualname
    bindings: dict[str, list[Binding]] = field(default_factory=dict)  # local scope
    declared_global: frozenset[str] = frozenset()
    loaded_names: frozenset[str] = frozenset()  # names read in this body (nested scopes included)
    declared_nonlocal: frozenset[str] = frozenset()
    body: tuple[Stmt, ...] = ()  # the statements, for the value-flow analysis
    returns: Expr | None = None  # the return annotation
    is_generator: bool = False  # its body yields
    is_lambda: bool = False  # a lambda: ``calls`` stay with the function that holds it
    #: Where Python calls a protocol method for the body (``async with``, ``for``, ``await x``, ``make().prop``):
    #: the operand as ``callee``, the statement's or expression's span (never a call's own span).
    implicit_calls: list[CallSite] = field(default_factory=list)


@dataclass(slots=True)
class ClassSummary:
    qualname: str
    name: str
    span: Span
    bases: tuple[Expr, ...]
    keywords: tuple[tuple[str, Expr], ...]
    decorators: tuple[Expr, ...]
    parent: str | None = None  # enclosing function's qualname, if any
    body_names: frozenset[str] = frozenset()
    body: tuple[Stmt, ...] = ()
    fields: tuple[tuple[str, Expr], ...] = ()  # ``name: annotation`` in the body (a TypedDict's or dataclass's fields)


@dataclass(slots=True, unsafe_hash=True)
class ParseError:
    message: str
    line: int
    col: int


@dataclass(slots=True)
class Suppressions:
    """Inline suppression comments of one file.

    ``noqa`` maps a line to its codes (an empty tuple means a bare ``# noqa``)
    and ``noqa_spans`` to where the directive is (0-based columns, for STP100);
    ``disabled`` maps a line to ``# steplint: disable=`` codes; ``file_disabled``
    holds ``# steplint: disable-file=`` codes ("*" for all). ``file_noqa`` maps
    the line of a file-level ``# ruff: noqa``, ``# flake8: noqa`` or ``#
    steplint: noqa`` (on its own line) to its codes (empty: every code), and
    ``file_noqa_spans`` to where it is.
    """

    noqa: dict[int, tuple[str, ...]] = field(default_factory=dict)
    noqa_spans: dict[int, tuple[int, int]] = field(default_factory=dict)
    noqa_lines: dict[int, str] = field(default_factory=dict)  # the text of each line with a noqa (STP100's fix)
    disabled: dict[int, tuple[str, ...]] = field(default_factory=dict)
    file_disabled: tuple[str, ...] = ()
    file_noqa: dict[int, tuple[str, ...]] = field(default_factory=dict)
    file_noqa_spans: dict[int, tuple[int, int]] = field(default_factory=dict)


@dataclass(slots=True)
class ModuleSummary:
    path: str
    module: str
    is_package: bool
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    functions: list[FunctionSummary] = field(default_factory=list)
    classes: list[ClassSummary] = field(default_factory=list)
    star_imports: tuple[str, ...] = ()
    suppressions: Suppressions = field(default_factory=Suppressions)
    error: ParseError | None = None
    line_count: int = 0


#: What ``iter_calls`` does with a node of each type: skip it (a leaf), walk its items (a tuple), or walk its
#: slots (and yield it first when it is a call), with the function that reads the slots.
_LEAVES = (Span, str, int, float, bytes, bool, type(None))
_SKIP, _ITEMS, _NODE, _CALL = range(4)
_WALKS: dict[type, tuple] = {}


#: Field types that hold no expression or statement (a ``Const``'s value is data, never a call): their slots are
#: not walked. Any other field is, a type not written here included.
_CALL_FREE_FIELDS = frozenset({
    "str", "int", "bool", "object", "Span", "Span | None", "str | None", "tuple[str, ...]", "tuple[Span, ...]",
    "tuple[tuple[str, Span], ...]", "frozenset[str]",
})


def _walked_slots(kind: type) -> tuple[str, ...]:
    fields = getattr(kind, "__dataclass_fields__", None)
    slots = tuple(getattr(kind, "__slots__", ()))
    if fields is None:
        return slots
    return tuple(name for name in slots
                 if name not in fields or str(fields[name].type).strip("'\"") not in _CALL_FREE_FIELDS)


def _walk_of(kind: type) -> tuple:
    if issubclass(kind, _LEAVES):
        return _SKIP, None
    if issubclass(kind, tuple):
        return _ITEMS, None
    slots = _walked_slots(kind)
    if not slots and not issubclass(kind, CallExpr):
        return _SKIP, None
    if len(slots) == 1:
        name = slots[0]

        def children(node: object) -> tuple:
            return (getattr(node, name, None),)
    else:
        read = attrgetter(*slots) if slots else None

        def children(node: object) -> tuple:
            try:
                return read(node) if read is not None else ()
            except AttributeError:  # a slot never set: nothing in it
                return tuple(getattr(node, name, None) for name in slots)
    return (_CALL if issubclass(kind, CallExpr) else _NODE), children


def iter_calls(statements: tuple) -> "Iterator[CallExpr]":
    """Every call expression in ``statements`` and the blocks and expressions they hold.

    Depth first, each node's slots in their order (rules read the first call that answers): what a node holds
    is pushed whole, leaves and None included, and skipped when popped, by one lookup of its type."""
    stack: list = list(statements)
    pop, push = stack.pop, stack.extend
    walks = _WALKS
    while stack:
        node = pop()
        walk = walks.get(type(node))
        if walk is None:
            walk = walks[type(node)] = _walk_of(type(node))
        what, children = walk
        if what == _NODE:
            push(children(node))
        elif what == _ITEMS:
            push(node)
        elif what == _CALL:
            yield node
            push(children(node))


#: Marks the n-th ``def`` of one qualified name in a module (``_#2``): each definition is a function of its own
#: (``@handle.register`` then ``def _`` again, ``if``/``else`` definitions), a mark no message shows.
REDEFINITION_MARK = "#"
_MARKS = re.compile(r"#\d+")


def spelled(expr: object, other: str = "...") -> str:
    """An expression as messages show it: ``self.flow``, ``make().flow``, ``jobs[...]``; ``other`` for any other form."""
    if isinstance(expr, Ref):
        return expr.dotted
    if isinstance(expr, Attr):
        return f"{spelled(expr.base, other)}.{expr.attr}"
    if isinstance(expr, Subscript):
        return f"{spelled(expr.base, other)}[...]"
    if isinstance(expr, CallExpr):
        return f"{spelled(expr.func, other)}()"
    return other


def display_qualname(qualname: str) -> str:
    """A qualified name as messages show it: ``outer.inner`` for ``outer.<locals>.inner``, without redefinition marks."""
    shown = qualname.replace(".<locals>", "")
    return _MARKS.sub("", shown) if REDEFINITION_MARK in shown else shown
