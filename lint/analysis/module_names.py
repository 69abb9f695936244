"""What a dotted name read anywhere in a module holds, where it names a module-level value.

Code that runs a workflow (``main()``, a request handler, the module's own
``if __name__ == "__main__":``) is not a step or workflow body, so the value
flow does not run it as a root. What it reads through a module-level or
imported name, or an attribute of an imported module, is what the module's
import left there (``Engine.module_env``). A name the function, or one that
encloses it, binds only by imports (``from app.flows import pipeline`` in a
handler) holds what those imports bind; one it binds otherwise is its own
local and unknown here: no finding comes from it.

``SettledNames`` reads such a name from the summaries alone where its
bindings settle it (one import, a plain ``def``...), so that most modules'
imports never run for these readers; the engine answers the rest.

``MafReach`` tells, before any of that runs, whether a module's names can hold
anything agent-framework-core made: a step or a workflow is made only by
calling what an import of ``agent_framework`` (or a module of it) bound, so a
module none of whose imports, followed through every module they load (the
imports inside functions included), reaches ``agent_framework`` holds none.
"""

from __future__ import annotations

from typing import Callable, Sequence

from steplint.analysis import builtin_models
from steplint.analysis.attribute_lookup import unbound_module_name, unset_module_attribute
from steplint.analysis.index import ProjectIndex
from steplint.analysis.interpret_shared import maf_factory, path_joined
from steplint.analysis.interpreter import Engine, import_names
from steplint.analysis.values import EMPTY, ONLY_UNKNOWN, UNKNOWN, ClassValue, ExternalValue, ModuleValue, Values, one
from steplint.core.summary import (
    Attr, BinOpForm, Binding, CallExpr, Comprehension, Const, Display, Expr, FunctionSummary, LambdaForm,
    ModuleSummary, Ref,
)

_MAF = "agent_framework"


def module_level_values(engine: Engine, index: ProjectIndex, module: ModuleSummary,
                        scope: FunctionSummary | None, expr: object,
                        wanted: Callable[[ModuleSummary], bool] = lambda module: True,
                        settled: "SettledNames | None" = None) -> Values:
    """The values ``expr`` (a ``Ref``) holds when read in ``scope``, as far as module-level names give them.

    Only the names of modules ``wanted`` accepts are read (a module's names cost its import): another module's
    names are nothing here. ``MafReach.reaches`` asks only for modules that can hold what MAF made. With
    ``settled``, a name its bindings settle is read without running its module's import, and every value other
    than a module, an outside name or a step is ``UNKNOWN``."""
    if not isinstance(expr, Ref):
        return EMPTY
    module_env = settled.get if settled is not None else lambda holder, name: engine.module_env(holder).get(name)
    head, *attributes = expr.dotted.split(".")
    local = _local_bindings(index, module, scope, head)
    if local is not None:
        values = _imported(engine, module, local, wanted, module_env)
    else:
        values = (module_env(module, head) or EMPTY) if wanted(module) else EMPTY
    for attribute in attributes:
        values = _module_attribute(engine, values, attribute, wanted, module_env)
        if not values:
            return EMPTY
    return values


def _local_bindings(index: ProjectIndex, module: ModuleSummary, scope: FunctionSummary | None,
                    name: str) -> list | None:
    """The bindings of ``name`` in the function scope that owns it (``scope`` or one around it); None: a
    module-level (or global) name."""
    current = scope
    while current is not None and current.qualname != "<module>":
        if name in current.declared_global:
            return None
        if name in current.bindings:
            return current.bindings[name]
        current = index.function(module, current.parent)
    return None


