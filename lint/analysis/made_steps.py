"""Steps made at a ``def`` through code of the project: what the value flow binds a decorated name to.

A decorator the project index cannot name as MAF's ``step`` or ``workflow`` may still
hand the function to them: a name unpacked from what a loader returned (``workflow, step
= _load_workflow_symbols()``), a wrapper that returns ``agent_framework.step(f, name=...)``,
a decorator factory that returns ``agent_framework.step(**options)``. The interpreter runs
the definition (the module's body, or the functions around a nested ``def``) and makes a
``StepValue`` at the ``def`` for each of these; what is found here is exactly that, with the
options MAF was given. A decorator whose result the interpreter cannot follow makes nothing.
"""

from __future__ import annotations

from steplint.analysis.index import ProjectIndex
from steplint.analysis.interpreter import Engine, Unit
from steplint.analysis.values import FunctionValue, StepOptions, StepValue
from steplint.core.summary import FunctionSummary, ModuleSummary


def steps_made_at(engine: Engine, index: ProjectIndex, module: ModuleSummary,
                  function: FunctionSummary) -> list[StepValue]:
    """The steps or workflows the value flow binds ``function``'s name to, made at its ``def``."""
    if function.class_qualname is not None:
        return []  # a class body's names live in the class: methods are found by their decorators alone
    if function.parent is None:
        found = engine.module_unit(module).union_env.get(function.name, ())
        return _made_at(found, module, function)
    session = engine.runtime_session(module)
    try:
        scope = _enclosing_unit(engine, session, index, module, function)
        if scope is None:
            return []
        session.run([scope])
        return _made_at(scope.union_env.get(function.name, ()), module, function)
    finally:
        engine.discard(session)


def _enclosing_unit(engine: Engine, session, index: ProjectIndex, module: ModuleSummary,
                    function: FunctionSummary) -> Unit | None:
    """A root unit of the function around ``function``, closing over the units of the functions around it."""
    chain: list[FunctionSummary] = []
    current = index.function(module, function.parent)
    while current is not None:
        chain.append(current)
        current = index.function(module, current.parent)
    closure = engine.module_unit(module).id
    unit = None
    for outer in reversed(chain):
        unit = session.root_unit(FunctionValue(module.path, outer.qualname, closure))
        if unit is None:
            return None
        closure = unit.id
    return unit


def _made_at(values, module: ModuleSummary, function: FunctionSummary) -> list[StepValue]:
    site = (module.path, function.span.line, function.span.col)
    return [
        value for value in values
        if isinstance(value, StepValue) and tuple(value.site[:3]) == site
        and value.function is not None and value.function.qualname == function.qualname
    ]


def joined_options(made: list[StepValue]) -> StepOptions:
    """The options every one of ``made`` surely had: one name only when all agree; a key when any may pass one."""
    names = {value.options.name if value.options is not None else None for value in made}
    return StepOptions(
        name=names.pop() if len(names) == 1 else None,
        replay_key=any(value.options is not None and value.options.replay_key for value in made),
    )
