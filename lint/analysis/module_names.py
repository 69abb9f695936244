"""What a dotted name read anywhere in a module holds, where it names a module-level value.

Code that runs a workflow (``main()``, a request handler, the module's own
``if __name__ == "__main__":``) is not a step or workflow body, so the value
flow does not run it as a root. What it reads through a module-level or
imported name, or an attribute of an imported module, is what the module's
import left there (``Engine.module_env``). A name the function, or one that
encloses it, binds itself is its own local and unknown here: no finding
comes from it.
"""

from __future__ import annotations

from steplint.analysis.index import ProjectIndex
from steplint.analysis.interpreter import Engine
from steplint.analysis.values import EMPTY, ExternalValue, ModuleValue, Values
from steplint.core.summary import FunctionSummary, ModuleSummary, Ref


def module_level_values(engine: Engine, index: ProjectIndex, module: ModuleSummary,
                        scope: FunctionSummary | None, expr: object) -> Values:
    """The values ``expr`` (a ``Ref``) holds when read in ``scope``, as far as module-level names give them."""
    if not isinstance(expr, Ref):
        return EMPTY
    head, *attributes = expr.dotted.split(".")
    if _bound_locally(index, module, scope, head):
        return EMPTY
    values: Values = engine.module_env(module).get(head, EMPTY)
    for attribute in attributes:
        values = _module_attribute(engine, values, attribute)
        if not values:
            return EMPTY
    return values


def _bound_locally(index: ProjectIndex, module: ModuleSummary, scope: FunctionSummary | None, name: str) -> bool:
    current = scope
    while current is not None and current.qualname != "<module>":
        if name in current.declared_global:
            return False
        if name in current.bindings:
            return True
        current = index.function(module, current.parent)
    return False


def _module_attribute(engine: Engine, values: Values, attribute: str) -> Values:
    """``module.name`` for values that are all modules, analyzed or outside (anything else: nothing known)."""
    found: set = set()
    for value in values:
        if isinstance(value, ExternalValue):
            found.add(ExternalValue(f"{value.name}.{attribute}"))
            continue
        holder = engine.modules_by_path.get(value.path) if isinstance(value, ModuleValue) else None
        if holder is None:
            return EMPTY
        found.update(engine.module_env(holder).get(attribute, EMPTY))
    return frozenset(found)
