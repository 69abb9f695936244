"""What the value-flow analysis says about one checked module: where each call goes, and what it reaches.

A module's steps and workflows (and every function nested in their bodies)
run as roots of one runtime session, with unknown arguments: a step may be
called with anything. Each call site inside them then has the set of values
its callee may be (``callees``), and each call into analyzed code the units it
ran, so a search can follow plain functions, methods, constructors and
callbacks, in the context of the call, until it meets a step (``reach``).
Calls passed to outside callables (``asyncio.gather``) are kept with the
coroutines they were given (``handed_over``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from steplint.analysis.index import ProjectIndex
from steplint.analysis.interpreter import Engine, Session, Unit
from steplint.analysis.values import (
    UNKNOWN,
    BoundMethod,
    ClassValue,
    ContainerValue,
    CoroutineValue,
    ExternalValue,
    FunctionValue,
    InstanceValue,
    PartialValue,
    StepValue,
    Value,
    Values,
    stable_key,
)
from steplint.core.summary import display_qualname, Attr, CallExpr, FunctionSummary, ModuleSummary, Ref, Span, Subscript

SiteKey = tuple[int, int, int, int]


def site_key(span: Span) -> SiteKey:
    return (span.line, span.col, span.end_line, span.end_col)


@dataclass(frozen=True, slots=True)
class Reached:
    """A call found by ``reach``: ``chain`` is the units from the first one searched to the one making it."""

    chain: tuple[Unit, ...]
    site: SiteKey
    callee: Value

    @property
    def unit(self) -> Unit:
        return self.chain[-1]


@dataclass(frozen=True, slots=True)
class HandedOver:
    """Coroutines given to an outside callable (``asyncio.gather(*calls)``) by a unit at a call site."""

    unit: Unit
    site: SiteKey
    callee: str
    coroutines: tuple[CoroutineValue, ...]


class ModuleFlow:
    def __init__(self, engine: Engine, index: ProjectIndex, module: ModuleSummary,
                 bodies: Iterable[tuple[ModuleSummary, FunctionSummary]]):
        """``bodies``: the steps' and workflows' bodies ``module`` defines, with the modules that hold them."""
        self.engine = engine
        self.index = index
        self.module = module
        self.session: Session = engine.runtime_session(module)
        self.roots: dict[tuple[str, str], Unit] = {}  # (path, qualname) of a body -> its root unit
        roots: list[Unit] = []
        for body_module, body in bodies:
            self._add_roots(body_module, body, roots)
        self.session.run(roots)
        self._sites: dict[tuple[str, SiteKey], dict[Value, set[int]]] | None = None
        self._moved: tuple[dict, dict] | None = None  # ``_awaits``
        self._unit_calls: dict[int, dict] = {}  # ``site_calls``, by unit id

    def _add_roots(self, module: ModuleSummary, body: FunctionSummary, roots: list[Unit]) -> None:
        """The body, as a root, and every function nested in it, closing over the body's root."""
        frame = self._frame_for(module, body)
        if frame is None:
            return
        root = self.session.root_unit(FunctionValue(module.path, body.qualname, frame), self._receiver(module, body, frame))
        if root is None:
            return
        roots.append(root)
        self.roots[(module.path, body.qualname)] = root
        nested = sorted(self.index.lexical_descendants(module, body), key=lambda f: (f.span.line, f.span.col))
        for function in nested:
            parent = self.roots.get((module.path, function.parent or ""))
            if parent is None:
                continue
            unit = self.session.root_unit(FunctionValue(module.path, function.qualname, parent.id))
            if unit is not None:
                roots.append(unit)
                self.roots[(module.path, function.qualname)] = unit

    def _receiver(self, module: ModuleSummary, body: FunctionSummary, frame: int) -> Value | None:
        """A method's first parameter stands for an instance of its class (a classmethod's, the class)."""
        if body.class_qualname is None or not body.params or body.params[0].kind not in ("posonly", "normal"):
            return None
        decorators = {d.dotted.rsplit(".", 1)[-1] for d in body.decorators if isinstance(d, Ref)}
        if "staticmethod" in decorators:
            return None
        cls = ClassValue(module.path, body.class_qualname, frame)
        if "classmethod" in decorators:
            return cls
        return InstanceValue(cls, ("<self>", module.path, body.class_qualname), self.session.id)

    def _frame_for(self, module: ModuleSummary, body: FunctionSummary) -> int | None:
        """The unit a body closes over: its module's body, or the root of the function that holds it."""
        if body.parent is None:
            return self.engine.module_unit(module).id
        chain = []
        current: FunctionSummary | None = self.index.function(module, body.parent)
        while current is not None:
            chain.append(current)
            current = self.index.function(module, current.parent)
        frame = self.engine.module_unit(module).id
        for function in reversed(chain):
            found = self.roots.get((module.path, function.qualname))
            if found is None:
                found = self.session.root_unit(FunctionValue(module.path, function.qualname, frame))
                if found is None:
                    return None
                self.session.run([found])
                self.roots[(module.path, function.qualname)] = found
            frame = found.id
        return frame

    def default_values(self, module: ModuleSummary, body: FunctionSummary, name: str) -> Values:
        """What the ``def`` gave a parameter as its default, where the analysis followed it."""
        frame = self._frame_for(module, body)
        if frame is None:
            return frozenset()
        return self.session.read_cell(FunctionValue(module.path, body.qualname, frame), ("#default", name))

    # --- call sites ---------------------------------------------------------------------

    def _site_index(self) -> dict[tuple[str, SiteKey], dict[Value, set[int]]]:
        if self._sites is None:
            sites: dict[tuple[str, SiteKey], dict[Value, set[int]]] = {}
            implicit: set[tuple[str, SiteKey]] = set()
            for unit in self.session.units.values():
                implicit.update((unit.module.path, site_key(c.span)) for c in unit.summary.implicit_calls)
                for key, calls in self.site_calls(unit).items():
                    merged = sites.setdefault((unit.module.path, key), {})
                    for callee, units in calls.items():
                        merged.setdefault(callee, set()).update(units)
            for where in implicit & sites.keys():
                sites[where] = ProtocolCalls(sites[where])
            self._sites = sites
        return self._sites

    def site_calls(self, unit: Unit) -> dict[SiteKey, dict[Value, set[int]]]:
        """``unit.site_calls`` with each coroutine awaited on another line than the call that made it moved to the
        ``await`` (``Calls._runs_at_await``), unless it was handed to an outside callable anywhere (a task runs the
        coroutine made at the call). Decided once the session is done, so the order the analysis ran in does not
        matter."""
        hidden, added = self._awaits()
        if not hidden:
            return unit.site_calls
        found = self._unit_calls.get(unit.id)
        if found is not None:
            return found
        moved_in, path = added.get(unit.id), unit.module.path
        if not moved_in and not any((path, key) in hidden for key in unit.site_calls):
            self._unit_calls[unit.id] = unit.site_calls
            return unit.site_calls
        calls: dict[SiteKey, dict[Value, set[int]]] = {}
        for key, by_callee in unit.site_calls.items():
            elsewhere = hidden.get((path, key), ())
            for callee, units in by_callee.items():
                kept = units - elsewhere if elsewhere else units
                if units and not kept:
                    continue  # every coroutine this call made runs where it is awaited
                calls.setdefault(key, {})[callee] = set(kept)
        for key, callee, made in moved_in or ():
            calls.setdefault(key, {}).setdefault(callee, set()).add(made)
        self._unit_calls[unit.id] = calls
        return calls

    def _awaits(self) -> tuple[dict[tuple[str, SiteKey], set[int]], dict[int, list[tuple[SiteKey, Value, int]]]]:
        """The coroutines awaited on another line than the call that made them, and never handed to an outside
        callable: by making call site, the units to leave out there; by awaiting unit, the calls to add."""
        if self._moved is None:
            handed = self.session.handed_coroutines
            hidden: dict[tuple[str, SiteKey], set[int]] = {}
            added: dict[int, list[tuple[SiteKey, Value, int]]] = {}
            for unit in self.session.units.values():
                for path, made_at, awaited_at, coroutine, made in unit.awaited_elsewhere:
                    if coroutine in handed:
                        continue
                    hidden.setdefault((path, made_at), set()).add(made)
                    added.setdefault(unit.id, []).append((awaited_at, coroutine.callee, made))
            self._moved = (hidden, added)
        return self._moved

    def calls_at(self, module: ModuleSummary, span: Span) -> dict[Value, set[int]]:
        """The values the call at ``span`` may call, each with the units it ran (empty: not analyzed code)."""
        return self._site_index().get((module.path, site_key(span)), {})


    def callees(self, module: ModuleSummary, span: Span) -> Values:
        return frozenset(self.calls_at(module, span))

    def units(self, ids: set[int]) -> list[Unit]:
        """The units, in an order that does not depend on the order the analysis ran in."""
        found = [self.engine.units[i] for i in ids if i in self.engine.units]
        return sorted(found, key=unit_order)

    # --- searches -----------------------------------------------------------------------

    def reach(
        self, starts: list[Unit], wanted: Callable[[Unit, SiteKey, Value], bool], follow: Callable[[Value], bool] = None,
    ) -> Reached | None:
        """The first call ``wanted`` accepts, searching from ``starts`` breadth first through the units their
        calls ran (calls of values ``follow`` accepts: plain code by default, never a step's body)."""
        follow = follow or is_plain_callable
        chains: dict[int, tuple[Unit, ...]] = {}
        queue: deque[Unit] = deque()
        for unit in starts:
            if unit.id not in chains:
                chains[unit.id] = (unit,)
                queue.append(unit)
        while queue:
            unit = queue.popleft()
            site_calls = self.site_calls(unit)
            for key in sorted(site_calls):
                calls = site_calls[key]
                ordered = sorted(calls, key=stable_key)
                for callee in ordered:
                    if wanted(unit, key, callee):
                        return Reached(chains[unit.id], key, callee)
                for callee in ordered:
                    if not follow(callee):
                        continue
                    for found in self.units(calls[callee]):
                        if found.id not in chains:
                            chains[found.id] = (*chains[unit.id], found)
                            queue.append(found)
        return None

    def handed_over(self) -> Iterator[HandedOver]:
        """Every call of an outside callable that was given coroutines, in a stable order."""
        for unit in sorted(self.session.units.values(), key=unit_order):
            for key in sorted(unit.handed):
                for callee, coroutines in sorted(unit.handed[key].items()):
                    yield HandedOver(unit, key, callee, tuple(sorted(coroutines, key=stable_key)))


