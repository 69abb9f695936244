"""Value flow: the summaries' statements run on abstract values, to a fixpoint.

Every name, attribute, container item, parameter and return holds a set of
``steplint.analysis.values``. A call runs the callee's statements with the
argument values it received (a *unit*: one function in one context), so a
callback passed to a helper, a step held in a dict, an instance made inline
or a factory's return all reach the calls that use them. Where the analysis
cannot follow a construct, the value is ``UNKNOWN``, and nothing is concluded
from it.

Sessions keep results deterministic. A module's import is run once, in a
session of its own, on top of what the modules it imports became; writes it
makes into other modules' objects are dropped (an import cannot change what a
module that does not import it sees). A *runtime* session runs the bodies a
check needs (``roots``) on top of those frozen module states; its writes into
them stay in the session. So a module's findings depend only on its own text
and on the modules it imports, as the incremental cache requires.

Within one run of a scope, names are flow-sensitive (``a = f; a = g; a()``
calls only ``g``), and so are the literal keys and indexes of a container made
in that scope and not yet handed to anyone (``d["a"] = g`` replaces ``f``);
everything else only grows. A session repeats its passes until nothing grows
(at most ``MAX_PASSES``), each function has at most ``MAX_CONTEXTS`` contexts
before they merge, and value sets widen past ``values.MAX_VALUES``: the work
stays about linear in the code.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, Iterable

from steplint.analysis import builtin_models
from steplint.analysis.values import (
    ANY,
    EMPTY,
    ONLY_UNKNOWN,
    UNKNOWN,
    BoundMethod,
    BuiltinMethod,
    ClassValue,
    ConstValue,
    ContainerValue,
    ContextManagerValue,
    CoroutineValue,
    DescriptorValue,
    ExternalValue,
    FunctionValue,
    GeneratorValue,
    InstanceValue,
    ModuleValue,
    PartialValue,
    StepFactoryValue,
    StepValue,
    SuperValue,
    Value,
    Values,
    bounded,
    const,
    stable_key,
)
from steplint.core.summary import (
    AssignStmt,
    Attr,
    AttrTarget,
    AugAssignStmt,
    Await,
    BinOpForm,
    CallExpr,
    Choice,
    ClassStmt,
    Comprehension,
    Const,
    DefStmt,
    Display,
    ExprStmt,
    FromImportStmt,
    FunctionSummary,
    IfStmt,
    ImportStmt,
    ItemTarget,
    LambdaForm,
    LoopStmt,
    MatchStmt,
    ModuleSummary,
    NameTarget,
    Opaque,
    RaiseStmt,
    Ref,
    ReturnStmt,
    SliceForm,
    Span,
    Starred,
    Subscript,
    TryStmt,
    UnionExpr,
    UnpackTarget,
    Walrus,
    WithStmt,
    YieldForm,
)

MAX_PASSES = 6
MAX_CYCLE_ROUNDS = 4  # modules that import each other: rounds of their imports
MAX_CONTEXTS = 8
MAX_DEPTH = 24  # units on the stack: a deeper call runs after the stack unwinds, in the same pass
MAX_UNITS = 20_000  # per session: past it, new calls are not followed (their result is unknown)
MODULE_SCOPE = "<module>"
_BUILTIN_NAMES = frozenset(dir(__builtins__) if isinstance(__builtins__, dict) is False else __builtins__) | {
    "None", "True", "False", "__name__", "__file__"}

_ids = itertools.count(1)
_TYPING = ("typing.", "typing_extensions.", "builtins.", "collections.abc.")  # annotations that are not one class

# Module loading and summaries come from the project index (``steplint.analysis.index``).
ModuleSource = Callable[[str, str], "ModuleSummary | None"]  # (module name, asked from module name) -> summary


@dataclass(eq=False)
class Unit:
    """One function (or module body) run in one context; what it found only grows."""

    id: int
    session: "Session"
    function: Value  # FunctionValue, or ModuleValue for a module's body
    summary: FunctionSummary
    module: ModuleSummary
    params: tuple[Values, ...]
    wide: bool = False  # the merged context of a function past MAX_CONTEXTS
    returns: set = field(default_factory=set)
    yields: set = field(default_factory=set)
    union_env: dict = field(default_factory=dict)  # name -> every value bound to it here (what closures see)
    env: dict = field(default_factory=dict)  # a module's names as they are now (at the end: its final state)
    final_env: dict = field(default_factory=dict)  # a module's names as its last complete run left them
    #: call site span -> callee value -> the units that call ran (empty for calls not followed into code)
    site_calls: dict = field(default_factory=dict)
    edges: set = field(default_factory=set)  # callee values this unit calls (for the call graph)
    #: call site span -> outside callable's name -> coroutines it was given (``asyncio.gather(*calls)``)
    handed: dict = field(default_factory=dict)
    caller: int = 0  # the unit whose call first ran this one


class _Frame:
    """The running scope: a function's locals, a module's globals, or a class body's namespace."""

    __slots__ = ("unit", "env", "kind", "parent", "local_names", "conditional", "fresh", "cells", "cls", "returned")

    def __init__(self, unit: Unit, env: dict, kind: str, parent: "_Frame | None" = None, cls: ClassValue | None = None):
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

    def copy_env(self) -> dict:
        return dict(self.env)


def _join(a: dict, b: dict) -> dict:
    joined = dict(a)
    for name, values in b.items():
        before = joined.get(name)
        joined[name] = values if before is None or before is values else bounded(before | values)
    return joined


class Engine:
    """Module states and sessions over one project index; module states are shared by every session."""

    def __init__(self, module_source: ModuleSource, functions: dict, classes: dict, modules_by_path: dict):
        self.module_source = module_source
        self.functions = functions  # (path, qualname) -> FunctionSummary
        self.classes = classes  # (path, qualname) -> ClassSummary
        self.modules_by_path = modules_by_path  # path -> ModuleSummary
        self.units: dict[int, Unit] = {}
        self.sessions: dict[int, "Session"] = {}
        self.module_units: dict[str, Unit] = {}
        self._importing: set[str] = set()

    def discard(self, session: "Session") -> None:
        """Forget a runtime session and its units: no other session holds values it made."""
        assert session.kind == "runtime"
        self.sessions.pop(session.id, None)
        for units in session.by_function.values():
            for unit in units:
                self.units.pop(unit.id, None)

    # --- module states -----------------------------------------------------------

    def module_unit(self, module: ModuleSummary) -> Unit:
        """The unit of ``module``'s body after its import (run now, in its own session, if it was not yet).

        Modules that import each other are imported together, in rounds: each reads the others' names as
        the last round left them, until no name changes. What a cycle gives does not depend on which of
        its modules was asked for first.
        """
        found = self.module_units.get(module.path)
        if found is not None:
            return found
        members = self._component(module)
        units = []
        for member in members:
            session = Session(self, "import", member)
            unit = session.new_unit(ModuleValue(member.path, member.module), member.functions[0], member, ())
            self.module_units[member.path] = unit
            units.append(unit)
        rounds = MAX_CYCLE_ROUNDS if len(members) > 1 else 1
        for _ in range(rounds):
            changed = False
            for unit in units:
                self._importing.add(unit.module.path)
                try:
                    unit.session.run([unit])
                finally:
                    self._importing.discard(unit.module.path)
                if unit.env != unit.final_env:
                    unit.final_env = dict(unit.env)
                    changed = True
            if not changed:
                break
        return self.module_units[module.path]

    def module_env(self, module: ModuleSummary) -> dict:
        """A module's names: as they are now while its body runs, else as its import (or the last round) left them."""
        unit = self.module_units.get(module.path)
        if unit is None:
            unit = self.module_unit(module)
        return unit.env if module.path in self._importing else unit.final_env

    def _component(self, module: ModuleSummary) -> list[ModuleSummary]:
        """The modules not yet imported that import ``module`` back (directly or not), it included, in name order."""
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[ModuleSummary] = []
        on_stack: set[str] = set()
        found: list[ModuleSummary] = [module]
        counter = itertools.count()
        # Tarjan's algorithm, without recursion: (module, its imports, next import to visit).
        work = [(module, self._static_imports(module), 0)]
        index[module.path] = low[module.path] = next(counter)
        stack.append(module)
        on_stack.add(module.path)
        while work:
            current, imports, position = work[-1]
            if position < len(imports):
                work[-1] = (current, imports, position + 1)
                target = imports[position]
                if target.path not in index:
                    index[target.path] = low[target.path] = next(counter)
                    stack.append(target)
                    on_stack.add(target.path)
                    work.append((target, self._static_imports(target), 0))
                elif target.path in on_stack:
                    low[current.path] = min(low[current.path], index[target.path])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent.path] = min(low[parent.path], low[current.path])
            if low[current.path] == index[current.path]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member.path)
                    component.append(member)
                    if member.path == current.path:
                        break
                if any(m.path == module.path for m in component):
                    found = component
        return sorted(found, key=lambda m: (m.module, m.path))

    def _static_imports(self, module: ModuleSummary) -> list[ModuleSummary]:
        """The analyzed modules ``module``'s import runs, not yet imported themselves."""
        names: list[str] = []
        bodies = [module.functions[0].body, *(c.body for c in module.classes if c.parent is None)]
        while bodies:
            for statement in bodies.pop():
                if isinstance(statement, ImportStmt):
                    parts = statement.module.split(".")
                    names.extend(".".join(parts[:cut]) for cut in range(1, len(parts) + 1))
                elif isinstance(statement, FromImportStmt):
                    names.append(statement.module)
                    if statement.imported != "*":
                        names.append(f"{statement.module}.{statement.imported}")
                else:
                    for block in _blocks(statement):
                        bodies.append(block)
        found: dict[str, ModuleSummary] = {}
        for name in names:
            loaded = self.load(name, module) if self._is_module_name(name, module) else None
            if loaded is not None and loaded.path not in self.module_units and loaded.path != module.path:
                found.setdefault(loaded.path, loaded)
        return list(found.values())

    def _is_module_name(self, name: str, origin: ModuleSummary) -> bool:
        return bool(name) and all(part.isidentifier() for part in name.split("."))

    def load(self, name: str, origin: ModuleSummary) -> ModuleSummary | None:
        found = self.module_source(name, origin.module)
        if found is not None and found.error is None:
            self.modules_by_path.setdefault(found.path, found)
            return found
        return None

    def runtime_session(self, viewpoint: ModuleSummary | None) -> "Session":
        return Session(self, "runtime", viewpoint)


