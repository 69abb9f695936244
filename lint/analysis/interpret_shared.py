"""What the parts of the value-flow interpreter share: units, frames, and the session they reach each other through.

The interpreter is split by concern, as mypy splits its checker (``checker_shared``
holds the API its parts see): statements (``interpret_statements``), expressions
(``interpret_expressions``), calls (``interpret_calls``), attribute and item lookup
(``attribute_lookup``), the heap (``heap``), and the session that owns them and runs
units to a fixpoint (``interpreter``). No part imports another: each is handed the
session and calls the others through the ``SessionApi`` below, so the modules of
the stage stay free of import cycles.
"""

from __future__ import annotations

import builtins
import hashlib
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator, Protocol

from steplint.analysis.values import (
    ANY,
    EMPTY,
    KEYED_MEMBER,
    ONLY_UNKNOWN,
    UNKNOWN,
    ClassValue,
    ConstValue,
    ContainerValue,
    ExternalValue,
    FunctionValue,
    InstanceValue,
    KeyTuple,
    StepValue,
    Value,
    Values,
    bounded,
    const,
    stable_key,
)
from steplint.core.summary import (
    ClassSummary,
    Compare,
    Const,
    Expr,
    FunctionSummary,
    ModuleSummary,
    PatternForm,
    Ref,
    Span,
    Stmt,
    TargetForm,
)

@dataclass(eq=False)
class Unit:
    """One function (or module body) run in one context; what it found only grows."""

    id: int
    session: "SessionApi"
    function: Value  # FunctionValue, or ModuleValue for a module's body
    summary: FunctionSummary
    module: ModuleSummary
    params: tuple[Values, ...]
    wide: bool = False  # the merged context of a function past MAX_CONTEXTS
    tag: tuple | None = None  # context_tag, once computed (a unit's arguments never change unless it is wide)
    returns: set = field(default_factory=set)
    yields: set = field(default_factory=set)
    raises: set = field(default_factory=set)  # the exceptions a ``raise`` in it (or in what it runs) made
    union_env: dict = field(default_factory=dict)  # name -> every value bound to it here (what closures see)
    env: dict = field(default_factory=dict)  # a module's names as they are now (at the end: its final state)
    final_env: dict = field(default_factory=dict)  # a module's names as its last complete run left them
    #: call site span -> callee value -> the units that call ran (empty for calls not followed into code)
    site_calls: dict = field(default_factory=dict)
    #: (module path, making call's site key, await's site key, coroutine, its unit id): a coroutine awaited here on
    #: another line than the call that made it, which the flow moves to the await (``Flow.site_calls``)
    awaited_elsewhere: set = field(default_factory=set)
    edges: set = field(default_factory=set)  # callee values this unit calls (for the call graph)
    #: call site span -> outside callable's name -> coroutines it was given (``asyncio.gather(*calls)``)
    handed: dict = field(default_factory=dict)
    caller: int = 0  # the unit whose call first ran this one


class Frame:
    """The running scope: a function's locals, a module's globals, or a class body's namespace."""

    __slots__ = ("unit", "env", "kind", "parent", "local_names", "conditional", "fresh", "cells", "cls", "returned", "site",
                 "late", "raised")

    def __init__(self, unit: Unit, env: dict, kind: str, parent: "Frame | None" = None, cls: Value | None = None):
        self.unit = unit
        self.env = env
        self.kind = kind  # "module", "function" or "class"
        self.parent = parent
        self.local_names: frozenset[str] = frozenset()
        self.conditional = 0
        self.fresh: set = set()  # objects this run made outside any branch or loop: exact updates apply
        self.cells: dict = {}  # (object, key) -> values, for those objects, as this run left them
        self.cls = cls
        self.returned = False  # a ``return`` or ``raise`` ended the statements being run
        #: Where the protocol methods Python calls for the expression being evaluated are recorded
        #: (the innermost ``await``, ``make().attr``, ``with`` or ``for`` head around it), else None.
        self.site: Span | None = None
        #: Inside a comprehension: each name it binds -> what the name holds once the comprehension has run (its
        #: last item's value where the items are known; None: any item's), which a lambda made there reads.
        self.late: dict[str, Values | None] | None = None
        #: Inside a ``try`` body: the exceptions raised there so far (by a ``raise``, or by what a call ran), which
        #: its ``except E as name:`` binds; None outside one.
        self.raised: set | None = None

    def copy_env(self) -> dict:
        return dict(self.env)

    def mark_fresh(self, value: Value) -> None:
        """``value`` was made here outside any branch or loop: writes into it replace what it held."""
        if self.conditional == 0:
            self.fresh.add(value)

    def closure_unit(self) -> int:
        """The unit a function defined here closes over: a class body is never a closure scope."""
        frame = self
        while frame.kind == "class" and frame.parent is not None:
            frame = frame.parent
        return frame.unit.id


