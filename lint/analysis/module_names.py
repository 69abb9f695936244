"""What a dotted name read anywhere in a module holds, where it names a module-level value.

Code that runs a workflow (``main()``, a request handler, the module's own
``if __name__ == "__main__":``) is not a step or workflow body, so the value
flow does not run it as a root. What it reads through a module-level or
imported name, or an attribute of an imported module, is what the module's
import left there (``Engine.module_env``). A name the function, or one that
encloses it, binds only by imports (``from app.flows import pipeline`` in a
handler) holds what those imports bind; one it binds otherwise is its own
local and unknown here: no finding comes from it.

``MafReach`` tells, before any of that runs, whether a module's names can hold
anything agent-framework-core made: a step or a workflow is made only by
calling what an import of ``agent_framework`` (or a module of it) bound, so a
module none of whose imports, followed through every module they load (the
imports inside functions included), reaches ``agent_framework`` holds none.
"""

from __future__ import annotations

from typing import Callable

from steplint.analysis.index import ProjectIndex
from steplint.analysis.interpreter import Engine, import_names
from steplint.analysis.values import EMPTY, ExternalValue, ModuleValue, Values
from steplint.core.summary import FunctionSummary, ModuleSummary, Ref

_MAF = "agent_framework"


def module_level_values(engine: Engine, index: ProjectIndex, module: ModuleSummary,
                        scope: FunctionSummary | None, expr: object,
                        wanted: Callable[[ModuleSummary], bool] = lambda module: True) -> Values:
    """The values ``expr`` (a ``Ref``) holds when read in ``scope``, as far as module-level names give them.

    Only the names of modules ``wanted`` accepts are read (a module's names cost its import): another module's
    names are nothing here. ``MafReach.reaches`` asks only for modules that can hold what MAF made."""
    if not isinstance(expr, Ref):
        return EMPTY
    head, *attributes = expr.dotted.split(".")
    local = _local_bindings(index, module, scope, head)
    if local is not None:
        values = _imported(engine, module, local, wanted)
    else:
        values = engine.module_env(module).get(head, EMPTY) if wanted(module) else EMPTY
    for attribute in attributes:
        values = _module_attribute(engine, values, attribute, wanted)
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


def _imported(engine: Engine, module: ModuleSummary, bindings: list, wanted: Callable[[ModuleSummary], bool]) -> Values:
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
            values = engine.module_env(loaded).get(binding.imported_name) if wanted(loaded) else None
            if values is None and submodule is not None:
                values = frozenset({ModuleValue(submodule.path, submodule.module)})
            if not values:
                return EMPTY
            found.update(values)
        else:
            found.add(ModuleValue(loaded.path, loaded.module) if loaded is not None else ExternalValue(binding.target))
    return frozenset(found)


def _module_attribute(engine: Engine, values: Values, attribute: str,
                      wanted: Callable[[ModuleSummary], bool]) -> Values:
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
            found.update(engine.module_env(holder).get(attribute, EMPTY))
    return frozenset(found)


class MafReach:
    """Which modules can reach ``agent_framework`` through their imports (an ``Analysis`` service)."""

    def __init__(self, analysis) -> None:  # noqa: ANN001 - an Analysis (a layer above)
        self.engine: Engine = analysis.engine
        self._reaches: dict[str, bool] = {}
        self._names: dict[str, list[str]] = {}

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
            bodies = [f.body for f in module.functions] + [c.body for c in module.classes]
            found = import_names(bodies)
            found.extend(".".join(name.split(".")[:cut]) for name in list(found)
                         for cut in range(1, name.count(".") + 1))  # a package runs before its modules
            self._names[module.path] = found
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
        self._module: str | None = None
        self._values: dict[tuple[str | None, str], Values] = {}

    def values(self, module: ModuleSummary, scope: FunctionSummary | None, expr: object) -> Values:
        if not isinstance(expr, Ref):
            return EMPTY
        if module.path != self._module:
            self._module, self._values = module.path, {}
        key = (scope.qualname if scope is not None else None, expr.dotted)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = module_level_values(self.engine, self.index, module, scope, expr, self.reaches)
        return found