def unit_order(unit: Unit) -> tuple:
    return (stable_key(unit.function), [sorted(stable_key(v) for v in values) for values in unit.params], unit.wide)


def is_plain_callable(value: Value) -> bool:
    """A call of this value runs analyzed code that is not a step's or workflow's body."""
    return isinstance(value, (FunctionValue, BoundMethod, ClassValue, InstanceValue, PartialValue))


def steps_among(values: Values, kind: str = "step") -> list[StepValue]:
    return sorted((v for v in values if isinstance(v, StepValue) and v.kind == kind), key=stable_key)


class ProtocolCalls(dict):
    """The calls Python makes for a statement or expression (``ModuleFlow.calls_at`` of an implicit call site):
    every one of them runs, none is an alternative to another."""


def candidates(values: Values) -> int:
    """How many values a callee may be, the unknown aside (for "one of N values"). A class's methods recorded at
    its call (``__init__``, ``__post_init__``: Python runs them for the call) are part of the class, not others."""
    if isinstance(values, ProtocolCalls):
        return 1 if values else 0
    classes = {(v.path, v.qualname) for v in values if isinstance(v, ClassValue)}
    return len([v for v in values if v is not UNKNOWN and not isinstance(v, (ContainerValue, ExternalValue))
                and not (isinstance(v, FunctionValue) and (v.path, v.qualname.rpartition(".")[0]) in classes)])