def join_envs(a: dict, b: dict) -> dict:
    """The names after two paths met: each holds what it held on either."""
    joined = dict(a)
    for name, values in b.items():
        before = joined.get(name)
        joined[name] = values if before is None or before is values else bounded(before | values)
    return joined


#: Names outside the analyzed code that are False when the program runs (type checkers take them as True).
_FALSE_WHEN_RUN = frozenset({"typing.TYPE_CHECKING", "typing_extensions.TYPE_CHECKING"})


def truth(values: Values) -> bool | None:
    """Whether a test is surely true or surely false, else None: every value a literal, ``TYPE_CHECKING``, a tuple
    display (true unless empty: a tuple never changes) or a function (true: a function defines no ``__bool__``)
    of one truth."""
    truths = set()
    for value in values:
        kind = type(value)
        if kind is ConstValue:
            truths.add(bool(value.value))  # type: ignore[union-attr]
        elif kind is ExternalValue and value.name in _FALSE_WHEN_RUN:  # type: ignore[union-attr]
            truths.add(False)
        elif kind is ContainerValue and value.kind == "tuple" and value.length >= 0:  # type: ignore[union-attr]
            truths.add(value.length > 0)  # type: ignore[union-attr]
        elif kind is FunctionValue:
            truths.add(True)
        else:
            return None
    return truths.pop() if len(truths) == 1 else None


#: The constants that are one object each: ``x is None`` is decided where ``x`` is known.
_SINGLETONS = frozenset({"NoneType", "bool"})
#: Values that are never a constant.
_DEFINITIONS = (FunctionValue, StepValue, ClassValue)


