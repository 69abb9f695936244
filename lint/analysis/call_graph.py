"""The resolved call graph of the analyzed code, from the value-flow analysis the rules read.

Every module's body runs as its import would, then every function of the
analyzed code runs as a root (with unknown arguments; a method with an
instance of its class), and each call goes where its callee's values say, in
the context of its arguments. A function's callees are the union over every
context it ran in. Names: a module's top-level code is its dotted name
(``pkg.mod``), a function ``pkg.mod.func``, a method ``pkg.mod.Class.method``, a
nested function ``pkg.mod.outer.inner``, a lambda ``pkg.mod.<lambda1>``
(numbered in each scope), a builtin ``<builtin>.len``, a method of a builtin type called
on a literal or a container display ``<builtin>.str.join``, anything else outside
the analyzed code by its dotted name. Constructing a class is an edge to its
``__init__`` when the analyzed code defines one.
"""

from __future__ import annotations

from typing import Callable

from steplint.analysis.interpreter import Engine, Session, Unit
from steplint.analysis.values import (
    BoundMethod,
    BuiltinMethod,
    ClassValue,
    ConstValue,
    ContainerValue,
    ExternalValue,
    FunctionValue,
    InstanceValue,
    ModuleValue,
    StepValue,
    Value,
)
from steplint.core.summary import display_qualname, FunctionSummary, ModuleSummary


class CallGraph:
    """Runs every function of ``modules`` and collects who calls whom."""

    def __init__(self, engine: Engine, modules: list[ModuleSummary], module_name: Callable[[ModuleSummary], str]):
        self.engine = engine
        self.modules = [m for m in modules if m.error is None]
        self.module_name = module_name
        self.session: Session | None = None

    def run(self) -> None:
        for module in self.modules:
            self.engine.module_unit(module)
        session = self.engine.runtime_session(None)
        # First every function with no argument values: calls then give them the values they really get.
        roots = self._roots(session, lambda value: False)
        session.run(roots)
        # A function nothing calls (an entry point, a callback of outside code) may get anything.
        called = {unit.function for unit in self.engine.units.values() if unit.session is not session or unit not in roots}
        roots += self._roots(session, lambda value: value not in called)
        session.run(roots)
        self.session = session

    def _roots(self, session: Session, unknown_arguments) -> list[Unit]:  # noqa: ANN001
        roots: list[Unit] = []
        for module in self.modules:
            module_unit = self.engine.module_unit(module)
            frames: dict[str, int] = {}  # function qualname -> the root unit its nested functions close over
            for function in module.functions[1:]:
                frame = frames.get(function.parent, module_unit.id) if function.parent else module_unit.id
                value = FunctionValue(module.path, function.qualname, frame)
                unknown = unknown_arguments(value)
                # With no argument values, a method has no instance either: only calls give it one.
                receiver = self._receiver(session, module, function, frame) if unknown else None
                unit = session.root_unit(value, receiver, unknown=unknown)
                if unit is not None:
                    roots.append(unit)
                    frames[function.qualname] = unit.id
        return roots

    def _receiver(self, session: Session, module: ModuleSummary, function: FunctionSummary, frame: int) -> Value | None:
        """An instance of a method's class, so that ``self.other()`` resolves in a method nobody calls."""
        if function.class_qualname is None or not function.params or function.is_lambda:
            return None
        decorators = {d.dotted for d in function.decorators if hasattr(d, "dotted")}
        if "staticmethod" in decorators:
            return None
        cls = ClassValue(module.path, function.class_qualname, frame)
        if "classmethod" in decorators:
            return cls
        return InstanceValue(cls, ("<self>", module.path, function.class_qualname), session.id)

    def edges(self) -> dict[str, list[str]]:
        """Each function's (and module's) qualified name -> the sorted qualified names of what it calls."""
        by_path = {m.path: m for m in self.modules}
        graph: dict[str, set[str]] = {}
        for module in self.modules:
            name = self.module_name(module)
            graph.setdefault(name, set())
            for function in module.functions[1:]:
                graph.setdefault(f"{name}.{display_qualname(function.qualname)}", set())
        for unit in self.engine.units.values():
            caller = self._name(unit.function, by_path)
            if caller is None or caller not in graph:
                continue
            for callee in unit.edges:
                target = self._callee_name(callee, by_path)
                if target is not None:
                    graph[caller].add(target)
        return {name: sorted(callees) for name, callees in sorted(graph.items())}

    def _name(self, value: Value, by_path: dict[str, ModuleSummary]) -> str | None:
        if isinstance(value, ModuleValue):
            module = by_path.get(value.path)
            return self.module_name(module) if module is not None else None
        if isinstance(value, FunctionValue):
            module = by_path.get(value.path)
            if module is None:
                return None
            return f"{self.module_name(module)}.{display_qualname(value.qualname)}"
        return None

    def _callee_name(self, value: Value, by_path: dict[str, ModuleSummary]) -> str | None:
        if isinstance(value, FunctionValue):
            return self._name(value, by_path)
        if isinstance(value, BoundMethod):
            return self._callee_name(value.function, by_path)
        if isinstance(value, StepValue):
            return self._name(value.function, by_path) if value.function is not None else None
        if isinstance(value, ExternalValue):
            return external_name(value.name)
        if isinstance(value, BuiltinMethod):
            return builtin_method_name(value)
        return None


_BUILTIN_TYPES = {t.__name__: t for t in (type(None), bool, int, float, str, bytes, list, tuple, set, dict)}


def builtin_method_name(method: BuiltinMethod) -> str | None:
    """``<builtin>.str.join`` for ``" ".join``: a method the builtin type of a literal or display defines."""
    receiver = method.receiver
    kind = receiver.kind if isinstance(receiver, (ConstValue, ContainerValue)) else None
    cls = _BUILTIN_TYPES.get(kind) if kind is not None else None
    if cls is None or not hasattr(cls, method.name):
        return None
    return f"<builtin>.{kind}.{method.name}"


def external_name(name: str) -> str | None:
    """``<builtin>.len`` for ``builtins.len``; ``ext.Cls.fun`` for a method of what ``ext.Cls()`` made."""
    if ".await" in name or name.endswith("()"):
        return None
    name = name.replace("()", "")
    if name.startswith("builtins."):
        return "<builtin>." + name[len("builtins."):]
    return name