def _imported(engine: Engine, module: ModuleSummary, bindings: list, wanted: Callable[[ModuleSummary], bool],
              module_env: Callable[[ModuleSummary, str], Values | None]) -> Values:
    """What a function's own name holds when each of its bindings is an import (``from pkg.mod import
    pipeline`` inside a handler): the union of what those imports bind; any other binding: nothing known."""
    found: set = set()
    for binding in bindings:
        if binding.kind != "import":
            return EMPTY
        loaded = engine.load(binding.target, module)
        if binding.imported_name:
            if loaded is None:
                found.add(ExternalValue(f"{binding.target}.{binding.imported_name}"))
                continue
            submodule = engine.load(f"{binding.target}.{binding.imported_name}", module)
            values = module_env(loaded, binding.imported_name) if wanted(loaded) else None
            if values is None and submodule is not None:
                values = frozenset({ModuleValue(submodule.path, submodule.module)})
            if not values:
                return EMPTY
            found.update(values)
        else:
            found.add(ModuleValue(loaded.path, loaded.module) if loaded is not None else ExternalValue(binding.target))
    return frozenset(found)


def _module_attribute(engine: Engine, values: Values, attribute: str, wanted: Callable[[ModuleSummary], bool],
                      module_env: Callable[[ModuleSummary, str], Values | None]) -> Values:
    """``module.name`` for values that are all modules, analyzed or outside (anything else: nothing known)."""
    found: set = set()
    for value in values:
        if isinstance(value, ExternalValue):
            found.add(ExternalValue(f"{value.name}.{attribute}"))
            continue
        holder = engine.modules_by_path.get(value.path) if isinstance(value, ModuleValue) else None
        if holder is None:
            return EMPTY
        if wanted(holder):
            found.update(module_env(holder, attribute) or EMPTY)
    return frozenset(found)


