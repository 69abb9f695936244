"""What a workflow body reaches outside steps: the outside calls a rule looks for, and the steps it calls.

A workflow body runs again from the top on every resume; what it calls
outside steps runs again with it. A call is found where the body makes it
(``requests.post(...)``), or where the body calls a plain helper of the
analyzed code that makes it, directly or through other plain helpers
(``flow.reach``: steps are never followed, their results are replayed).
Calls inside a lambda are left out: it may run later, inside a step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from steplint.analysis.flow import ModuleFlow, SiteKey, is_plain_callable, unit_display
from steplint.analysis.interpreter import Unit
from steplint.analysis.program import Analysis, Decorated
from steplint.analysis.values import ExternalValue, StepValue
from steplint.core.summary import CallSite, ModuleSummary


@dataclass(frozen=True, slots=True)
class BodyCall:
    """A call in ``workflow``'s body that makes (``helpers`` empty) or reaches the outside call ``reached``."""

    workflow: Decorated
    call: CallSite
    reached: str
    helpers: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        """``workflow -> helper -> requests.post``."""
        return " -> ".join([self.workflow.display, *self.helpers, self.reached])


def body_calls(analysis: Analysis, module: ModuleSummary) -> Iterator[tuple[Decorated, CallSite, dict]]:
    """Each call in the bodies of ``module``'s workflows (not inside a lambda), with what it may call
    (``ModuleFlow.calls_at``)."""
    flow = analysis.flow(module)
    for workflow in analysis.workflows_in(module):
        body = workflow.body
        if body is None:
            continue
        for call in body.calls:
            if not call.in_lambda:
                yield workflow, call, flow.calls_at(workflow.module, call.span)


def body_calls_reaching(analysis: Analysis, module: ModuleSummary,
                        wanted: Callable[[str], bool]) -> Iterator[BodyCall]:
    """Each call in the bodies of ``module``'s workflows that makes or reaches an outside call ``wanted`` accepts."""
    flow = analysis.flow(module)
    for workflow, call, calls in body_calls(analysis, module):
        found = reaching(flow, calls, wanted)
        if found is not None:
            yield BodyCall(workflow, call, *found)


def reaching(flow: ModuleFlow, calls: dict, wanted: Callable[[str], bool]) -> tuple[str, tuple[str, ...]] | None:
    """The outside call ``wanted`` accepts that a call of ``calls`` (``ModuleFlow.calls_at``) makes, or reaches
    through plain helpers: (its name, the helpers on the way, empty when the call makes it)."""
    names = sorted(v.name for v in calls if isinstance(v, ExternalValue) and wanted(v.name))
    if names:
        return names[0], ()
    starts = [u for callee, ids in calls.items() if is_plain_callable(callee) for u in flow.units(ids)]
    found = flow.reach(
        starts, lambda unit, site, callee: isinstance(callee, ExternalValue) and wanted(callee.name)
    ) if starts else None
    if found is None:
        return None
    return found.callee.name, tuple(unit_display(unit) for unit in found.chain)  # type: ignore[union-attr]


@dataclass(frozen=True, slots=True)
class StepCall:
    """A call of ``step`` that ``workflow``'s body makes, in ``unit`` (the body, or a plain helper it calls)."""

    step: Decorated
    unit: Unit
    site: SiteKey


def steps_called(analysis: Analysis, workflow: Decorated) -> list[StepCall]:
    """Every call of a step the workflow's body makes, directly or through plain helpers (never inside a step)."""
    body = workflow.body
    flow = analysis.flow(workflow.module)
    root = flow.roots.get((workflow.module.path, body.qualname)) if body is not None else None
    if root is None:
        return []
    found: list[StepCall] = []

    def record(unit: Unit, site: SiteKey, callee: object) -> bool:
        if isinstance(callee, StepValue) and callee.kind == "step":
            step = analysis.step_for(callee)
            if step is not None and _describes(step, callee):
                found.append(StepCall(step, unit, site))
        return False  # keep searching: every call is wanted

    flow.reach([root], record)
    return found


def _describes(step: Decorated, value: StepValue) -> bool:
    """Whether ``step`` is the definition of ``value``'s function: a factory that makes steps in its own body
    (``def step(func): return maf.step(func)``) makes them all at one site, which stands for any of them."""
    function = value.function
    return function is None or step.body is None or (
        (step.module.path, step.body.qualname) == (function.path, function.qualname))