def function_of(unit: Unit) -> FunctionValue | None:
    return unit.function if isinstance(unit.function, FunctionValue) else None


def unit_display(unit: Unit) -> str:
    """A unit's function as messages name it: ``helper``, ``Notifier.send``, ``outer.inner``."""
    function = function_of(unit)
    return display_qualname(function.qualname) if function is not None else unit.module.module


def unit_qualified(unit: Unit) -> str:
    """A unit's function by its full dotted name (``pkg.mod.Notifier.send``), as JSON's ``chain`` gives it."""
    function = function_of(unit)
    if function is None:
        return unit.module.module
    return f"{unit.module.module}.{display_qualname(function.qualname)}"


def describe_callee(expr) -> str:  # noqa: ANN001 - a core.summary expression form
    """What a call's callee is written as, for "one of N values of X"."""
    if isinstance(expr, Ref):
        return expr.dotted
    if isinstance(expr, Subscript):
        return describe_callee(expr.base)
    if isinstance(expr, Attr):
        return f"{describe_callee(expr.base)}.{expr.attr}"
    if isinstance(expr, CallExpr):
        return f"{describe_callee(expr.func)}(...)"
    return "the callee"


def callers_chain(unit: Unit, engine: Engine) -> list[Unit]:
    """The units from a root of the session down to ``unit``, following who first called whom."""
    chain = [unit]
    seen = {unit.id}
    while chain[-1].caller and chain[-1].caller not in seen:
        caller = engine.units.get(chain[-1].caller)
        if caller is None or caller.session is not unit.session:
            break
        seen.add(caller.id)
        chain.append(caller)
    return list(reversed(chain))
