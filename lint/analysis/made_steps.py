"""Steps made through code of the project: what the value flow binds a decorated or assigned name to.

A decorator the project index cannot name as MAF's ``step`` or ``workflow`` may still
hand the function to them: a name unpacked from what a loader returned (``workflow, step
= _load_workflow_symbols()``), a wrapper that returns ``agent_framework.step(f, name=...)``,
a decorator factory that returns ``agent_framework.step(**options)``; so may a call of such a
wrapper (``tick = compat.step(_tick)``). The interpreter runs the definition (the module's
body, or the functions around it) and makes a ``StepValue`` where the wrapper is applied, at
the ``def`` or the call; what is found here is exactly that, with the options MAF was given.
A decorator or call whose result the interpreter cannot follow makes nothing.
"""

from __future__ import annotations

from steplint.analysis.index import ProjectIndex
from steplint.analysis.interpreter import Engine, Unit
from steplint.analysis.values import FunctionValue, StepOptions, StepValue
from steplint.core.summary import FunctionSummary, ModuleSummary


class MadeSteps:
    """The step values each scope binds its names to, computed once per scope (a module's body is shared
    with every other question about it; a function's runs once, in a session of its own)."""

    def __init__(self, engine: Engine, index: ProjectIndex):
        self.engine = engine
        self.index = index
        self._bound: dict[tuple[str, str], dict[str, list[StepValue]]] = {}

    def at_def(self, module: ModuleSummary, function: FunctionSummary) -> list[StepValue]:
        """The steps or workflows the value flow binds ``function``'s name to, made at its ``def``."""
        if function.class_qualname is not None:
            return []  # a class body's names live in the class: methods are found by their decorators alone
        site = (module.path, function.span.line, function.span.col)
        return [
            value for value in self._in(module, self.index.function(module, function.parent)).get(function.name, ())
            if tuple(value.site[:3]) == site and value.function is not None
            and value.function.qualname == function.qualname
        ]

    def assigned(self, module: ModuleSummary, scope: FunctionSummary | None, name: str,
                 site: tuple) -> list[StepValue]:
        """The steps or workflows the value flow binds ``name`` to in ``scope``, made by the call at ``site``."""
        return [value for value in self._in(module, scope).get(name, ()) if tuple(value.site[:3]) == site]

    def _in(self, module: ModuleSummary, scope: FunctionSummary | None) -> dict[str, list[StepValue]]:
        key = (module.path, scope.qualname if scope is not None else "")
        found = self._bound.get(key)
        if found is None:
            found = self._bound[key] = _steps_by_name(self._env(module, scope))
        return found

    def _env(self, module: ModuleSummary, scope: FunctionSummary | None) -> dict:
        """Every value each name of ``scope`` is bound to (the module's body when None)."""
        if scope is None:
            return self.engine.module_unit(module).union_env
        session = self.engine.runtime_session(module)
        try:
            unit = _scope_unit(self.engine, session, self.index, module, scope)
            if unit is None:
                return {}
            session.run([unit])
            return dict(unit.union_env)
        finally:
            self.engine.discard(session)


def _steps_by_name(env: dict) -> dict[str, list[StepValue]]:
    found: dict[str, list[StepValue]] = {}
    for name, values in env.items():
        steps = [value for value in values if isinstance(value, StepValue)]
        if steps:
            found[name] = steps
    return found


def _scope_unit(engine: Engine, session, index: ProjectIndex, module: ModuleSummary,
                scope: FunctionSummary) -> Unit | None:
    """A root unit of ``scope``, closing over root units of the functions around it."""
    chain: list[FunctionSummary] = []
    current: FunctionSummary | None = scope
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


def joined_options(made: list[StepValue]) -> StepOptions:
    """The options every one of ``made`` surely had: one name only when all agree; a key when any may pass one
    (surely given when all give one)."""
    names = {value.options.name if value.options is not None else None for value in made}
    return StepOptions(
        name=names.pop() if len(names) == 1 else None,
        replay_key=any(value.options is not None and value.options.replay_key for value in made),
        replay_key_given=bool(made) and all(value.options is not None and value.options.replay_key_given
                                            for value in made),
        built=bool(made) and all(value.options is not None and value.options.built for value in made),
    )