class Session:
    """Units run for one purpose (a module's import, a check, the call graph), with their heap."""

    def __init__(self, engine: Engine, kind: str, module: ModuleSummary | None):
        self.id = next(_ids)
        self.engine = engine
        engine.sessions[self.id] = self
        self.kind = kind  # "import" or "runtime"
        self.module = module
        self.units: dict[tuple, Unit] = {}
        self.by_function: dict[Value, list[Unit]] = {}
        self.heap: dict[tuple, Values] = {}
        self.fields: dict[Value, set] = {}
        self.writers: dict[tuple, int] = {}  # cell -> the unit that last wrote it, or -1 when several did
        self.global_writes: dict[tuple[str, str], Values] = {}  # (module path, name) -> values ``global`` wrote
        self.stack: list[Unit] = []
        self.evaluated: set[int] = set()
        self.pending: list[Unit] = []  # called past MAX_DEPTH: run next from the top of the stack
        self._mro_cache: dict = {}
        # What this pass read that can still grow (cells, returns, closures' names...), and whether one of them
        # grew after it was read: only then can another pass compute anything new (see ``run``).
        self.observed: set = set()
        self.stale = False
        self.created = 0

    # --- running -------------------------------------------------------------------

    def run(self, roots: list[Unit]) -> None:
        """Evaluate ``roots`` (and what they call) until a pass changes nothing.

        Writes only ever add values, so a pass in which every read saw its final value computed the fixpoint:
        a session stops as soon as nothing it read grew after the read (most stop after one pass).
        """
        for _ in range(MAX_PASSES):
            self.stale = False
            self.observed = set()
            self.evaluated = set()
            self._mro_cache = {}  # bases are cells: a pass may add to them
            for unit in roots:
                self.evaluate(unit)
                while self.pending:
                    self.evaluate(self.pending.pop())
            if not self.stale:
                return

    def _grew(self, *keys: tuple) -> None:
        """What ``keys`` name has new values: another pass is due if this one read it before."""
        if any(key in self.observed for key in keys):
            self.stale = True

    def new_unit(self, function: Value, summary: FunctionSummary, module: ModuleSummary, params: tuple[Values, ...],
                 wide: bool = False) -> Unit:
        unit = Unit(next(_ids), self, function, summary, module, params, wide)
        self.engine.units[unit.id] = unit
        self.units[(function, params, wide)] = unit
        self.by_function.setdefault(function, []).append(unit)
        self.created += 1
        return unit

    def root_unit(self, function: FunctionValue, receiver: Value | None = None, unknown: bool = True) -> Unit | None:
        """A function run as a root, with unknown arguments (``unknown``) or with none at all; a method gets an
        instance of its class."""
        summary = self.engine.functions.get((function.path, function.qualname))
        module = self.engine.modules_by_path.get(function.path)
        if summary is None or module is None:
            return None
        params: list[Values] = []
        for index, param in enumerate(summary.params):
            if index == 0 and receiver is not None:
                params.append(frozenset({receiver}))
            elif unknown:
                params.append(ONLY_UNKNOWN | self.annotated(function, module, param))
            else:
                params.append(EMPTY)
        key = (function, tuple(params), False)
        return self.units.get(key) or self.new_unit(function, summary, module, tuple(params))

    def annotated(self, function: FunctionValue, module: ModuleSummary, param) -> Values:  # noqa: ANN001 - a Param
        """An instance of what a parameter is annotated with (``tg: asyncio.TaskGroup``), where that is a class."""
        annotation = param.annotation
        if not isinstance(annotation, Ref):
            return EMPTY
        frame = _Frame(self.engine.module_unit(module), self.engine.module_env(module), "module")
        found: set = set()
        for value in self.dotted(annotation.dotted, frame):
            if isinstance(value, ExternalValue) and "()" not in value.name and not value.name.startswith(_TYPING):
                found.add(ExternalValue(f"{value.name}()"))
            elif isinstance(value, ClassValue):
                found.add(InstanceValue(value, ("<param>", function.path, function.qualname, param.name), self.id))
        return frozenset(found)

    def evaluate(self, unit: Unit) -> None:
        if unit.id in self.evaluated or unit in self.stack:
            return
        if len(self.stack) >= MAX_DEPTH:
            self.pending.append(unit)
            return
        self.evaluated.add(unit.id)
        self.stack.append(unit)
        try:
            if isinstance(unit.function, ModuleValue):
                frame = _Frame(unit, {}, "module")
                frame.local_names = frozenset()
                unit.env = frame.env
                self.block(unit.summary.body, frame)
            else:
                frame = _Frame(unit, {}, "function")
                summary = unit.summary
                frame.local_names = frozenset(summary.bindings) - summary.declared_global - summary.declared_nonlocal
                for param, values in zip(summary.params, unit.params):
                    frame.env[param.name] = values
                    self._remember(unit, param.name, values)
                self.block(summary.body, frame)
        except RecursionError:
            self._grow(unit.returns, ONLY_UNKNOWN, ("returns", unit.id))  # nested past what the analysis walks
        finally:
            self.stack.pop()

    def _remember(self, unit: Unit, name: str, values: Values) -> None:
        before = unit.union_env.get(name)
        if before is None:
            unit.union_env[name] = values
            self._grew(("env", unit.id, name))
        elif not values <= before:
            unit.union_env[name] = bounded(before | values)
            self._grew(("env", unit.id, name))

    # --- statements ----------------------------------------------------------------

    def block(self, statements: Iterable, frame: _Frame) -> None:
        for statement in statements:
            self.statement(statement, frame)
            if frame.returned:
                return  # what follows a return in the same block never runs

    def _branch(self, statements: tuple, frame: _Frame, env: dict) -> dict:
        return self._branch_ending(statements, frame, env)[0]

    def _branch_ending(self, statements: tuple, frame: _Frame, env: dict) -> tuple[dict, bool]:
        """The names after a branch, and whether the branch surely returned (or raised)."""
        saved, saved_returned = frame.env, frame.returned
        frame.env = env
        frame.conditional += 1
        frame.returned = False
        try:
            self.block(statements, frame)
            return frame.env, frame.returned
        finally:
            frame.conditional -= 1
            frame.env = saved
            frame.returned = saved_returned

    def _set_env(self, frame: _Frame, env: dict) -> None:
        if frame.kind == "module":
            frame.env.clear()
            frame.env.update(env)  # the module unit's env is this very dict: keep it
        else:
            frame.env = env

    def statement(self, node, frame: _Frame) -> None:  # noqa: ANN001 - a core.summary statement
        kind = type(node)
        if kind is AssignStmt:
            values = self.expr(node.value, frame)
            for target in node.targets:
                self.assign(target, values, frame)
        elif kind is ExprStmt:
            self.expr(node.value, frame)
        elif kind is ReturnStmt:
            if node.value is not None:
                values = self.expr(node.value, frame)
                self._grow(frame.unit.returns, values, ("returns", frame.unit.id))
            frame.returned = True
        elif kind is DefStmt:
            self.define_function(node, frame)
        elif kind is ClassStmt:
            self.define_class(node, frame)
        elif kind is IfStmt:
            truth = _truth(self.expr(node.test, frame))
            if truth is True:
                self.block(node.body, frame)
            elif truth is False:
                self.block(node.orelse, frame)
            else:
                taken, taken_returned = self._branch_ending(node.body, frame, frame.copy_env())
                other, other_returned = self._branch_ending(node.orelse, frame, frame.copy_env())
                if taken_returned and other_returned:
                    frame.returned = True
                else:  # a branch that returned adds nothing to what the names are after the ``if``
                    self._set_env(frame, other if taken_returned else taken if other_returned else _join(taken, other))
        elif kind is LoopStmt:
            self.loop(node, frame)
        elif kind is TryStmt:
            before = frame.copy_env()
            after_body = self._branch(node.body, frame, frame.copy_env())
            start = _join(before, after_body)
            ends = [self._branch(node.orelse, frame, after_body)]
            for kind_form, name, body in node.handlers:
                if kind_form is not None:
                    self.expr(kind_form, frame)
                env = dict(start)
                if name:
                    env[name] = ONLY_UNKNOWN
                ends.append(self._branch(body, frame, env))
            joined = ends[0]
            for env in ends[1:]:
                joined = _join(joined, env)
            self._set_env(frame, joined)
            self.block(node.final, frame)
        elif kind is WithStmt:
            for context, target in node.items:
                values = self.expr(context, frame)
                entered = self.enter(values, frame, node.is_async)
                if target is not None:
                    self.assign(target, entered, frame)
            self.block(node.body, frame)
        elif kind is ImportStmt:
            self.import_module(node, frame)
        elif kind is FromImportStmt:
            self.import_from(node, frame)
        elif kind is AugAssignStmt:
            self.augmented(node, frame)
        elif kind is RaiseStmt:
            if node.value is not None:
                values = self.expr(node.value, frame)
                classes = frozenset(v for v in values if isinstance(v, ClassValue))
                if classes:  # ``raise E`` makes an E
                    self.call(classes, [], [], None, frame)
            frame.returned = True
        elif kind is MatchStmt:
            self.expr(node.subject, frame)
            ends = []
            for captured, guard, body in node.cases:
                env = frame.copy_env()
                for name in captured:
                    env[name] = ONLY_UNKNOWN
                saved = frame.env
                frame.env = env
                if guard is not None:
                    self.expr(guard, frame)
                frame.env = saved
                ends.append(self._branch(body, frame, env))
            joined = frame.copy_env()
            for env in ends:
                joined = _join(joined, env)
            self._set_env(frame, joined)

    def loop(self, node: LoopStmt, frame: _Frame) -> None:
        elements = EMPTY
        if node.iter is not None:
            elements = self.iterate(self.expr(node.iter, frame), frame)
        elif node.test is not None:
            self.expr(node.test, frame)
        before = frame.copy_env()
        env = frame.copy_env()
        for _ in range(3):  # enough for values to travel around the loop in the code analyzed here
            if node.target is not None:
                saved = frame.env
                frame.env = env
                frame.conditional += 1
                self.assign(node.target, elements, frame)
                frame.conditional -= 1
                env = frame.env
                frame.env = saved
            after = self._branch(node.body, frame, dict(env))
            if node.test is not None:
                saved = frame.env
                frame.env = after
                self.expr(node.test, frame)
                frame.env = saved
            joined = _join(env, after)
            if joined == env:
                break
            env = joined
        self._set_env(frame, _join(before, env))
        self._set_env(frame, self._branch(node.orelse, frame, frame.copy_env()))

    def define_function(self, node: DefStmt, frame: _Frame) -> None:
        module = frame.unit.module
        summary = self.engine.functions.get((module.path, node.qualname))
        if summary is None:
            return
        function = FunctionValue(module.path, node.qualname, self._closure_frame(frame))
        self._defaults(function, summary, frame)
        values: Values = frozenset({function})
        for decorator in reversed(summary.decorators):
            decorator_values = self.expr(decorator, frame)
            values = self.decorate(decorator_values, values, summary, frame)
        self.bind(node.name, values, frame)

    def _closure_frame(self, frame: _Frame) -> int:
        """The unit a function defined in ``frame`` closes over: a class body is never a closure scope."""
        while frame.kind == "class" and frame.parent is not None:
            frame = frame.parent
        return frame.unit.id

    def _defaults(self, function: FunctionValue, summary: FunctionSummary, frame: _Frame) -> None:
        for param in summary.params:
            if param.default is not None:
                self.write_cell(function, ("#default", param.name), self.expr(param.default, frame), frame)

    def decorate(self, decorators: Values, target: Values, summary: FunctionSummary, frame: _Frame) -> Values:
        """What ``@decorator`` makes of ``target``; MAF's ``step``/``workflow`` make a step at the ``def``."""
        made: set = set()
        for decorator in decorators:
            maf = maf_factory(decorator)
            if maf is not None:
                kind, configured = maf
                site = (frame.unit.module.path, summary.span.line, summary.span.col)
                for value in target:
                    made.add(StepValue(kind, site, value if isinstance(value, FunctionValue) else None))
                continue
            if isinstance(decorator, StepFactoryValue):
                site = (frame.unit.module.path, summary.span.line, summary.span.col)
                for value in target:
                    made.add(StepValue(decorator.kind, site, value if isinstance(value, FunctionValue) else None))
                continue
            if isinstance(decorator, ExternalValue) and decorator.name.startswith("builtins."):
                # ``@staticmethod`` and friends wrap the function; applying them is not a call worth an edge.
                made.update(builtin_models.call(self, decorator.name, [target], [], None, frame) or ONLY_UNKNOWN)
                continue
            made.update(self.call(frozenset({decorator}), [target], [], None, frame))
        return bounded(made) if made else ONLY_UNKNOWN

    def define_class(self, node: ClassStmt, frame: _Frame) -> None:
        module = frame.unit.module
        summary = self.engine.classes.get((module.path, node.qualname))
        if summary is None:
            return
        cls = ClassValue(module.path, node.qualname, self._closure_frame(frame))
        bases_at = [self.expr(base, frame) for base in summary.bases]
        for _, keyword in summary.keywords:
            self.expr(keyword, frame)
        for position, base in enumerate(summary.bases):
            self.write_cell(cls, ("#base", position), bases_at[position], frame, exact=True)
        body = _Frame(frame.unit, {}, "class", parent=frame, cls=cls)
        body.conditional = frame.conditional
        self.block(summary.body, body)
        for name, values in body.env.items():
            self.write_cell(cls, name, values, frame)
        values: Values = frozenset({cls})
        for decorator in reversed(summary.decorators):
            decorated = self.call(self.expr(decorator, frame), [values], [], None, frame)
            # A class decorator (dataclass, attrs) returns the class it was given, or something unknown.
            values = values | frozenset(v for v in decorated if v is not UNKNOWN) if decorated - {UNKNOWN} else values
        self.bind(node.name, values, frame)

    def import_module(self, node: ImportStmt, frame: _Frame) -> None:
        origin = frame.unit.module
        parts = node.module.split(".")
        loaded = None
        for cut in range(1, len(parts) + 1):  # ``import a.b.c`` imports a, a.b and a.b.c
            loaded = self.engine.load(".".join(parts[:cut]), origin)
            if loaded is not None:
                self.engine.module_unit(loaded)
        if node.binds_head:
            head = self.engine.load(parts[0], origin)
            value: Value = ModuleValue(head.path, head.module) if head is not None else ExternalValue(parts[0])
        else:
            value = ModuleValue(loaded.path, loaded.module) if loaded is not None else ExternalValue(node.module)
        self.bind(node.name, frozenset({value}), frame)

    def import_from(self, node: FromImportStmt, frame: _Frame) -> None:
        origin = frame.unit.module
        loaded = self.engine.load(node.module, origin)
        if node.imported == "*":
            if loaded is None:
                return  # names from an outside module stay unresolved: ``lookup`` falls back to them
            for name, values in self.star_names(loaded).items():
                self.bind(name, values, frame)
            return
        if loaded is None:
            self.bind(node.name, frozenset({ExternalValue(f"{node.module}.{node.imported}")}), frame)
            return
        values = self.module_attribute(loaded, node.imported, frame)
        self.bind(node.name, values, frame)

    def star_names(self, module: ModuleSummary) -> dict[str, Values]:
        """What ``from module import *`` binds: the names in its ``__all__``, else its public names."""
        state = self.module_state(module)
        names: Iterable[str] | None = None
        exported = state.get("__all__")
        if exported:
            listed: set[str] = set()
            for container in exported:
                for item in self.read_all_cells(container):
                    if isinstance(item, ConstValue) and isinstance(item.value, str):
                        listed.add(item.value)
            names = listed
        if names is None:
            names = [name for name in state if not name.startswith("_")]
        found = {}
        for name in names:
            values = self.module_attribute(module, name, None)
            if values:
                found[name] = values
        return found

    def augmented(self, node: AugAssignStmt, frame: _Frame) -> None:
        current = self.target_value(node.target, frame)
        added = self.expr(node.value, frame)
        result: set = set()
        for value in current:
            if isinstance(value, ContainerValue) and node.op in ("+", "|"):
                for item in self.iterate(added, frame):  # ``items += [f]`` extends the list in place
                    self.write_cell(value, ANY, frozenset({item}), frame)
                result.add(value)
            elif isinstance(value, ContainerValue) and value.kind == "dict":
                result.add(value)
            else:
                result.add(UNKNOWN)
        self.assign(node.target, frozenset(result) or ONLY_UNKNOWN, frame)

    # --- binding --------------------------------------------------------------------

    def bind(self, name: str, values: Values, frame: _Frame) -> None:
        if frame.kind == "function":
            summary = frame.unit.summary
            if name in summary.declared_global:
                self._write_global(frame.unit.module, name, values)
                return
            if name in summary.declared_nonlocal:
                return  # the enclosing function's cell: its other values already reach readers
        frame.env[name] = values
        if frame.kind == "function":
            self._remember(frame.unit, name, values)
        elif frame.kind == "module":
            self._remember(frame.unit, name, values)

    def _write_global(self, module: ModuleSummary, name: str, values: Values) -> None:
        key = (module.path, name)
        before = self.global_writes.get(key, EMPTY)
        if not values <= before:
            self.global_writes[key] = bounded(before | values)
            self._grew(("global", key))

    def assign(self, target, values: Values, frame: _Frame) -> None:  # noqa: ANN001 - a TargetForm
        kind = type(target)
        if kind is NameTarget:
            self.bind(target.name, values, frame)
        elif kind is AttrTarget:
            for owner in self.expr(target.base, frame):
                self.store_attribute(owner, target.attr, values, frame)
        elif kind is ItemTarget:
            bases = self.expr(target.base, frame)
            keys = self.expr(target.index, frame)
            for base in bases:
                self.store_item(base, keys, values, frame, exact=len(bases) == 1)
        elif kind is UnpackTarget:
            self.unpack(target, values, frame)
        else:
            for part in target.parts:
                self.expr(part, frame)

    def unpack(self, target: UnpackTarget, values: Values, frame: _Frame) -> None:
        count = len(target.items)
        for index, item in enumerate(target.items):
            picked: set = set()
            for value in values:
                if isinstance(value, ContainerValue) and value.kind in ("list", "tuple") and value.length >= 0:
                    if target.star < 0 or index < target.star:
                        picked.update(self.read_cell(value, index))
                    elif index > target.star:
                        picked.update(self.read_cell(value, value.length - (count - index)))
                    else:  # the starred name: a new list of the middle items
                        middle = ContainerValue("list", (*value.site, "star", index), self.id, value.length - count + 1)
                        for position in range(max(value.length - count + 1, 0)):
                            self.write_cell(middle, position, self.read_cell(value, index + position), frame, exact=True)
                        picked.add(middle)
                elif isinstance(value, ContainerValue):
                    picked.update(self.read_all_cells(value))
                elif value is UNKNOWN:
                    picked.add(UNKNOWN)
                else:
                    picked.update(self.iterate(frozenset({value}), frame))
            self.assign(item, frozenset(picked) if picked else ONLY_UNKNOWN, frame)

    def target_value(self, target, frame: _Frame) -> Values:  # noqa: ANN001
        kind = type(target)
        if kind is NameTarget:
            return self.lookup(target.name, frame)
        if kind is AttrTarget:
            return self.attribute(self.expr(target.base, frame), target.attr, frame)
        if kind is ItemTarget:
            return self.item(self.expr(target.base, frame), self.expr(target.index, frame), frame)
        return ONLY_UNKNOWN

    # --- the heap --------------------------------------------------------------------

    def read_cell(self, value: Value, key: object) -> Values:
        """Every value the cell held: in its owner's heap, in this session's layer, and any-key writes of a container."""
        owner = self._owner_of(value)
        heaps = (owner.heap, self.heap) if owner is not None and owner is not self else (self.heap,)
        self.observed.add((value, key))
        self.observed.add((value, ANY))
        found = EMPTY
        for heap in heaps:
            found = found | heap.get((value, key), EMPTY)
            if key != ANY and not isinstance(key, tuple):
                found = found | heap.get((value, ANY), EMPTY)
        return found

    def read_all_cells(self, value: Value) -> Values:
        """Every item of a container (its internal cells aside)."""
        owner = self._owner_of(value)
        sessions = (owner, self) if owner is not None and owner is not self else (self,)
        self.observed.add(("all", value))
        found: set = set()
        for session in sessions:
            for key in session.fields.get(value, ()):
                if key == ANY or not isinstance(key, tuple):
                    found.update(session.heap.get((value, key), EMPTY))
        return frozenset(found)

    def _owner_of(self, value: Value) -> "Session | None":
        owner = getattr(value, "owner", None)
        if owner is not None:
            return self if owner == self.id else self.engine.sessions.get(owner)
        frame = getattr(value, "frame", None)
        if frame is not None:
            unit = self.engine.units.get(frame)
            return unit.session if unit is not None else None
        return None

    def write_cell(self, value: Value, key: object, values: Values, frame: _Frame | None, exact: bool = False) -> None:
        owner = self._owner_of(value) or self
        if owner is not self and self.kind == "import":
            return  # an import does not change what other modules made (see the module docstring)
        cell = (value, key)
        before = self.heap.get(cell)  # a foreign object's cell here is this session's layer over it
        grew = False
        if before is None:
            self.heap[cell] = values
            self.fields.setdefault(value, set()).add(key)
            grew = bool(values)
        elif not values <= before:
            self.heap[cell] = bounded(before | values)
            grew = True
        writer = frame.unit.id if frame is not None else -1
        if self.writers.get(cell, writer) != writer:
            writer = -1
            grew = grew or self.writers[cell] != -1  # a read of one writer's own items no longer holds
        self.writers[cell] = writer
        if grew:
            self._grew(cell, ("all", value))
        if frame is not None and frame.kind != "class":
            frame.cells[cell] = values if exact or cell not in frame.cells else bounded(frame.cells[cell] | values)

    # --- expressions -----------------------------------------------------------------

    def expr(self, node, frame: _Frame) -> Values:  # noqa: ANN001 - a core.summary expression form
        kind = type(node)
        if kind is Ref:
            return self.dotted(node.dotted, frame)
        if kind is CallExpr:
            return self.call_expr(node, frame)
        if kind is Const:
            return const(node.value)
        if kind is Attr:
            return self.attribute(self.expr(node.base, frame), node.attr, frame)
        if kind is Display:
            return self.display(node, frame)
        if kind is Subscript:
            base = self.expr(node.base, frame)
            if len(node.items) == 1 and type(node.items[0]) is SliceForm:
                return self.slice(base, node.items[0], frame)
            if len(node.items) == 1:
                return self.item(base, self.expr(node.items[0], frame), frame)
            for item in node.items:
                self.expr(item, frame)
            return frozenset(v for v in base if isinstance(v, ClassValue)) or ONLY_UNKNOWN
        if kind is Await:
            return self.awaited(self.expr(node.value, frame))
        if kind is Choice:
            truth = None
            for effect in node.effects:
                truth = _truth(self.expr(effect, frame))
            if truth is not None and len(node.items) == 2 and node.effects:  # ``a if test else b``, test known
                return self.expr(node.items[0] if truth else node.items[1], frame)
            found: set = set()
            for item in node.items:
                found.update(self.expr(item, frame))
            return bounded(found)
        if kind is LambdaForm:
            module = frame.unit.module
            function = FunctionValue(module.path, node.qualname, self._closure_frame(frame))
            summary = self.engine.functions.get((module.path, node.qualname))
            if summary is not None:
                self._defaults(function, summary, frame)
            return frozenset({function})
        if kind is Comprehension:
            return self.comprehension(node, frame)
        if kind is Starred:
            return self.expr(node.value, frame)
        if kind is Walrus:
            values = self.expr(node.value, frame)
            self.bind(node.name, values, frame)
            return values
        if kind is YieldForm:
            if node.value is not None:
                values = self.expr(node.value, frame)
                self._grow(frame.unit.yields, self.iterate(values, frame) if node.delegate else values,
                           ("yields", frame.unit.id))
            return ONLY_UNKNOWN
        if kind is BinOpForm or kind is UnionExpr:
            parts = (node.left, node.right) if kind is BinOpForm else node.items
            found = set()
            for part in parts:
                found.update(self.expr(part, frame))
            containers = frozenset(v for v in found if isinstance(v, ContainerValue))
            if containers and (kind is UnionExpr or node.op == "+"):
                return containers  # a concatenation: its items are the operands' items
            return ONLY_UNKNOWN
        if kind is Opaque:
            for part in node.parts:
                self.expr(part, frame)
            return ONLY_UNKNOWN
        if kind is SliceForm:
            for part in (node.lower, node.upper, node.step):
                if part is not None:
                    self.expr(part, frame)
            return ONLY_UNKNOWN
        return ONLY_UNKNOWN

    def dotted(self, dotted: str, frame: _Frame) -> Values:
        head, _, rest = dotted.partition(".")
        values = self.lookup(head, frame)
        while rest:
            attribute, _, rest = rest.partition(".")
            values = self.attribute(values, attribute, frame)
        return values

    def lookup(self, name: str, frame: _Frame) -> Values:
        current: _Frame | None = frame
        while current is not None and current.kind == "class":
            found = current.env.get(name)
            if found is not None:
                return found
            current = current.parent
        if current is None:
            return ONLY_UNKNOWN
        if current.kind == "function":
            if name in current.local_names:
                return current.env.get(name, EMPTY)
            return self.free(current.unit.function.frame if isinstance(current.unit.function, FunctionValue) else 0,
                             name, current.unit.module)
        found = current.env.get(name)
        if found is not None:
            return found
        return self.global_fallback(current.unit.module, name)

    def free(self, frame_id: int, name: str, module: ModuleSummary) -> Values:
        """A free name of a function: its enclosing functions' values, then its module's, then a builtin."""
        while frame_id:
            unit = self.engine.units.get(frame_id)
            if unit is None:
                break
            if isinstance(unit.function, ModuleValue):
                return self.module_attribute(unit.module, name, None, from_inside=True)
            summary = unit.summary
            if name in summary.bindings and name not in summary.declared_global and name not in summary.declared_nonlocal:
                self.observed.add(("env", unit.id, name))
                return unit.union_env.get(name, EMPTY)
            frame_id = unit.function.frame if isinstance(unit.function, FunctionValue) else 0
        return self.module_attribute(module, name, None, from_inside=True)

    def global_fallback(self, module: ModuleSummary, name: str) -> Values:
        for star in module.star_imports:
            if self.engine.load(star, module) is None:
                return frozenset({ExternalValue(f"{star}.{name}")})
        if name in _BUILTIN_NAMES:
            return frozenset({ExternalValue(f"builtins.{name}")})
        return ONLY_UNKNOWN

    def module_state(self, module: ModuleSummary) -> dict:
        return self.engine.module_env(module)

    def module_attribute(self, module: ModuleSummary, name: str, frame: _Frame | None, from_inside: bool = False) -> Values:
        state = self.module_state(module)
        found = state.get(name)
        written = self.global_writes.get((module.path, name))
        self.observed.add(("global", (module.path, name)))
        importer = self.engine.module_units.get(module.path)
        if importer is not None and importer.session is not self:
            during_import = importer.session.global_writes.get((module.path, name))
            if during_import:
                written = during_import | written if written else during_import
        if found is not None:
            return found | written if written else found
        if written:
            return written
        if module.is_package:
            submodule = self.engine.load(f"{module.module}.{name}", module)
            if submodule is not None:
                return frozenset({ModuleValue(submodule.path, submodule.module)})
        return self.global_fallback(module, name) if from_inside else (
            frozenset({ExternalValue(f"{star}.{name}") for star in module.star_imports
                       if self.engine.load(star, module) is None}) or ONLY_UNKNOWN)

    def display(self, node: Display, frame: _Frame) -> Values:
        if not node.site:
            for item in node.items:
                self.expr(item, frame)
            return ONLY_UNKNOWN
        site = (frame.unit.module.path, node.site)
        if node.kind == "dict":
            container = ContainerValue("dict", site, self.id)
            self._fresh(container, frame)
            self.write_cell(container, ANY, EMPTY, frame)
            for key, value in zip(node.keys, node.items):
                values = self.expr(value, frame)
                if key is None:  # ``**other``
                    for other in values:
                        if isinstance(other, ContainerValue):
                            self.write_cell(container, ANY, self.read_all_cells(other), frame)
                    continue
                self.store_item(container, self.expr(key, frame), values, frame, exact=True)
            return frozenset({container})
        starred = any(type(item) is Starred for item in node.items)
        container = ContainerValue(node.kind, site, self.id, -1 if starred or node.kind == "set" else len(node.items))
        self._fresh(container, frame)
        self.write_cell(container, ANY, EMPTY, frame)
        position = 0
        for item in node.items:
            values = self.expr(item, frame)
            if type(item) is Starred:
                self.write_cell(container, ANY, self.iterate(values, frame), frame)
                position = -1
            elif node.kind == "set" or position < 0:
                self.write_cell(container, ANY, values, frame)
            else:
                self.write_cell(container, position, values, frame, exact=True)
                position += 1
        return frozenset({container})

    def _fresh(self, value: Value, frame: _Frame) -> None:
        if frame.conditional == 0:
            frame.fresh.add(value)

    def comprehension(self, node: Comprehension, frame: _Frame) -> Values:
        site = (frame.unit.module.path, node.site)
        kind = node.kind
        container = ContainerValue("list" if kind == "generator" else kind, site, self.id)
        self.write_cell(container, ANY, EMPTY, frame)
        inner = _Frame(frame.unit, frame.copy_env(), frame.kind, frame.parent, frame.cls)
        inner.local_names = frame.local_names | _comprehension_names(node)
        inner.conditional = frame.conditional + 1
        inner.cells = frame.cells
        self._generators(node, 0, inner, container)
        # Walrus targets bind in the enclosing function.
        for name, values in inner.env.items():
            if name in frame.local_names or frame.kind == "module":
                if name not in _comprehension_names(node) and frame.env.get(name) is not values:
                    frame.env[name] = values
        return frozenset({container})

    def _generators(self, node: Comprehension, index: int, frame: _Frame, container: ContainerValue) -> None:
        if index == len(node.generators):
            value = self.expr(node.elt, frame)
            if node.kind == "dict" and node.key is not None:
                self.store_item(container, self.expr(node.key, frame), value, frame)
            else:
                self.write_cell(container, ANY, value, frame)
            return
        generator = node.generators[index]
        elements = self.iterate(self.expr(generator.iter, frame), frame)
        self.assign(generator.target, elements if elements else EMPTY, frame)
        for condition in generator.conditions:
            self.expr(condition, frame)
        self._generators(node, index + 1, frame, container)

    def slice(self, bases: Values, form: SliceForm, frame: _Frame) -> Values:
        bounds = []
        for part in (form.lower, form.upper, form.step):
            values = self.expr(part, frame) if part is not None else frozenset({ConstValue("NoneType", None)})
            (only,) = values if len(values) == 1 else (None,)
            bounds.append(only.value if isinstance(only, ConstValue) else UNKNOWN)
        found: set = set()
        for base in bases:
            if not isinstance(base, ContainerValue) or base.kind not in ("list", "tuple"):
                found.add(UNKNOWN)
                continue
            lower, upper, step = bounds
            if base.length >= 0 and all(isinstance(b, int) or b is None for b in bounds):
                positions = range(base.length)[slice(lower, upper, step)]
                made = ContainerValue(base.kind, (*base.site, "slice", lower, upper, step), self.id, len(positions))
                for index, position in enumerate(positions):
                    self.write_cell(made, index, self.read_cell(base, position), frame, exact=True)
            else:
                made = ContainerValue(base.kind, (*base.site, "slice"), self.id)
                self.write_cell(made, ANY, self.read_all_cells(base), frame)
            found.add(made)
        return frozenset(found)

    # --- attributes and items --------------------------------------------------------------

    def attribute(self, values: Values, name: str, frame: _Frame) -> Values:
        found: set = set()
        for value in ordered(values):
            found.update(self.attribute_of(value, name, frame))
        return bounded(found) if found else EMPTY

    def attribute_of(self, value: Value, name: str, frame: _Frame) -> Values:
        kind = type(value)
        if kind is ModuleValue:
            module = self.engine.modules_by_path.get(value.path)
            return self.module_attribute(module, name, frame) if module is not None else ONLY_UNKNOWN
        if kind is ExternalValue:
            return frozenset({ExternalValue(f"{value.name}.{name}")})
        if kind is InstanceValue:
            return self.instance_attribute(value, name, frame)
        if kind is ClassValue:
            return self.class_attribute(value, name, None, frame)
        if kind is StepValue:
            if name == "__wrapped__" and value.function is not None:
                return frozenset({value.function})
            return ONLY_UNKNOWN
        if kind is FunctionValue:
            stored = self.read_cell(value, name)
            return stored if stored else ONLY_UNKNOWN
        if kind is SuperValue:
            return self.super_attribute(value, name, frame)
        if kind is ContainerValue or kind is ConstValue:
            return frozenset({BuiltinMethod(value, name)})
        if kind is DescriptorValue:
            if name in ("setter", "getter", "deleter"):
                return frozenset({BuiltinMethod(value, name)})
            if name == "__func__":
                return frozenset({value.function})
            return ONLY_UNKNOWN
        if kind is BoundMethod:
            if name == "__func__":
                return frozenset({value.function})
            if name == "__self__":
                return frozenset({value.receiver})
            return ONLY_UNKNOWN
        return ONLY_UNKNOWN

    def instance_attribute(self, instance: InstanceValue, name: str, frame: _Frame) -> Values:
        own = self.read_cell(instance, name)
        from_class = self.class_attribute(instance.cls, name, instance, frame)
        if own:
            return own | (from_class - ONLY_UNKNOWN)
        return from_class

    def class_attribute(self, cls: ClassValue, name: str, receiver: Value | None, frame: _Frame,
                        after: bool = False) -> Values:
        """``name`` looked up through the MRO of ``cls`` (``after``: the classes after it, for ``super()``)."""
        order = self.mro(cls)
        if after:
            order = order[1:]
        for owner in order:
            if isinstance(owner, ExternalValue):
                return frozenset({ExternalValue(f"{owner.name}.{name}")})
            stored = self.read_cell(owner, name)
            if not stored:
                continue
            found: set = set()
            for value in stored:
                found.update(self.bind_to(value, receiver, owner, frame))
            return bounded(found)
        return ONLY_UNKNOWN

    def super_attribute(self, value: SuperValue, name: str, frame: _Frame) -> Values:
        """``super().name``: looked up in the receiver's class order, after the class the method is defined in."""
        receiver = value.receiver
        cls = receiver.cls if isinstance(receiver, InstanceValue) else receiver if isinstance(receiver, ClassValue) else value.cls
        order = self.mro(cls)
        position = next((i for i, c in enumerate(order) if isinstance(c, ClassValue) and c.path == value.cls.path
                         and c.qualname == value.cls.qualname), None)
        if position is None:
            order, position = self.mro(value.cls), 0
        for owner in order[position + 1:]:
            if isinstance(owner, ExternalValue):
                return frozenset({ExternalValue(f"{owner.name}.{name}")})
            stored = self.read_cell(owner, name)
            if stored:
                found: set = set()
                for item in stored:
                    found.update(self.bind_to(item, receiver, owner, frame))
                return bounded(found)
        return ONLY_UNKNOWN

    def bind_to(self, value: Value, receiver: Value | None, owner: ClassValue, frame: _Frame) -> Values:
        """A class attribute as read through an instance (a bound method) or through the class."""
        if isinstance(value, DescriptorValue):
            if value.kind == "staticmethod":
                return frozenset({value.function})
            if value.kind == "classmethod":
                cls = receiver.cls if isinstance(receiver, InstanceValue) else receiver if isinstance(receiver, ClassValue) else owner
                return frozenset({BoundMethod(value.function, cls)})
            if value.kind == "property" and isinstance(receiver, InstanceValue):
                return self.call(frozenset({BoundMethod(value.function, receiver)}), [], [], None, frame)
            return ONLY_UNKNOWN
        if isinstance(value, FunctionValue) and isinstance(receiver, InstanceValue):
            return frozenset({BoundMethod(value, receiver)})
        return frozenset({value})

    def bases(self, cls: ClassValue) -> list:
        """The values of ``cls``'s bases, in the order written (a base that may be several values gives each)."""
        summary = self.engine.classes.get((cls.path, cls.qualname))
        found: list = []
        for position in range(len(summary.bases) if summary is not None else 0):
            values = self.read_cell(cls, ("#base", position))
            found.extend(ordered(frozenset(v for v in values if isinstance(v, (ClassValue, ExternalValue)))))
        return found

    def mro(self, cls: ClassValue, depth: int = 0) -> list:
        """C3 linearization over the analyzed classes; an outside base ends its branch (kept for a pass)."""
        found = self._mro_cache.get(cls)
        if found is None:
            found = self._mro_cache[cls] = self._linearize(cls, depth)
        return found

    def _linearize(self, cls: ClassValue, depth: int) -> list:
        if depth > 32:
            return [cls]
        bases = self.bases(cls)
        sequences = [self.mro(b, depth + 1) if isinstance(b, ClassValue) else [b] for b in bases] + [list(bases)]
        order = [cls]
        while True:
            sequences = [s for s in sequences if s]
            if not sequences:
                return order
            for sequence in sequences:
                head = sequence[0]
                if not any(head in other[1:] for other in sequences):
                    break
            else:  # no consistent order (Python would refuse the class): the rest depth first
                for sequence in sequences:
                    order.extend(v for v in sequence if v not in order)
                return order
            order.append(head)
            sequences = [s[1:] if s[0] == head else s for s in sequences]

    def store_attribute(self, owner: Value, name: str, values: Values, frame: _Frame) -> None:
        kind = type(owner)
        if kind is InstanceValue or kind is ClassValue or kind is FunctionValue:
            exact = owner in frame.fresh and frame.conditional == 0
            self.write_cell(owner, name, values, frame, exact=exact)
        elif kind is ModuleValue:
            if self.kind == "import" and self.module is not None and owner.path == self.module.path:
                self._write_global(self.module, name, values)
            elif self.kind == "runtime":
                module = self.engine.modules_by_path.get(owner.path)
                if module is not None:
                    self._write_global(module, name, values)

    def store_item(self, base: Value, keys: Values, values: Values, frame: _Frame, exact: bool = False) -> None:
        if isinstance(base, ContainerValue):
            exact = exact and base in frame.fresh and frame.conditional == 0 and len(keys) == 1
            for key in keys:
                if isinstance(key, ConstValue) and base.kind in ("dict", "list", "tuple"):
                    self.write_cell(base, _key(key), values, frame, exact=exact)
                else:
                    self.write_cell(base, ANY, values, frame)
        elif isinstance(base, InstanceValue):
            setter = self.instance_attribute(base, "__setitem__", frame)
            self.call(setter, [keys, values], [], None, frame)

    def item(self, bases: Values, keys: Values, frame: _Frame) -> Values:
        found: set = set()
        if not keys:
            return EMPTY  # an index that never has a value (a parameter no call gave)
        for base in bases:
            if isinstance(base, ContainerValue):
                known = [k for k in keys if isinstance(k, ConstValue)]
                if known and len(known) == len(keys):
                    for key in known:
                        found.update(self._cell_here(base, self._index(base, key), frame))
                else:
                    found.update(self.read_all_cells(base))
            elif isinstance(base, InstanceValue):
                found.update(self.call(self.instance_attribute(base, "__getitem__", frame), [keys], [], None, frame))
            elif isinstance(base, (ClassValue, ExternalValue)):
                found.add(base if isinstance(base, ClassValue) else UNKNOWN)  # ``Box[int]``: a generic alias
            else:
                found.add(UNKNOWN)
        return bounded(found)

    def _index(self, base: ContainerValue, key: ConstValue) -> object:
        index = _key(key)
        if isinstance(index, int) and index < 0 and base.length >= 0 and base.kind in ("list", "tuple"):
            return base.length + index
        return index

    def _cell_here(self, base: ContainerValue, key: object, frame: _Frame) -> Values:
        """An item as this run of the scope left it, where only it wrote it; else every value it ever held."""
        cell = (base, key)
        self.observed.add(cell)
        self.observed.add((base, ANY))
        if base in frame.fresh and cell in frame.cells and self.writers.get(cell) == frame.unit.id:
            if self.writers.get((base, ANY), frame.unit.id) == frame.unit.id:
                return frame.cells[cell] | frame.cells.get((base, ANY), EMPTY)
        return self.read_cell(base, key)

    # --- calls -----------------------------------------------------------------------------

    def call_expr(self, node: CallExpr, frame: _Frame) -> Values:
        callees = self.expr(node.func, frame)
        args: list = []
        for arg in node.args:
            if type(arg) is Starred:
                args.append(("*", self.expr(arg.value, frame)))
            else:
                args.append(self.expr(arg, frame))
        kwargs = [(name, self.expr(value, frame)) for name, value in node.kwargs]
        return self.call(callees, args, kwargs, node.span, frame)

    def call(self, callees: Values, args: list, kwargs: list, span: Span | None, frame: _Frame) -> Values:
        found: set = set()
        for callee in ordered(callees):
            found.update(self.call_one(callee, args, kwargs, span, frame))
        return bounded(found) if found else ONLY_UNKNOWN

    def record(self, frame: _Frame, span: Span | None, callee: Value, unit: Unit | None) -> None:
        caller = frame.unit
        caller.edges.add(callee)
        if span is None:
            return
        calls = caller.site_calls.setdefault((span.line, span.col, span.end_line, span.end_col), {})
        units = calls.setdefault(callee, set())
        if unit is not None and unit.id not in units:
            units.add(unit.id)

    def call_one(self, callee: Value, args: list, kwargs: list, span: Span | None, frame: _Frame) -> Values:
        kind = type(callee)
        if kind is FunctionValue:
            return self.invoke(callee, None, args, kwargs, span, frame, callee)
        if kind is BoundMethod:
            function = callee.function
            if isinstance(function, FunctionValue):
                return self.invoke(function, callee.receiver, args, kwargs, span, frame, callee)
            return self.call_one(function, [frozenset({callee.receiver}), *args], kwargs, span, frame)
        if kind is ClassValue:
            return self.instantiate(callee, args, kwargs, span, frame)
        if kind is StepValue:
            return self.call_step(callee, args, kwargs, span, frame)
        if kind is StepFactoryValue:
            self.record(frame, span, callee, None)
            made: set = set()
            site = (frame.unit.module.path, span.line, span.col) if span is not None else ("<step>",)
            for value in _positional(args, 0):
                made.add(StepValue(callee.kind, site, value if isinstance(value, FunctionValue) else None))
            return frozenset(made) or ONLY_UNKNOWN
        if kind is ExternalValue:
            return self.call_external(callee, args, kwargs, span, frame)
        if kind is PartialValue:
            self.record(frame, span, callee, None)
            stored_args = [self.read_cell(callee, ("arg", i)) for i in range(self._partial_count(callee))]
            stored_kwargs = [(k, self.read_cell(callee, ("kwarg", k))) for k in self._partial_keys(callee)]
            return self.call(self.read_cell(callee, ("#function",)), [*stored_args, *args], [*stored_kwargs, *kwargs],
                             span, frame)
        if kind is InstanceValue:
            return self.call(self.instance_attribute(callee, "__call__", frame), args, kwargs, span, frame)
        if kind is BuiltinMethod:
            self.record(frame, span, callee, None)
            return builtin_models.container_method(self, callee, args, kwargs, span, frame)
        if kind is DescriptorValue and callee.kind == "staticmethod":
            return self.call_one(callee.function, args, kwargs, span, frame)
        return ONLY_UNKNOWN

    def _partial_count(self, partial: PartialValue) -> int:
        found = self.read_cell(partial, ("#count",))
        counts = [v.value for v in found if isinstance(v, ConstValue) and isinstance(v.value, int)]
        return max(counts) if counts else 0

    def _partial_keys(self, partial: PartialValue) -> list[str]:
        found = self.read_cell(partial, ("#keys",))
        return sorted(v.value for v in found if isinstance(v, ConstValue) and isinstance(v.value, str))

    def call_step(self, step: StepValue, args: list, kwargs: list, span: Span | None, frame: _Frame) -> Values:
        """A step or workflow call: the body runs (MAF injects a run context where asked); awaiting gives its result."""
        unit = None
        if step.function is not None:
            unit = self.unit_for(step.function, None, args, kwargs, frame, inject_context=True)
        self.record(frame, span, step, unit)
        site = (frame.unit.module.path, span.line, span.col, span.end_line, span.end_col) if span is not None else step.site
        return frozenset({CoroutineValue(step, site, unit.id if unit is not None else 0)})

    def invoke(self, function: FunctionValue, receiver: Value | None, args: list, kwargs: list, span: Span | None,
               frame: _Frame, recorded: Value) -> Values:
        unit = self.unit_for(function, receiver, args, kwargs, frame)
        self.record(frame, span, recorded if recorded is function else function, unit)
        if unit is None:
            return ONLY_UNKNOWN
        summary = unit.summary
        if summary.is_generator:
            return frozenset({GeneratorValue(unit.id)})
        if summary.is_async:
            site = (frame.unit.module.path, span.line, span.col, span.end_line, span.end_col) if span is not None else ("<call>", function.qualname)
            return frozenset({CoroutineValue(function, site, unit.id)})
        self.observed.add(("returns", unit.id))
        return frozenset(unit.returns) if unit.returns else EMPTY

    def unit_for(self, function: FunctionValue, receiver: Value | None, args: list, kwargs: list, frame: _Frame,
                 inject_context: bool = False) -> Unit | None:
        summary = self.engine.functions.get((function.path, function.qualname))
        module = self.engine.modules_by_path.get(function.path)
        if summary is None or module is None:
            return None
        params = self.bind_arguments(function, summary, receiver, args, kwargs, frame, inject_context)
        key = (function, params, False)
        unit = self.units.get(key)
        if unit is None:
            existing = self.by_function.get(function, ())
            if len(existing) >= MAX_CONTEXTS or self.created >= MAX_UNITS:
                unit = self._widened(function, summary, module, params)
                if unit is None:
                    return None
            else:
                unit = self.new_unit(function, summary, module, params)
                unit.caller = frame.unit.id
        self.evaluate(unit)
        return unit

    def _widened(self, function: FunctionValue, summary: FunctionSummary, module: ModuleSummary,
                 params: tuple[Values, ...]) -> Unit | None:
        wide = next((u for u in self.by_function.get(function, ()) if u.wide), None)
        if wide is None:
            if self.created >= MAX_UNITS:
                return None
            wide = self.new_unit(function, summary, module, params, wide=True)
            return wide
        merged = tuple(bounded(a | b) for a, b in zip(wide.params, params))
        if merged != wide.params:
            del self.units[(function, wide.params, True)]
            wide.params = merged
            self.units[(function, merged, True)] = wide
            self.evaluated.discard(wide.id)
            if wide in self.stack:  # it cannot run again now with the wider arguments: the next pass does
                self.stale = True
        return wide

    def bind_arguments(self, function: FunctionValue, summary: FunctionSummary, receiver: Value | None, args: list,
                       kwargs: list, frame: _Frame, inject_context: bool) -> tuple[Values, ...]:
        params = summary.params
        positional = [p for p in params if p.kind in ("posonly", "normal")]
        bound: dict[str, set] = {}
        extra: list[Values] = []
        values = list(args)
        if receiver is not None:
            values.insert(0, frozenset({receiver}))
        index = 0
        spread_unknown: set = set()
        for value in values:
            if isinstance(value, tuple):  # ``*items``
                _, items = value
                exact = self._exact_items(items)
                if exact is None:
                    spread_unknown.update(self.iterate(items, frame))
                    index = len(positional) + 1
                    continue
                for item in exact:
                    if index < len(positional):
                        bound.setdefault(positional[index].name, set()).update(item)
                    else:
                        extra.append(item)
                    index += 1
                continue
            if index < len(positional):
                bound.setdefault(positional[index].name, set()).update(value)
            else:
                extra.append(value)
            index += 1
        keywords: dict[str, set] = {}
        for name, value in kwargs:
            if name == "**":
                for container in value:
                    if isinstance(container, ContainerValue) and container.kind == "dict":
                        for key in self._fields(container):
                            if isinstance(key, str):
                                keywords.setdefault(key, set()).update(self.read_cell(container, key))
                continue
            keywords.setdefault(name, set()).update(value)
        result: list[Values] = []
        for position, param in enumerate(params):
            if param.kind == "vararg":
                holder = ContainerValue("tuple", ("<args>", function.path, function.qualname), self.id)
                for item in extra:
                    self.write_cell(holder, ANY, item, None)
                if spread_unknown:
                    self.write_cell(holder, ANY, frozenset(spread_unknown), None)
                result.append(frozenset({holder}))
                continue
            if param.kind == "kwarg":
                holder = ContainerValue("dict", ("<kwargs>", function.path, function.qualname), self.id)
                for name, items in keywords.items():
                    if not any(p.name == name for p in params):
                        self.write_cell(holder, name, frozenset(items), None)
                result.append(frozenset({holder}))
                continue
            found = bound.get(param.name, set()) | keywords.get(param.name, set())
            if spread_unknown and param.kind in ("posonly", "normal") and param.name not in bound:
                found |= spread_unknown
            if not found:
                if inject_context and (param.name == "ctx" or _annotated_run_context(param)):
                    found = {ExternalValue("agent_framework.RunContext()")}
                elif param.default is not None:
                    found = set(self.read_cell(function, ("#default", param.name))) or {UNKNOWN}
                elif receiver is None and position == 0 and summary.class_qualname is not None:
                    found = {UNKNOWN}
            result.append(bounded(found) if found else EMPTY)
        return tuple(result)

    def _fields(self, container: ContainerValue) -> set:
        owner = self._owner_of(container)
        self.observed.add(("all", container))
        keys = set(self.fields.get(container, ()))
        if owner is not None and owner is not self:
            keys |= owner.fields.get(container, set())
        return keys

    def _exact_items(self, values: Values) -> list[Values] | None:
        """The items of a sequence of known length, one set per position; None when not exactly known."""
        if len(values) != 1:
            return None
        (value,) = values
        if not isinstance(value, ContainerValue) or value.kind not in ("list", "tuple") or value.length < 0:
            return None
        if self.read_cell(value, ANY) - frozenset():
            own = self._owner_of(value)
            if own is not None and own.heap.get((value, ANY)):
                return None
        return [self.read_cell(value, index) for index in range(value.length)]

    def instantiate(self, cls: ClassValue, args: list, kwargs: list, span: Span | None, frame: _Frame) -> Values:
        site = (frame.unit.module.path, span.line, span.col) if span is not None else (frame.unit.module.path, "raise", cls.qualname)
        instance = InstanceValue(cls, site, self.id)
        self._fresh(instance, frame)
        self.record(frame, span, cls, None)
        for owner in self.mro(cls):
            if isinstance(owner, ExternalValue):
                if owner.name != "builtins.object":  # an outside base's constructor runs
                    self.record(frame, span, ExternalValue(f"{owner.name}.__init__"), None)
                break
            init = self.read_cell(owner, "__init__")
            functions = [v for v in init if isinstance(v, FunctionValue)]
            if init:
                for function in functions:
                    unit = self.unit_for(function, instance, args, kwargs, frame)
                    self.record(frame, span, function, unit)
                break
        return frozenset({instance})

    def call_external(self, callee: ExternalValue, args: list, kwargs: list, span: Span | None, frame: _Frame) -> Values:
        self.record(frame, span, callee, None)
        if span is not None:
            self._note_handed(callee, args, kwargs, span, frame)
        maf = maf_factory(callee)
        if maf is not None:
            kind, _ = maf
            functions = [v for v in _positional(args, 0) if isinstance(v, FunctionValue)]
            if functions:
                site = (frame.unit.module.path, span.line, span.col) if span is not None else ("<step>",)
                return frozenset(StepValue(kind, site, f) for f in functions)
            return frozenset({StepFactoryValue(kind)})
        modeled = builtin_models.call(self, callee.name, args, kwargs, span, frame)
        if modeled is not None:
            return modeled
        return frozenset({ExternalValue(f"{callee.name}()")})

    def _note_handed(self, callee: ExternalValue, args: list, kwargs: list, span: Span, frame: _Frame) -> None:
        """Coroutines given to an outside callable, directly or as items of a container (``gather(*calls)``)."""
        given: set = set()
        values = [v[1] if isinstance(v, tuple) else v for v in args] + [v for _, v in kwargs]
        for argument in values:
            for value in argument:
                if isinstance(value, CoroutineValue):
                    given.add(value)
                elif isinstance(value, ContainerValue):
                    given.update(v for v in self.read_all_cells(value) if isinstance(v, CoroutineValue))
        if given:
            key = (span.line, span.col, span.end_line, span.end_col)
            name = builtin_models.public_asyncio_name(callee.name)
            found = frame.unit.handed.setdefault(key, {}).setdefault(name, set())
            found.update(given)  # read once the session is done, never while it runs

    def awaited(self, values: Values) -> Values:
        found: set = set()
        for value in values:
            if isinstance(value, CoroutineValue):
                unit = self.engine.units.get(value.unit)
                if unit is not None:
                    self.observed.add(("returns", unit.id))
                    found.update(unit.returns)
                else:
                    found.add(UNKNOWN)
            elif isinstance(value, ExternalValue):
                found.add(ExternalValue(f"{value.name}.await"))
            elif isinstance(value, ContainerValue) and value.kind == "gathered":
                found.add(value)
            else:
                found.add(UNKNOWN)
        return bounded(found) if found else EMPTY

    def iterate(self, values: Values, frame: _Frame) -> Values:
        """What iterating any of ``values`` gives."""
        found: set = set()
        for value in ordered(values):
            if isinstance(value, ContainerValue):
                found.update(self.read_all_cells(value))
            elif isinstance(value, GeneratorValue):
                unit = self.engine.units.get(value.unit)
                self.observed.add(("yields", value.unit))
                found.update(unit.yields if unit is not None else ONLY_UNKNOWN)
            elif isinstance(value, InstanceValue):
                iterators = self.call(self.instance_attribute(value, "__iter__", frame), [], [], None, frame)
                for iterator in iterators:
                    if isinstance(iterator, InstanceValue):
                        found.update(self.call(self.instance_attribute(iterator, "__next__", frame), [], [], None, frame))
                    elif iterator is not UNKNOWN:
                        found.update(self.iterate(frozenset({iterator}), frame))
                    else:
                        found.add(UNKNOWN)
            else:
                found.add(UNKNOWN)
        return bounded(found) if found else EMPTY

    def enter(self, values: Values, frame: _Frame, is_async: bool) -> Values:
        found: set = set()
        for value in ordered(values):
            if isinstance(value, InstanceValue):
                entered = self.call(self.instance_attribute(value, "__aenter__" if is_async else "__enter__", frame),
                                    [], [], None, frame)
                found.update(self.awaited(entered) if is_async else entered)
                self.call(self.instance_attribute(value, "__aexit__" if is_async else "__exit__", frame),
                          [ONLY_UNKNOWN, ONLY_UNKNOWN, ONLY_UNKNOWN], [], None, frame)
            elif isinstance(value, ContextManagerValue):
                unit = self.engine.units.get(value.unit)
                self.observed.add(("yields", value.unit))
                found.update(unit.yields if unit is not None else ONLY_UNKNOWN)
            else:
                found.add(value)  # ``async with asyncio.TaskGroup() as tg``: the value the call made
        return bounded(found) if found else ONLY_UNKNOWN

    def _grow(self, target: set, values: Values, key: tuple) -> None:
        if not values <= target:
            target.update(values)
            self._grew(key)




