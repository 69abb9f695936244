"""What an expression holds in any function of a module, not only in its steps and workflows.

Code that runs a workflow (a runner's method, a handler, a factory's caller) is no step or workflow body, so
``Analysis.flow`` does not run it. ``FunctionValues`` runs the functions a rule asks about as roots of one
runtime session, as ``ModuleFlow`` runs bodies (unknown arguments; a method's first parameter an instance of
its class, with what its ``__init__`` set), and answers with what each name held anywhere in the function:
a name bound twice holds both values, so a reader that wants what a name *surely* is sees the rebinding.
"""

from __future__ import annotations

from typing import Iterable

from steplint.analysis.flow import ModuleFlow
from steplint.analysis.interpret_shared import Frame, Unit
from steplint.analysis.values import Values
from steplint.core.summary import Expr, FunctionSummary, ModuleSummary


def final_frame(unit: Unit, function: FunctionSummary) -> Frame:
    """A frame in which each of ``function``'s names holds every value the run gave it."""
    frame = Frame(unit, dict(unit.union_env), "function")
    frame.local_names = frozenset(function.bindings) - function.declared_global - function.declared_nonlocal
    return frame


class FunctionValues:
    """One session over ``functions`` of ``module``; ``close`` frees it (the engine keeps every value it made)."""

    def __init__(self, analysis, module: ModuleSummary, functions: Iterable[FunctionSummary]) -> None:  # noqa: ANN001
        self.engine = analysis.engine
        self.module = module
        # A nested function runs as a root closing over its enclosing function's, which runs first, as its own
        # root (a method's with ``self`` an instance of its class): outer functions first, each once.
        chosen: dict[str, FunctionSummary] = {}
        for function in functions:
            current: FunctionSummary | None = function
            while current is not None and current.qualname != "<module>" and current.qualname not in chosen:
                chosen[current.qualname] = current
                current = analysis.index.function(module, current.parent)
        ordered = sorted(chosen.values(), key=lambda f: (f.span.line, f.span.col))
        self.flow = ModuleFlow(analysis.engine, analysis.index, module, [(module, f) for f in ordered])
        self._frames: dict[str, Frame | None] = {}

    def values(self, function: FunctionSummary, expr: Expr) -> Values:
        """What ``expr`` may hold when read in ``function`` (nothing where the function did not run)."""
        if function.qualname not in self._frames:
            root = self.flow.roots.get((self.module.path, function.qualname))
            self._frames[function.qualname] = final_frame(root, function) if root is not None else None
        frame = self._frames[function.qualname]
        return self.flow.session.expr(expr, frame) if frame is not None else frozenset()

    def close(self) -> None:
        self.engine.discard(self.flow.session)

    def __enter__(self) -> "FunctionValues":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