def _two_objects(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` surely are two objects: a definition and a constant; two functions of different
    ``def`` statements (closures of one ``def`` may be one object seen through two contexts); a step and a function
    that is not its own (a step is never a plain function; one made of that function may be the function itself
    where MAF's import failed). Steps among themselves (a wrapper re-sites the step it makes) and classes (``__new__``
    and metaclasses decide what a class makes) are not told apart."""
    if isinstance(a, _DEFINITIONS) and isinstance(b, ConstValue):
        return True
    if isinstance(a, FunctionValue) and isinstance(b, FunctionValue):
        return (a.path, a.qualname) != (b.path, b.qualname)
    if isinstance(a, StepValue) and isinstance(b, FunctionValue):
        return a.function is not None and (a.function.path, a.function.qualname) != (b.path, b.qualname)
    return False


def identical(a: object, b: object) -> bool | None:
    """``a is b``, where known: between ``None``/``True``/``False``, and false where the two surely are two objects
    (``handler is None`` where handler is a function: never)."""
    if isinstance(a, ConstValue) and isinstance(b, ConstValue) and {a.kind, b.kind} <= _SINGLETONS:
        return a == b
    if _two_objects(a, b) or _two_objects(b, a) or _two_members(a, b):
        return False
    return None


def _two_members(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` are two different members of enums (``Route.QUIET is Route.LOUD`` is false): only
    members that equal only themselves (``KEYED_MEMBER``: distinct literal values, or all ``auto()``), since Python
    makes a member whose value equals an earlier one's (``("a", 1)`` twice, ``1`` and ``1.0``) an alias of it. One
    member seen twice may still be two objects, where its class statement ran twice, so sameness is left undecided."""
    return (isinstance(a, InstanceValue) and isinstance(b, InstanceValue) and a.site != b.site
            and len(a.site) > 1 and len(b.site) > 1 and a.site[1] == KEYED_MEMBER == b.site[1])


def narrowed(test: object, env: dict, evaluate: Callable[[Expr], Values]) -> tuple[dict, dict] | None:
    """What ``if name is X:`` (``is not``) tells each branch about a name of ``env``: the values that may be ``X``
    in one, those that may not in the other (``for h in (plain, fetch): if h is plain: await h()``). None: the test
    tells nothing (only a plain name compared with a name or a constant, which run no code, is narrowed)."""
    if type(test) is not Compare or test.rest or test.op not in ("is", "is not") or type(test.left) is not Ref \
            or "." in test.left.dotted or type(test.right) not in (Ref, Const):
        return None
    name = test.left.dotted
    values = env.get(name)
    if not values or len(values) < 2:
        return None
    right = evaluate(test.right)
    if len(right) != 1:
        return None
    (other,) = right
    may_be, may_not_be = set(), set()
    for value in values:
        same = identical(value, other)
        if same is not False:
            may_be.add(value)
        if same is not True:
            may_not_be.add(value)
    if test.op == "is not":
        may_be, may_not_be = may_not_be, may_be
    return {name: frozenset(may_be)}, {name: frozenset(may_not_be)}


def context_tag(unit: Unit) -> tuple:
    """What tells apart the objects one ``ClassName(...)`` makes in the contexts its function is run in
    (``make_worker(fetch)`` and ``make_worker(plain)`` make two workers, as Python does): the unit's arguments, for a
    function run in a context of its own; nothing for a module's body or a function's widened context."""
    if unit.wide or not isinstance(unit.function, FunctionValue):
        return ()
    tag = unit.tag
    if tag is None:
        tag = unit.tag = (values_tag(unit.params),)
    return tag


def values_tag(groups: "tuple[Values, ...] | list[Values]") -> str:
    """A short name for a sequence of value sets that does not depend on the order the analysis ran in."""
    arguments = repr(tuple(tuple(sorted(stable_key(v) for v in values)) for values in groups))
    return hashlib.blake2b(arguments.encode(), digest_size=8).hexdigest()


def ordered(values: Values) -> list | Values:
    """``values`` in an order that does not depend on hashing or on the order the analysis ran in."""
    return values if len(values) < 2 else sorted(values, key=stable_key)


def is_key(value: Value) -> bool:
    """Whether ``value`` keys a container as itself: a literal, an enum member that equals only itself, a function
    or class defined outside any function (its qualname has no ``<locals>``: one object, equal only to itself) or a
    builtin (``int``, ``len``), or a tuple of those (``keyed``)."""
    kind = type(value)
    return kind is ConstValue or kind is KeyTuple or kind is InstanceValue and value.site[1] == KEYED_MEMBER or \
        (kind is FunctionValue or kind is ClassValue) and "<" not in value.qualname or \
        kind is ExternalValue and value.name in _BUILTIN_KEYS


#: ``builtins.int``, ``builtins.len``...: the builtins themselves, never what calling one made (``builtins.str()``).
_BUILTIN_KEYS = frozenset(f"builtins.{name}" for name in dir(builtins) if not name.startswith("_"))


def container_key(value: ConstValue | InstanceValue | KeyTuple | FunctionValue | ClassValue) -> object:
    """A container key: ints and strs as themselves (True is 1 and 1.0 is 1 for dicts, as in Python); an enum
    member, a function or class (``is_key``) and a tuple of keys as themselves."""
    if type(value) is not ConstValue:
        return value
    if value.kind == "bool":
        return int(value.value)  # type: ignore[arg-type]
    if value.kind == "float" and float(value.value).is_integer():  # type: ignore[arg-type]
        return int(value.value)  # type: ignore[arg-type]
    return value.value


#: What a ``pathlib`` path gives that is a path again: ``Path(d).parent / "x"``, ``Path(d).resolve() / "x"``.
_PATH_STEPS = frozenset({"parent", "resolve()", "absolute()", "expanduser()", "joinpath()", "with_name()",
                         "with_suffix()", "with_stem()", "relative_to()", "home()", "cwd()", "__truediv__()"})


def path_joined(values: Values) -> Values:
    """``path / part`` and ``part / path`` where a side is a ``pathlib`` path (``__truediv__``/``__rtruediv__``):
    a path of that class (``pathlib.Path()``), whose reads and writes are then known; an unknown operand stays
    unknown beside it. Nothing where no side is surely a path (``Path(p).stat().st_size / 1024`` is a number)."""
    found: set = set()
    for value in values:
        if isinstance(value, ExternalValue) and value.name.startswith("pathlib."):
            cls, _, steps = value.name[len("pathlib."):].partition(".")
            made = cls.endswith("()") or steps.startswith(("home()", "cwd()"))
            rest = steps.split(".")[1:] if steps.startswith(("home()", "cwd()")) else steps.split(".") if steps else []
            if made and all(step in _PATH_STEPS for step in rest):
                found.add(ExternalValue(f"pathlib.{cls.split('(')[0]}()"))
    if found and UNKNOWN in values:
        found.add(UNKNOWN)
    return frozenset(found)


def key_values(key: object) -> Values:
    """The value a container's key is (``container_key`` backwards; a tuple of keys: not followed)."""
    if type(key) is KeyTuple:
        return ONLY_UNKNOWN
    return frozenset({key}) if type(key) is InstanceValue else const(key)  # type: ignore[arg-type]


def dict_keys(session: "SessionApi", mapping: ContainerValue) -> Values:
    """What iterating a dict gives: its keys, those written as literals exactly; a key that is not one (a function,
    an instance) is not kept, so a dict that has one also gives unknown."""
    found: set = set()
    for key in session.container_keys(mapping):
        if not isinstance(key, tuple):
            found.update(key_values(key))
        elif key == ANY and session.read_cell(mapping, ANY):
            found.add(UNKNOWN)
    return bounded(found)


def keyed(session: "SessionApi", keys: Values) -> Values:
    """``keys`` as a dict reads them: a tuple whose items are exactly known keys is one ``KeyTuple``."""
    if not any(type(key) is ContainerValue and key.kind == "tuple" for key in keys):
        return keys
    found: set = set()
    for key in keys:
        items = session.exact_items(frozenset({key})) if type(key) is ContainerValue and key.kind == "tuple" else None
        found.add(tuple_key(items) if items is not None else key)
    return frozenset(found)


def tuple_key(items: list[Values]) -> Value:
    """The key a tuple of these items is: a ``KeyTuple`` where each item is one key, else unknown."""
    if all(len(values) == 1 and is_key(next(iter(values))) for values in items):
        return KeyTuple(tuple(container_key(next(iter(values))) for values in items))  # type: ignore[return-value]
    return UNKNOWN


#: Outside classes whose instances are containers: an instance of a subclass keeps its items in a container of
#: that kind (``items_of``), which the base's methods and ``[]`` read and write, as the base's own code does.
CONTAINER_BASES = {"builtins.dict": "dict", "collections.OrderedDict": "dict", "collections.defaultdict": "dict",
                   "collections.UserDict": "dict", "builtins.list": "list", "collections.UserList": "list",
                   "builtins.set": "set"}


def items_of(instance: InstanceValue, kind: str) -> ContainerValue:
    """The items of ``instance`` of a subclass of a container class: one container per instance."""
    return ContainerValue(kind, ("#items", *instance.site), instance.owner)


def outside_base(session: "SessionApi", cls: ClassValue) -> str | None:
    """The name of the first outside class ``cls``'s order reaches (``builtins.dict`` for a registry class)."""
    return next((o.name for o in session.mro(cls) if isinstance(o, ExternalValue)), None)


def as_containers(session: "SessionApi", values: Values) -> Values:
    """``values`` with each instance of a subclass of a container class read as its items (``{**registry}``)."""
    if not any(type(v) is InstanceValue for v in values):
        return values
    found = set()
    for value in values:
        kind = CONTAINER_BASES.get(outside_base(session, value.cls)) if type(value) is InstanceValue else None
        found.add(items_of(value, kind) if kind is not None else value)
    return frozenset(found)


def iterated_pairs(session: "SessionApi", iterables: Values, frame: Frame,
                   span: "Span | None") -> Iterator[tuple[Values, Values, bool]]:
    """The (key, value) pairs the items of ``iterables`` (dicts left out) give, with whether they come in a known
    order: one exactly known sequence of exactly known pairs (``[("a", f), ("b", g)]``) gives its pairs in order;
    any other iterable gives each item's first and second values, unordered (an item not known to be a pair:
    unknown key and value)."""
    iterables = as_containers(session, iterables)
    others = frozenset(v for v in iterables if not (isinstance(v, ContainerValue) and v.kind == "dict"))
    if not others:
        return
    exact = session.exact_items(others) if others == iterables else None  # it may be a dict instead: no order
    rows = [session.exact_items(item) for item in exact] if exact is not None else None
    if rows is not None and all(row is not None and len(row) == 2 for row in rows):
        for row in rows:
            yield row[0], row[1], True  # type: ignore[index]
        return
    for item in session.iterate(others, frame, span):
        if isinstance(item, ContainerValue) and item.kind in ("tuple", "list"):
            yield session.read_cell(item, 0) | session.read_cell(item, ANY), \
                session.read_cell(item, 1) | session.read_cell(item, ANY), False
        else:
            yield ONLY_UNKNOWN, ONLY_UNKNOWN, False


class DictMerge:
    """The keys of a dict being built, in the order Python writes them: a key written surely replaces what it held."""

    def __init__(self, session: "SessionApi"):
        self.session = session
        self.known: dict[object, Values] = {}
        self.anywhere: set = set()

    def put(self, keys: Values, values: Values) -> None:
        """A key written here: one literal key surely replaces what it held; any other may be the key written."""
        keys = keyed(self.session, keys)
        if len(keys) == 1 and is_key(key := next(iter(keys))):
            self.known[container_key(key)] = values
        else:
            self._union(keys, values)

    def add(self, keys: Values, values: Values) -> None:
        """A key that may be written (a pair of an iterable whose order is not known): it replaces nothing."""
        self._union(keyed(self.session, keys), values)

    def _union(self, keys: Values, values: Values) -> None:
        literal = [k for k in keys if is_key(k)]
        for key in literal:
            index = container_key(key)
            self.known[index] = self.known.get(index, EMPTY) | values
        if len(literal) != len(keys):
            self.anywhere.update(values)

    def pairs(self, iterables: Values, frame: Frame, span: "Span | None") -> None:
        """``dict(pairs)``: each item of an iterable that is not a dict is a (key, value) pair, written in order when
        the items are exactly known (a later pair replaces an earlier one's key, as in Python)."""
        for key, value, ordered in iterated_pairs(self.session, iterables, frame, span):
            (self.put if ordered else self.add)(key, value)

    def spread(self, others: Values, sure: frozenset = frozenset()) -> None:
        """``**other``: its keys; those it surely has (``sure``, when it is the only dict it may be) replace."""
        session = self.session
        dicts = [o for o in as_containers(session, others) if isinstance(o, ContainerValue) and o.kind == "dict"]
        for other in dicts:
            for key in session.container_keys(other):
                values = session.read_cell(other, key)
                if key == ANY:
                    self.anywhere.update(values)
                elif not isinstance(key, tuple):
                    replaces = len(dicts) == 1 and key in sure
                    self.known[key] = values if replaces else self.known.get(key, EMPTY) | values

    def write(self, container: ContainerValue, frame: Frame) -> None:
        session = self.session
        session.write_cell(container, ANY, bounded(self.anywhere) if self.anywhere else EMPTY, frame)
        for key, values in self.known.items():
            session.write_cell(container, key, values, frame, exact=True)


_MAF = "agent_framework"
#: MAF's callables that make a step or a workflow of a function: ``workflow`` and the classes it builds on
#: (``FunctionalWorkflowDefinition(fn, name=...)`` is ``workflow(name=...)(fn)``; ``FunctionalWorkflow(fn, ...)``
#: is the runnable workflow that a definition's ``build()`` makes, and what ``workflow`` made up to 1.13).
_FACTORIES = {"step": "step", "StepWrapper": "step", "workflow": "workflow", "FunctionalWorkflowDefinition": "workflow",
              "FunctionalWorkflow": "workflow"}
BUILT_WORKFLOW = "FunctionalWorkflow"


def maf_factory(value: Value) -> tuple[str, bool] | None:
    """("step", False) for MAF's ``step`` or ``StepWrapper`` (any path into the package), ("workflow", built)
    likewise, ``built`` for ``FunctionalWorkflow`` (a runnable workflow, not a definition)."""
    if not isinstance(value, ExternalValue) or "()" in value.name:
        return None
    parts = value.name.split(".")
    if len(parts) < 2 or parts[0] != _MAF or parts[-1] not in _FACTORIES:
        return None
    return _FACTORIES[parts[-1]], parts[-1] == BUILT_WORKFLOW


class EngineApi(Protocol):
    """The project's functions, classes and module states, shared by every session (``interpreter.Engine``)."""

    functions: dict[tuple[str, str], FunctionSummary]
    classes: dict[tuple[str, str], ClassSummary]
    modules_by_path: dict[str, ModuleSummary]
    units: dict[int, Unit]
    sessions: dict[int, "SessionApi"]
    module_units: dict[str, Unit]
    target_python: tuple[int, int]

    def load(self, name: str, origin: ModuleSummary) -> ModuleSummary | None: ...
    def module_unit(self, module: ModuleSummary) -> Unit: ...
    def module_env(self, module: ModuleSummary) -> dict: ...


class HeapApi(Protocol):
    """A session's writes: object cells (``heap.Heap``), read by other sessions' heaps too."""

    cells: dict[tuple, Values]
    fields: dict[Value, frozenset | set]  # shared up to a few keys (``heap._with_key``): never mutate one
    global_writes: dict[tuple[str, str], Values]


class SessionApi(Protocol):
    """The session as its parts see it (``interpreter.Session``): its state, and each part's public operations."""

    id: int
    kind: str  # "import" or "runtime"
    module: ModuleSummary | None
    engine: EngineApi
    heap: HeapApi
    units: dict[tuple, Unit]
    by_function: dict[Value, list[Unit]]
    stack: list[Unit]
    evaluated: set[int]
    observed: set
    stale: bool
    created: int

    # the fixpoint driver (interpreter)
    def grew(self, *keys: tuple) -> None: ...
    def grow(self, target: set, values: Values, key: tuple) -> None: ...
    def raised(self, exceptions: Values, frame: Frame) -> None: ...
    handed_coroutines: set
    def new_unit(self, function: Value, summary: FunctionSummary, module: ModuleSummary, params: tuple[Values, ...],
                 wide: bool = False) -> Unit: ...
    def evaluate(self, unit: Unit) -> None: ...
    def remember(self, unit: Unit, name: str, values: Values) -> None: ...

    # the heap
    def read_cell(self, value: Value, key: object) -> Values: ...
    def read_all_cells(self, value: Value) -> Values: ...
    def write_cell(self, value: Value, key: object, values: Values, frame: Frame | None, exact: bool = False) -> None: ...
    def container_keys(self, container: ContainerValue) -> set: ...
    def exact_items(self, values: Values) -> list[Values] | None: ...
    def read_cell_here(self, base: ContainerValue, key: object, frame: Frame) -> Values: ...
    def write_global(self, module: ModuleSummary, name: str, values: Values) -> None: ...

    # statements
    def block(self, statements: tuple[Stmt, ...], frame: Frame) -> None: ...
    def bind(self, name: str, values: Values, frame: Frame) -> None: ...
    def assign(self, target: TargetForm, values: Values, frame: Frame) -> None: ...
    def store_defaults(self, function: FunctionValue, summary: FunctionSummary, frame: Frame) -> None: ...
    def bind_pattern(self, pattern: PatternForm, values: Values, frame: Frame) -> None: ...
    def match_outcome(self, pattern: PatternForm, values: Values, frame: Frame, shown: Values = EMPTY) -> bool | None: ...

    # records (dataclasses, enums)
    def class_made(self, cls: ClassValue, summary: ClassSummary, body: dict, frame: Frame) -> dict[str, Values]: ...
    def class_decorated(self, cls: ClassValue, summary: ClassSummary, decorators: Values, frame: Frame) -> None: ...

    # expressions
    def expr(self, node: Expr, frame: Frame) -> Values: ...
    def dotted(self, dotted: str, frame: Frame) -> Values: ...
    def lookup(self, name: str, frame: Frame) -> Values: ...

    # attributes and items
    def attribute(self, values: Values, name: str, frame: Frame) -> Values: ...
    def instance_attribute(self, instance: InstanceValue, name: str, frame: Frame) -> Values: ...
    def note_imported(self, module: ModuleSummary) -> None: ...
    def visible_imports(self) -> set[str]: ...
    def special_method(self, instance: InstanceValue, name: str, frame: Frame) -> Values: ...
    def mro(self, cls: Value) -> list: ...
    def module_attribute(self, module: ModuleSummary, name: str, frame: Frame | None,
                         from_inside: bool = False) -> Values: ...
    def global_fallback(self, module: ModuleSummary, name: str) -> Values: ...
    def store_attribute(self, owner: Value, name: str, values: Values, frame: Frame) -> None: ...
    def store_item(self, base: Value, keys: Values, values: Values, frame: Frame, exact: bool = False) -> None: ...
    def item(self, bases: Values, keys: Values, frame: Frame, by_getitem: bool = False) -> Values: ...

    # calls
    def call(self, callees: Values, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values: ...
    def call_one(self, callee: Value, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values: ...
    def unit_for(self, function: FunctionValue, receiver: Value | None, args: list, kwargs: list, frame: Frame,
                 inject_context: bool = False) -> Unit | None: ...
    def iterate(self, values: Values, frame: Frame, span: Span | None = None, is_async: bool = False) -> Values: ...
    def parameters(self, function: FunctionValue) -> tuple | None: ...
    def awaited(self, values: Values, frame: Frame | None = None, span: Span | None = None) -> Values: ...
    def enter(self, values: Values, frame: Frame, is_async: bool, span: Span | None = None) -> Values: ...
    def exit(self, values: Values, frame: Frame, is_async: bool, span: Span | None = None) -> None: ...


def made_at(values: Values, given: Values | list, site: tuple, only_steps: bool = False) -> Values:
    """The steps of ``values`` that code of the project made of a function it was ``given``, made at ``site``.

    A wrapper (``def step(f): return agent_framework.step(f)``) makes the step where it is applied, as
    ``agent_framework.step(f)`` there would: one wrapper makes many steps, each known by where it is
    applied. With ``only_steps`` (a decorator), where it may also return something else (the function
    itself when a guarded import of MAF failed) the step is what it makes, as a name that may be MAF's
    step is: without MAF nothing replays, so only the step's hazards matter.
    """
    made = frozenset(
        replace(value, site=site) for value in values if isinstance(value, StepValue) and value.function in given
    )
    if only_steps:
        return made or values
    return made | frozenset(v for v in values if not (isinstance(v, StepValue) and v.function in given))