def _truth(values: Values) -> bool | None:
    """Whether a test is surely true or surely false (every value a literal of one truth), else None."""
    truths = {bool(v.value) for v in values if isinstance(v, ConstValue)}
    if len(truths) != 1 or any(not isinstance(v, ConstValue) for v in values):
        return None
    return truths.pop()


def _blocks(statement) -> list[tuple]:  # noqa: ANN001 - a core.summary statement
    """The nested statement lists of a compound statement (what runs when it does)."""
    kind = type(statement)
    if kind is IfStmt or kind is LoopStmt:
        return [statement.body, statement.orelse]
    if kind is TryStmt:
        return [statement.body, *(body for _, _, body in statement.handlers), statement.orelse, statement.final]
    if kind is WithStmt:
        return [statement.body]
    if kind is MatchStmt:
        return [body for _, _, body in statement.cases]
    return []


def ordered(values: Values) -> list | Values:
    """``values`` in an order that does not depend on hashing or on the order the analysis ran in."""
    return values if len(values) < 2 else sorted(values, key=stable_key)


def _key(value: ConstValue) -> object:
    """A container key: ints and strs as themselves (True is 1 and 1.0 is 1 for dicts, as in Python)."""
    if value.kind == "bool":
        return int(value.value)  # type: ignore[arg-type]
    if value.kind == "float" and float(value.value).is_integer():  # type: ignore[arg-type]
        return int(value.value)  # type: ignore[arg-type]
    return value.value