class SettledNames:
    """What a module-level name holds once its module is imported, read from the summaries where they settle it,
    without running the import (``Engine.module_unit`` runs the imports of every module it imports too).

    A name is settled when every statement that binds it runs (none is in a branch, a loop, a ``try`` or a
    ``with``), no function of the module declares it ``global`` and no ``*`` import of an analyzed module could
    rebind it; and the last of those statements is an import, a ``def`` or a ``class`` whose decorators are
    outside callables, a literal, a display, a lambda, a read of a name or attribute settled at that point, a
    call of a class or of an outside callable that is neither MAF's nor answered by the standard-library models
    (a method of an outside value only when every argument is a literal, a module or an outside name), or an
    operator applied to such values (``Path(__file__).resolve().parent / "storage"``: a path).
    What it holds is then what ``Engine.module_env`` gives: the same modules and outside names, and ``UNKNOWN``
    for every other value (a function, a class, an instance, a literal), which is all the readers (``MafNames``)
    tell apart. Anything else, a module that imports itself included, is left to the engine. A module whose
    import already ran is read from its state.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._names: dict[tuple[str, str], tuple[bool, Values | None]] = {}
        self._open_modules: dict[str, bool] = {}  # path -> whether its names can be settled at all
        self._declared: dict[str, frozenset[str]] = {}  # path -> the names its functions declare global

    def get(self, module: ModuleSummary, name: str) -> Values | None:
        """``Engine.module_env(module).get(name)``, as far as the readers of ``MafNames`` tell values apart."""
        known, values = self.settled(module, name)
        return values if known else self.engine.module_env(module).get(name)

    def settled(self, module: ModuleSummary, name: str) -> tuple[bool, Values | None]:
        """Whether the summaries settle ``name``, and then what it holds (None: the import never binds it)."""
        known, values = self._read(module, name)
        if known and values is not None and _CLASS in values:
            values = frozenset(UNKNOWN if v is _CLASS else v for v in values)
        return known, values

    def _read(self, module: ModuleSummary, name: str) -> tuple[bool, Values | None]:
        if module.path in self.engine.module_units:
            return True, self.engine.module_env(module).get(name)
        key = (module.path, name)
        found = self._names.get(key)
        if found is None:
            self._names[key] = _UNSETTLED  # a chain of imports back to this name settles nothing
            found = self._names[key] = self._settle(module, name)
        return found

    def _settle(self, module: ModuleSummary, name: str) -> tuple[bool, Values | None]:
        if not self._open(module) or name in self._globals(module):
            return _UNSETTLED
        bindings = self._run_on_import(module, module.bindings.get(name, ()))
        if bindings is None:
            return _UNSETTLED
        if not bindings:
            return True, None
        return self._bound(module, max(bindings, key=_order))  # statements that always run: the last one's value

    def _run_on_import(self, module: ModuleSummary, bindings: Sequence[Binding]) -> list[Binding] | None:
        """The bindings of a name that the module's import runs, where each surely runs (None: not known). Those
        under ``if __name__ == "__main__":`` never do: ``AttributeLookup`` reads ``__name__`` as the module's
        dotted name while its import runs, so the engine skips that block as Python does."""
        run = [binding for binding in bindings if not binding.main_only]
        if len(run) < len(bindings) and not self._skips_main_guard(module):
            return None
        return None if any(binding.conditional for binding in run) else run

    def _skips_main_guard(self, module: ModuleSummary) -> bool:
        name = module.module
        return bool(name) and name.rpartition(".")[2] != "__main__" and "__name__" not in module.bindings \
            and "__name__" not in self._globals(module)

    def _globals(self, module: ModuleSummary) -> frozenset[str]:
        """The names a function of ``module`` declares ``global`` (it may rebind them when it runs)."""
        found = self._declared.get(module.path)
        if found is None:
            found = self._declared[module.path] = frozenset().union(*(f.declared_global for f in module.functions))
        return found

    def _open(self, module: ModuleSummary) -> bool:
        """No ``*`` import of an analyzed module (its names are known only by its import) and no import of
        itself (through which its import could write its own names)."""
        found = self._open_modules.get(module.path)
        if found is None:
            engine = self.engine
            found = self._open_modules[module.path] = not any(
                engine.load(star, module) is not None for star in module.star_imports) and not any(
                b.kind == "import" and b.target == module.module for bs in module.bindings.values() for b in bs)
        return found

    def _bound(self, module: ModuleSummary, binding: Binding) -> tuple[bool, Values | None]:
        kind = binding.kind
        engine = self.engine
        if kind == "import":
            loaded = engine.load(binding.target, module)
            if not binding.imported_name:  # ``import a.b.c`` binds ``a``; ``import a.b as c`` binds ``a.b``
                value = ModuleValue(loaded.path, loaded.module) if loaded is not None else ExternalValue(binding.target)
                return True, frozenset({value})
            if loaded is None:
                return True, one(ExternalValue(f"{binding.target}.{binding.imported_name}"))
            return self._module_attribute(loaded, binding.imported_name)
        if kind == "def":
            function = engine.functions.get((module.path, binding.target))
            if function is None:
                return _UNSETTLED
            return self._decorated_function(module, function.decorators, binding.order) if function.decorators \
                else (True, ONLY_UNKNOWN)
        if kind == "class":
            cls = engine.classes.get((module.path, binding.target))
            return self._decorated_class(module, cls.decorators, binding.order) if cls is not None else _UNSETTLED
        if kind == "assign" and binding.value is not None and not binding.is_type_alias:
            return self._value(module, binding.value, binding.order)
        return _UNSETTLED

    def _decorated_function(self, module: ModuleSummary, decorators: tuple[Expr, ...],
                            order: int) -> tuple[bool, Values | None]:
        """A decorated ``def``'s value (``Statements.decorate``): what its first decorator, applied last, returns,
        where that decorator is an outside callable neither MAF's nor modeled (``@app.get("/")``:
        ``fastapi.FastAPI().get()()``; an unmodeled builtin: unknown) or one whose model wraps any function
        (``@contextmanager``: unknown). The decorators under it do not matter: such a result is known by the
        decorator's name alone."""
        known, values = self._decorator(module, decorators[0], order)
        if not known:
            return _UNSETTLED
        made: set = set()
        for value in values or ():
            if maf_factory(value) is not None:
                return _UNSETTLED
            if builtin_models.decorator_wraps_function(value.name):
                made.add(UNKNOWN)
            elif builtin_models.is_modeled(value.name):
                return _UNSETTLED
            else:
                made.add(UNKNOWN if value.name.startswith("builtins.") else ExternalValue(f"{value.name}()"))
        return (True, frozenset(made)) if made else _UNSETTLED

    def _decorated_class(self, module: ModuleSummary, decorators: tuple[Expr, ...],
                         order: int) -> tuple[bool, Values | None]:
        """A class statement's value (``Statements._define_class``): the class, with what each decorator that is
        an outside callable returns (``@runtime_checkable``: ``typing.runtime_checkable()``); a model that returns
        the class (``@dataclass``, ``@dataclass(frozen=True)``) adds nothing."""
        made: set = set()
        for decorator in decorators:
            known, values = self._decorator(module, decorator, order)
            if not known:
                return _UNSETTLED
            for value in values or ():
                if maf_factory(value) is not None:
                    return _UNSETTLED
                if not builtin_models.decorator_returns_argument(value.name):
                    if builtin_models.is_modeled(value.name):
                        return _UNSETTLED
                    made.add(ExternalValue(f"{value.name}()"))
        return True, frozenset({*made, _CLASS})

    def _decorator(self, module: ModuleSummary, expr: Expr, order: int) -> tuple[bool, Values | None]:
        """A decorator expression (a name, an attribute or a call, ``dataclass(frozen=True)``) whose values are all
        outside callables, else not settled."""
        known, values = self._value(module, expr, order) if isinstance(expr, (Ref, CallExpr)) else _UNSETTLED
        if not known or not values or not all(isinstance(v, ExternalValue) for v in values):
            return _UNSETTLED
        return True, values

    def _module_attribute(self, module: ModuleSummary, name: str) -> tuple[bool, Values | None]:
        """``AttributeLookup.module_attribute`` (``from module import name``, ``module.name``) of a module whose
        import writes none of its own names from elsewhere (``_settle``'s conditions)."""
        if not self._open(module) or name in self._globals(module):
            return _UNSETTLED  # its import (or a function it runs) may write the name from elsewhere
        known, found = self._read(module, name)
        if not known:
            return _UNSETTLED
        return True, found if found is not None else unset_module_attribute(self.engine, module, name)

    def _value(self, module: ModuleSummary, expr: Expr, order: int) -> tuple[bool, Values | None]:
        """What ``expr``, the value of the module-level binding at ``order``, evaluates to."""
        if isinstance(expr, (Const, LambdaForm, Comprehension)) or (
                isinstance(expr, Display) and expr.kind in ("list", "dict", "set", "tuple")):
            return True, ONLY_UNKNOWN
        if isinstance(expr, Ref):
            return self._dotted(module, expr.dotted, order)
        if isinstance(expr, CallExpr) and isinstance(expr.func, Ref):
            return self._call(module, expr, order)
        if isinstance(expr, CallExpr) and isinstance(expr.func, Attr) and self._outside_only(module, expr, order):
            return self._call(module, expr, order)
        if isinstance(expr, Attr):
            known, values = self._value(module, expr.base, order)
            return self._attribute(values, expr.attr) if known and values else _UNSETTLED
        if isinstance(expr, BinOpForm):
            # ``Expressions._operation``: a concatenation's containers or unknown, which the readers tell apart
            # from nothing, or a path joined with ``/``; otherwise the operands matter only for their side effects
            (left_known, left), (right_known, right) = self._value(module, expr.left, order), self._value(module, expr.right, order)
            if left_known and right_known:
                if expr.op != "/":
                    return True, ONLY_UNKNOWN
                # a literal is no path and not unknown to the engine; another UNKNOWN here may be either
                operands = frozenset().union(*(values or () for side, values in ((expr.left, left), (expr.right, right))
                                               if not isinstance(side, Const)))
                joined = path_joined(operands - {UNKNOWN})
                if joined and UNKNOWN in operands:
                    return _UNSETTLED
                return True, joined or ONLY_UNKNOWN
        return _UNSETTLED

    def _outside_only(self, module: ModuleSummary, call: CallExpr, order: int) -> bool:
        """Every argument of ``call`` is a literal or holds only modules and outside names: no function of the
        project is handed to the callee nor run to make an argument (``Path(__file__).resolve()``)."""
        for argument in (*call.args, *(value for _, value in call.kwargs)):
            if isinstance(argument, Const):
                continue
            if not isinstance(argument, (Ref, Attr, CallExpr)):
                return False
            known, values = self._value(module, argument, order)
            if not known or not values or not all(isinstance(v, (ExternalValue, ModuleValue)) for v in values):
                return False
        return True

    def _call(self, module: ModuleSummary, call: CallExpr, order: int) -> tuple[bool, Values | None]:
        """A call of a class (``Calls._instantiate``: an instance; a TypedDict's: a dict) or of outside callables
        (``Calls._call_external``): one neither MAF's nor modeled returns ``name()``; a class decorator's model
        called without the class returns the decorator it makes (``dataclass(frozen=True)``)."""
        if isinstance(call.func, Ref):
            known, callees = self._dotted(module, call.func.dotted, order)
        else:
            known, callees = self._value(module, call.func, order)
        if not known or not callees:
            return _UNSETTLED
        if all(callee is _CLASS or isinstance(callee, ClassValue) for callee in callees):
            return True, ONLY_UNKNOWN  # ``Calls._instantiate``: an instance (a ClassValue: its module's import ran)
        made: set = set()
        for callee in callees:
            if not isinstance(callee, ExternalValue) or maf_factory(callee) is not None:
                return _UNSETTLED
            factory = builtin_models.class_decorator_made(callee.name)
            if factory is not None and not call.args:
                made.add(ExternalValue(factory))
            elif builtin_models.is_modeled(callee.name):
                return _UNSETTLED
            else:
                made.add(ExternalValue(f"{callee.name}()"))
        return True, frozenset(made)

    def _dotted(self, module: ModuleSummary, dotted: str, order: int) -> tuple[bool, Values | None]:
        head, *attributes = dotted.split(".")
        bindings = self._run_on_import(module, module.bindings.get(head, ()))
        if bindings is None:
            return _UNSETTLED
        if not bindings:
            if head == "__name__" or head in self._globals(module):
                return _UNSETTLED
            known, values = True, unbound_module_name(self.engine, module, head)
        else:
            before = [binding for binding in bindings if binding.order < order]
            if not before:
                return _UNSETTLED
            latest = max(before, key=_order)
            if latest.order == max(binding.order for binding in bindings):
                known, values = self._read(module, head)
            elif not self._open(module) or head in self._globals(module):
                return _UNSETTLED
            else:
                known, values = self._bound(module, latest)  # what the name holds at that statement
        for attribute in attributes:
            if not known or not values:
                return _UNSETTLED
            known, values = self._attribute(values, attribute)
        return (True, values) if known and values else _UNSETTLED

    def _attribute(self, values: Values, attribute: str) -> tuple[bool, Values | None]:
        """``value.attribute`` for values that are all modules or outside names (``AttributeLookup.attribute``)."""
        found: set = set()
        for value in values:
            if isinstance(value, ExternalValue):
                found.add(ExternalValue(f"{value.name}.{attribute}"))
                continue
            holder = self.engine.modules_by_path.get(value.path) if isinstance(value, ModuleValue) else None
            if holder is None:
                return _UNSETTLED  # a value told apart no further (a class's attribute may be anything)
            known, read = self._module_attribute(holder, attribute)
            if not known:
                return _UNSETTLED
            found.update(read or ())
        return (True, frozenset(found)) if found else _UNSETTLED


