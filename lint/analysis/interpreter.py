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
makes into other modules' objects (a plugin module registering a handler into
a registry's dict) stay in a layer of its own, which a session reads only once
its module's import has run that import (directly or through the modules it
imports, from that import statement on): an import cannot change what a module
that does not import it sees, nor does the order modules are checked in. A *runtime* session runs the bodies a check needs
(``roots``) on top of those frozen module states; its writes into them stay in
the session. So a module's findings depend only on its own text and on the
modules it imports, as the incremental cache requires.

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
from typing import Callable

from steplint.analysis.attribute_lookup import AttributeLookup
from steplint.analysis.heap import Heap
from steplint.analysis.interpret_calls import Calls
from steplint.analysis.interpret_expressions import Expressions
from steplint.analysis.interpret_patterns import Patterns
from steplint.analysis.interpret_records import Records
from steplint.analysis.interpret_shared import Frame, Unit
from steplint.analysis.interpret_statements import Statements
from steplint.analysis.values import (
    EMPTY,
    ONLY_UNKNOWN,
    ClassValue,
    ExternalValue,
    FunctionValue,
    InstanceValue,
    ModuleValue,
    Value,
    Values,
    bounded,
)
from steplint.core.summary import (
    FromImportStmt,
    FunctionSummary,
    IfStmt,
    ImportStmt,
    LoopStmt,
    MatchStmt,
    ModuleSummary,
    Param,
    Ref,
    Stmt,
    TryStmt,
    WithStmt,
)

__all__ = ["Engine", "Session", "Unit", "import_names"]

MAX_PASSES = 6
MAX_CYCLE_ROUNDS = 4  # modules that import each other: rounds of their imports
MAX_DEPTH = 24  # units on the stack: a deeper call runs after the stack unwinds, in the same pass
MODULE_SCOPE = "<module>"

_ids = itertools.count(1)
_TYPING = ("typing.", "typing_extensions.", "builtins.", "collections.abc.")  # annotations that are not one class

# Module loading and summaries come from the project index (``steplint.analysis.index``).
ModuleSource = Callable[[str, str], "ModuleSummary | None"]  # (module name, asked from module name) -> summary


