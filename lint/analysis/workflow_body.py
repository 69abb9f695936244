"""The calls a workflow body makes outside any step that reach an outside function a rule looks for.

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

from steplint.analysis.flow import is_plain_callable, unit_display
from steplint.analysis.program import Analysis, Decorated
from steplint.analysis.values import ExternalValue
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


def body_calls_reaching(analysis: Analysis, module: ModuleSummary,
                        wanted: Callable[[str], bool]) -> Iterator[BodyCall]:
    """Each call in the bodies of ``module``'s workflows that makes or reaches an outside call ``wanted`` accepts."""
    flow = analysis.flow(module)
    for workflow in analysis.workflows_in(module):
        body = workflow.body
        if body is None:
            continue
        for call in body.calls:
            if call.in_lambda:
                continue
            calls = flow.calls_at(workflow.module, call.span)
            names = sorted(v.name for v in calls if isinstance(v, ExternalValue) and wanted(v.name))
            if names:
                yield BodyCall(workflow, call, names[0])
                continue
            starts = [u for callee, ids in calls.items() if is_plain_callable(callee) for u in flow.units(ids)]
            found = flow.reach(
                starts, lambda unit, site, callee: isinstance(callee, ExternalValue) and wanted(callee.name)
            ) if starts else None
            if found is not None:
                helpers = tuple(unit_display(unit) for unit in found.chain)
                yield BodyCall(workflow, call, found.callee.name, helpers)  # type: ignore[union-attr]