_UNSETTLED: tuple[bool, Values | None] = (False, None)


def _order(binding: Binding) -> int:
    return binding.order


class _SettledClass:
    """A class of the project, while ``SettledNames`` reads (calling it makes an instance); ``UNKNOWN`` outside."""

    __slots__ = ()


_CLASS = _SettledClass()


class MafReach:
    """Which modules can reach ``agent_framework`` through their imports (an ``Analysis`` service)."""

    def __init__(self, analysis) -> None:  # noqa: ANN001 - an Analysis (a layer above)
        self.engine: Engine = analysis.engine
        self._reaches: dict[str, bool] = {}
        self._names: dict[str, list[str]] = {}
        self._imports: dict[str, tuple[str, ...]] = {}

    def reaches(self, module: ModuleSummary) -> bool:
        """True when ``module`` or a module its imports load (transitively, at any depth of any body) imports
        ``agent_framework``; False means no value of its import, nor of a call it makes, is MAF's."""
        found = self._reaches.get(module.path)
        if found is not None:
            return found
        seen = {module.path}
        work = [module]
        found = self._touches(module)
        while work and not found:
            current = work.pop()
            # Its imports are loaded one at a time: the first that imports MAF ends the walk, the rest are not read.
            for name in self._import_names(current):
                for target in self.engine.imported_modules(current, [name]):
                    if target.path in seen:
                        continue
                    seen.add(target.path)
                    known = self._reaches.get(target.path)
                    if known or (known is None and self._touches(target)):
                        found = True
                        break
                    if known is None:
                        work.append(target)  # known False: nothing it reaches imports MAF
                if found:
                    break
        if not found:
            for path in seen:  # every module reached reaches only modules seen here: none imports MAF
                self._reaches[path] = False
        self._reaches[module.path] = found
        return found

    def _touches(self, module: ModuleSummary) -> bool:
        """Whether ``module`` is MAF's or imports MAF itself (in any body)."""
        return module.module.split(".")[0] == _MAF or any(name.split(".")[0] == _MAF
                                                           for name in self._import_names(module))

    def _import_names(self, module: ModuleSummary) -> list[str]:
        """The names of the modules ``module``'s import statements (in any body) load, its packages' included."""
        found = self._names.get(module.path)
        if found is None:
            found = list(self.imports_of(module))
            found.extend(".".join(name.split(".")[:cut]) for name in list(found)
                         for cut in range(1, name.count(".") + 1))  # a package runs before its modules
            self._names[module.path] = found
        return found

    def imports_of(self, module: ModuleSummary) -> tuple[str, ...]:
        """``import_names`` of every body of ``module`` (functions and classes), once per module."""
        found = self._imports.get(module.path)
        if found is None:
            found = self._imports[module.path] = tuple(
                import_names([f.body for f in module.functions] + [c.body for c in module.classes]))
        return found