class Engine:
    """Module states and sessions over one project index; module states are shared by every session."""

    def __init__(self, module_source: ModuleSource, functions: dict, classes: dict, modules_by_path: dict,
                 target_python: tuple[int, int]):
        self.module_source = module_source
        self.target_python = target_python  # the lowest Python the program runs on (``python_release``)
        self.functions = functions  # (path, qualname) -> FunctionSummary
        self.classes = classes  # (path, qualname) -> ClassSummary
        self.modules_by_path = modules_by_path  # path -> ModuleSummary
        self.units: dict[int, Unit] = {}
        self.sessions: dict[int, "Session"] = {}
        self.module_units: dict[str, Unit] = {}
        self._importing: set[str] = set()
        #: An object another module made -> the import sessions that wrote into it (a registry filled by a plugin
        #: module's import): a session reads the layers of the imports its module's import ran (``Session.imported``).
        self.import_layers: dict[Value, list["Session"]] = {}

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
        bodies = [module.functions[0].body, *(c.body for c in module.classes if c.parent is None)]
        return [loaded for loaded in self.imported_modules(module, import_names(bodies))
                if loaded.path not in self.module_units]

    def imported_modules(self, module: ModuleSummary, names: list[str]) -> list[ModuleSummary]:
        """The analyzed modules ``names`` (what ``import_names`` gave, read in ``module``) load, ``module`` excluded."""
        found: dict[str, ModuleSummary] = {}
        for name in names:
            loaded = self.load(name, module) if self._is_module_name(name, module) else None
            if loaded is not None and loaded.path != module.path:
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
    """Units run for one purpose (a module's import, a check, the call graph), with their heap.

    The session drives the fixpoint; each concern is a part it owns, made with a reference to it:
    the heap, attribute lookup, expressions, statements and calls. The parts reach one another
    only through the session's public operations (``interpret_shared.SessionApi``), which are
    the parts' own bound methods.
    """

    def __init__(self, engine: Engine, kind: str, module: ModuleSummary | None):
        self.id = next(_ids)
        self.engine = engine
        engine.sessions[self.id] = self
        self.kind = kind  # "import" or "runtime"
        self.module = module
        self.units: dict[tuple, Unit] = {}
        self.by_function: dict[Value, list[Unit]] = {}
        self.stack: list[Unit] = []
        self.evaluated: set[int] = set()
        self.pending: list[Unit] = []  # called past MAX_DEPTH: run next from the top of the stack
        # What this pass read that can still grow (cells, returns, closures' names...), and whether one of them
        # grew after it was read: only then can another pass compute anything new (see ``run``).
        self.observed: set = set()
        self.stale = False
        self.created = 0
        #: The paths of the modules whose import this session ran (an import session: in this pass, so far; they
        #: bring the ones their own imports ran): whose layers over other modules' objects it reads.
        self.imported: set[str] = set()
        #: Coroutines this session saw handed to an outside callable (a task, ``gather``): they run as its, not where
        #: an ``await`` of what that callable returned is (``ModuleFlow._awaits`` reads it once the session is done).
        self.handed_coroutines: set = set()
        self._connect_parts()

    def note_imported(self, module: ModuleSummary) -> None:
        """``module``'s import ran here (an import statement): its writes into other modules' objects now count."""
        self.visible_imports()  # a runtime session starts from its module's (an import in a function adds to them)
        self.imported.add(module.path)
        unit = self.engine.module_units.get(module.path)
        if unit is not None and unit.session is not self:
            self.imported |= unit.session.imported

    def visible_imports(self) -> set[str]:
        """The modules whose import layers this session reads: an import session, those its import statements ran
        so far in this pass; a runtime session, its module's and those its module's import ran."""
        if self.kind == "import" or self.module is None:
            return self.imported
        if not self.imported:
            unit = self.engine.module_units.get(self.module.path)
            self.imported = {self.module.path} | (unit.session.imported if unit is not None else set())
        return self.imported

    def _connect_parts(self) -> None:
        self.heap = heap = Heap(self)
        self.read_cell, self.read_all_cells, self.write_cell = heap.read_cell, heap.read_all_cells, heap.write_cell
        self.container_keys, self.exact_items = heap.container_keys, heap.exact_items
        self.read_cell_here, self.write_global = heap.read_cell_here, heap.write_global
        self.attributes = attributes = AttributeLookup(self)
        self.attribute, self.instance_attribute = attributes.attribute, attributes.instance_attribute
        self.special_method = attributes.special_method
        self.mro, self.module_attribute = attributes.mro, attributes.module_attribute
        self.global_fallback, self.item = attributes.global_fallback, attributes.item
        self.store_attribute, self.store_item = attributes.store_attribute, attributes.store_item
        self.expressions = expressions = Expressions(self)
        self.expr, self.dotted, self.lookup = expressions.expr, expressions.dotted, expressions.lookup
        self.statements = statements = Statements(self)
        self.block, self.bind, self.assign = statements.block, statements.bind, statements.assign
        self.store_defaults = statements.store_defaults
        patterns = Patterns(self)
        self.bind_pattern, self.match_outcome = patterns.bind_pattern, patterns.outcome
        records = Records(self)
        self.class_made, self.class_decorated = records.class_made, records.class_decorated
        self.calls = calls = Calls(self)
        self.call, self.call_one, self.unit_for = calls.call, calls.call_one, calls.unit_for
        self.parameters = calls.parameters
        self.iterate, self.awaited, self.enter, self.exit = calls.iterate, calls.awaited, calls.enter, calls.exit

    # --- running -------------------------------------------------------------------

    def run(self, roots: list[Unit]) -> None:
        """Evaluate ``roots`` (and what they call) until a pass changes nothing.

        Writes only ever add values, so a pass in which every read saw its final value computed the fixpoint:
        a session stops as soon as nothing it read grew after the read (most stop after one pass).
        """
        for _ in range(MAX_PASSES):
            self.stale = False
            self.observed.clear()  # cleared, not replaced: the heap holds this very set
            if self.kind == "import":
                self.imported.clear()  # each pass runs the import statements again, in order
            self.evaluated = set()
            self.attributes.mro_cache.clear()  # bases are cells: a pass may add to them
            for unit in roots:
                self.evaluate(unit)
                while self.pending:
                    self.evaluate(self.pending.pop())
            if not self.stale:
                return

    def grew(self, *keys: tuple) -> None:
        """What ``keys`` name has new values: another pass is due if this one read it before."""
        if any(key in self.observed for key in keys):
            self.stale = True

    def raised(self, exceptions: Values, frame: Frame) -> None:
        """``exceptions`` were raised in ``frame``'s unit (by a ``raise``, or by code a call there ran): an enclosing
        ``try`` of the frame may bind them, and so may one around a call of the unit."""
        if not exceptions:
            return
        if frame.raised is not None:
            frame.raised.update(exceptions)
        self.grow(frame.unit.raises, exceptions, ("raises", frame.unit.id))

    def grow(self, target: set, values: Values, key: tuple) -> None:
        """Add ``values`` to a unit's returns or yields (``key`` names them for ``grew``)."""
        if not values <= target:
            target.update(values)
            self.grew(key)

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

    def annotated(self, function: FunctionValue, module: ModuleSummary, param: Param) -> Values:
        """An instance of what a parameter is annotated with (``tg: asyncio.TaskGroup``), where that is a class."""
        annotation = param.annotation
        if not isinstance(annotation, Ref):
            return EMPTY
        frame = Frame(self.engine.module_unit(module), self.engine.module_env(module), "module")
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
                frame = Frame(unit, {}, "module")
                frame.local_names = frozenset()
                unit.env = frame.env
                self.block(unit.summary.body, frame)
            else:
                frame = Frame(unit, {}, "function")
                summary = unit.summary
                frame.local_names = frozenset(summary.bindings) - summary.declared_global - summary.declared_nonlocal
                for param, values in zip(summary.params, unit.params):
                    frame.env[param.name] = values
                    self.remember(unit, param.name, values)
                self.block(summary.body, frame)
        except RecursionError:
            self.grow(unit.returns, ONLY_UNKNOWN, ("returns", unit.id))  # nested past what the analysis walks
        finally:
            self.stack.pop()

    def remember(self, unit: Unit, name: str, values: Values) -> None:
        """``name`` was bound to ``values`` in ``unit``: closures defined there see every value it had."""
        before = unit.union_env.get(name)
        if before is None:
            unit.union_env[name] = values
            self.grew(("env", unit.id, name))
        elif not values <= before:
            unit.union_env[name] = bounded(before | values)
            self.grew(("env", unit.id, name))


def import_names(bodies: list[tuple]) -> list[str]:
    """The names of the modules the import statements in ``bodies`` (and the blocks they nest) may load:
    ``import a.b`` loads a and a.b; ``from a import b`` loads a, and a.b where b is a submodule."""
    names: list[str] = []
    bodies = list(bodies)
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
                bodies.extend(_blocks(statement))
    return names


def _blocks(statement: Stmt) -> list[tuple]:
    """The nested statement lists of a compound statement (what runs when it does)."""
    nested = _NESTED_BLOCKS.get(type(statement))
    return nested(statement) if nested is not None else []


#: The statement lists nested in each kind of compound statement.
_NESTED_BLOCKS: dict[type, Callable[..., list[tuple]]] = {
    IfStmt: lambda statement: [statement.body, statement.orelse],
    LoopStmt: lambda statement: [statement.body, statement.orelse],
    TryStmt: lambda statement: [statement.body, *(body for _, _, body in statement.handlers), statement.orelse,
                                statement.final],
    WithStmt: lambda statement: [statement.body],
    MatchStmt: lambda statement: [body for _, _, body in statement.cases],
}