def _positional(args: list, index: int) -> Values:
    if index < len(args):
        value = args[index]
        return value[1] if isinstance(value, tuple) else value
    return EMPTY


def _annotated_run_context(param) -> bool:  # noqa: ANN001 - a Param
    annotation = param.annotation
    return isinstance(annotation, Ref) and annotation.dotted.rsplit(".", 1)[-1] == "RunContext"


def _comprehension_names(node: Comprehension) -> frozenset[str]:
    names: set[str] = set()
    for generator in node.generators:
        stack = [generator.target]
        while stack:
            target = stack.pop()
            if isinstance(target, NameTarget):
                names.add(target.name)
            elif isinstance(target, UnpackTarget):
                stack.extend(target.items)
    return frozenset(names)


_MAF = "agent_framework"
_FACTORIES = {"step": "step", "StepWrapper": "step", "workflow": "workflow"}


def maf_factory(value: Value) -> tuple[str, bool] | None:
    """("step", ...) for MAF's ``step`` or ``StepWrapper`` (any path into the package), ("workflow", ...) likewise."""
    if not isinstance(value, ExternalValue) or "()" in value.name:
        return None
    parts = value.name.split(".")
    if len(parts) < 2 or parts[0] != _MAF or parts[-1] not in _FACTORIES:
        return None
    return _FACTORIES[parts[-1]], False