class MafNames:
    """``module_level_values`` of a name read in a scope, where only the modules ``MafReach`` accepts are read,
    once per (scope, name) of the module being checked (an ``Analysis`` service): a body reads the same names
    many times, and a version-dependent rule asks again in each epoch its file's target admits. The rules are
    run module by module, so only the current module's answers are kept."""

    def __init__(self, analysis) -> None:  # noqa: ANN001 - an Analysis (a layer above)
        self.engine: Engine = analysis.engine
        self.index: ProjectIndex = analysis.index
        self.reaches = analysis.service(MafReach).reaches
        self.settled = SettledNames(self.engine)
        self._module: str | None = None
        self._values: dict[tuple[str | None, str], Values] = {}
        self._function_names: frozenset[str] = frozenset()  # the names some function of the module binds

    def values(self, module: ModuleSummary, scope: FunctionSummary | None, expr: object) -> Values:
        if not isinstance(expr, Ref):
            return EMPTY
        key = self.scope_key(module, scope, expr.dotted)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = module_level_values(self.engine, self.index, module, scope, expr, self.reaches,
                                                                  self.settled)
        return found

    def scope_key(self, module: ModuleSummary, scope: FunctionSummary | None, dotted: str) -> tuple[str | None, str]:
        """What the value of ``dotted`` read in ``scope`` depends on: the scope, where a function of the module binds
        its head; else only the name (an import, a module-level name or a builtin reads alike in every function), so
        a rule can answer a name once for the module."""
        if module.path != self._module:
            self._module, self._values = module.path, {}
            self._function_names = frozenset(name for function in module.functions
                                             if function.qualname != "<module>" for name in function.bindings)
        if scope is not None and dotted.partition(".")[0] in self._function_names:
            return scope.qualname, dotted
        return None, dotted
