"""The picture of a workflow: the steps its body runs, what each step reaches, and where the hazards are.

Built from the same value flow the rules read (``steplint.analysis.flow``): a
workflow's body is a root of its module's session, each of its calls goes
where its callee's values say, and plain helpers are followed in the context
of the call until they meet a step. A step's own body is followed the same
way, so a step that reaches another step is an edge between them. The
findings of the run are then pinned on the node (a step's definition) or the
edge (the call) they point at.

The data (``Graph``) is what the formats draw (``steplint.report.graph_formats``)
and what ``--format json`` prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from steplint.analysis.builtin_models import spawners_for
from steplint.analysis.graph_pins import (
    PIN_BODY,
    PIN_CALL,
    PIN_CALL_AND_CALLEE,
    PIN_DEFINITION,
    PIN_DEFINITION_OR_GRAPH,
    PIN_WORKFLOW_BODY,
)
from steplint.analysis.flow import ModuleFlow, candidates, function_of, is_plain_callable, unit_display, unit_qualified
from steplint.analysis.interpreter import Unit
from steplint.analysis.program import Analysis, Decorated
from steplint.analysis.values import CoroutineValue, PartialValue, StepValue, stable_key
from steplint.core.diagnostics import Diagnostic
from steplint.core.summary import display_qualname, CallSite, ModuleSummary, Ref

@dataclass
class Hazard:
    code: str
    severity: str
    message: str
    path: str
    line: int


@dataclass
class Node:
    id: str
    kind: str  # "workflow", "step" or "helper"
    name: str  # as messages name it
    qualified: str
    module: str
    path: str
    line: int
    hazards: list[Hazard] = field(default_factory=list)


@dataclass
class Edge:
    source: str
    target: str
    kind: str  # "awaited", "concurrent" (a task of its own) or "value" (through a container, callback, partial)
    order: int  # the edges from one node, in call order
    path: str  # where the call is (for a collapsed helper chain: the first call)
    line: int
    column: int
    via: list[str] = field(default_factory=list)  # the helpers between, when collapsed
    hazards: list[Hazard] = field(default_factory=list)
    #: every call this edge stands for: ((path, line, column) in the source node, of the call reaching the target)
    calls: list[tuple[tuple, tuple]] = field(default_factory=list)


@dataclass
class Graph:
    workflows: list[str]  # the workflows drawn (their qualified names)
    grouped: bool = False  # the project-wide view: nodes grouped by module
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    hazards: list[Hazard] = field(default_factory=list)  # findings no node or edge of the graph holds

    def node(self, node_id: str) -> Node:
        return next(n for n in self.nodes if n.id == node_id)


class GraphBuilder:
    """Graphs over one analysis; ``show_helpers`` draws helpers as nodes instead of collapsing them into labels.

    ``pins`` says where each rule's findings go, by code (each rule's ``graph_pin``); a code it lacks is pinned to
    the definition it points into.
    """

    def __init__(
        self, analysis: Analysis, findings: list[Diagnostic], show_helpers: bool = False,
        pins: Mapping[str, str] | None = None,
    ):
        self.analysis = analysis
        self.findings = findings
        self.show_helpers = show_helpers
        self.pins = pins or {}

    # --- entry -------------------------------------------------------------------------

    def workflows(self, modules: list[ModuleSummary]) -> list[tuple[Decorated, ModuleSummary]]:
        """Every workflow ``modules`` define, with the module whose check found it."""
        found = [(item, module) for module in modules for item in self.analysis.workflows_in(module) if item.body is not None]
        return sorted(found, key=lambda pair: (pair[0].module.path, pair[0].anchor.line))

    def for_workflows(self, workflows: list[tuple[Decorated, ModuleSummary]]) -> Graph:
        """What each workflow reaches, in one graph (a step two workflows run is one node)."""
        graph = Graph(workflows=[])
        state = _State(graph)
        for workflow, module in workflows:
            graph.workflows.append(state.decorated_node(workflow).qualified)
            self._start(state, module, workflow)
        self._pin(state)
        return graph

    def project(self, modules: list[ModuleSummary]) -> Graph:
        """Every workflow and step of ``modules``, and what each reaches, grouped by module."""
        graph = Graph(workflows=[], grouped=True)
        state = _State(graph)
        for module in modules:
            for item in sorted(self.analysis.decorated_in(module), key=lambda d: (d.module.path, d.anchor.line)):
                if item.body is not None:
                    node = state.decorated_node(item)
                    if item.kind == "workflow":
                        graph.workflows.append(node.qualified)
                    self._start(state, module, item)
        self._pin(state)
        return graph

    # --- walking the flow ----------------------------------------------------------------

    def _start(self, state: "_State", module: ModuleSummary, item: Decorated) -> None:
        flow = self.analysis.flow(module)
        node = state.decorated_node(item)
        root = flow.roots.get((item.module.path, item.body.qualname)) if item.body is not None else None
        if root is not None:
            self._explore(state, flow, node, [root], item)

    def _explore(self, state: "_State", flow: ModuleFlow, owner: Node, units: list[Unit], owner_item: Decorated) -> None:
        """The edges from ``owner``: what its units call, helpers followed (or drawn), down to steps."""
        if owner.id in state.explored:
            return
        state.explored.add(owner.id)
        # (a unit, the helpers on the way to it, the first call, whether a call on the way runs in another task)
        stack: list[tuple[Unit, list[Unit], tuple | None, bool]] = [(u, [], None, False) for u in units]
        seen: set[int] = set()
        pending_steps: list[tuple[Node, list[Unit], Decorated]] = []
        while stack:
            unit, helpers, first, in_task = stack.pop(0)
            if unit.id in seen:
                continue
            seen.add(unit.id)
            for key in sorted(unit.site_calls):
                calls = unit.site_calls[key]
                site = (unit.module.path, key[0], key[1] + 1)
                start = first or site
                for callee in sorted(calls, key=stable_key):
                    if isinstance(callee, StepValue):
                        item = self.analysis.step_for(callee)
                        if item is None:
                            continue
                        target = state.decorated_node(item)
                        kind = "concurrent" if in_task else self._kind(flow, unit, key, callee, calls)
                        state.edge(owner, target, kind, start, site, [unit_display(h) for h in helpers])
                        if item.kind == "step" and target.id not in state.explored:
                            pending_steps.append((target, flow.units(calls[callee]), item))
                    elif is_plain_callable(callee):
                        for inner in flow.units(calls[callee]):
                            if function_of(inner) is None or self._is_body(inner):
                                continue
                            if self.show_helpers:
                                helper = state.helper_node(inner)
                                state.edge(owner, helper, self._kind(flow, unit, key, callee, calls), start, site, [])
                                self._explore(state, flow, helper, [inner], owner_item)
                            else:
                                handed = in_task or self._handed_over(flow, unit, key)
                                stack.append((inner, [*helpers, inner], start, handed))
        for target, step_units, item in pending_steps:
            step_root = flow.roots.get((item.module.path, item.body.qualname)) if item.body is not None else None
            self._explore(state, flow, target, [*step_units, *([step_root] if step_root else [])], item)

    def _is_body(self, unit: Unit) -> bool:
        """A unit of a step's or workflow's own body (reached through a value): drawn as that step."""
        function = function_of(unit)
        module = self.analysis.engine.modules_by_path.get(unit.module.path)
        return function is not None and module is not None and self.analysis.body_kind(module, unit.summary) is not None

    def _kind(self, flow: ModuleFlow, unit: Unit, key: tuple, callee, calls) -> str:  # noqa: ANN001
        if self._handed_over(flow, unit, key):
            return "concurrent"
        call = _call_site(unit, key)
        through_value = candidates(frozenset(calls)) > 1 or any(isinstance(v, PartialValue) for v in calls)
        if through_value or call is None or not isinstance(call.callee, Ref):
            return "value"
        if isinstance(callee, StepValue):
            step = self.analysis.step_for(callee)
            if step is not None and call.callee.dotted.rsplit(".", 1)[-1] not in (step.display.rsplit(".", 1)[-1], "__wrapped__"):
                return "value"  # a name bound to the step elsewhere: a parameter, a loop variable
        return "awaited"

    def _handed_over(self, flow: ModuleFlow, unit: Unit, key: tuple) -> bool:
        site = (unit.module.path, *key)
        for handed in flow.handed_over():
            if handed.callee in spawners_for(self.analysis.target_python) and any(_coroutine_site(c) == site for c in handed.coroutines):
                return True
        return False

    # --- findings ---------------------------------------------------------------------------

    def _prune(self, graph: Graph) -> None:
        """Drop drawn helpers that lead to no step: the picture is about steps."""
        useful = {n.id for n in graph.nodes if n.kind != "helper"}
        changed = True
        while changed:
            changed = False
            for edge in graph.edges:
                if edge.target in useful and edge.source not in useful:
                    useful.add(edge.source)
                    changed = True
        graph.nodes = [n for n in graph.nodes if n.id in useful]
        graph.edges = [e for e in graph.edges if e.source in useful and e.target in useful]

    def _pin(self, state: "_State") -> None:
        graph = state.graph
        self._prune(graph)
        for finding in sorted(self.findings, key=Diagnostic.sort_key):
            hazard = Hazard(finding.code, finding.severity, finding.message, finding.path, finding.line)
            pin = self.pins.get(finding.code, PIN_DEFINITION)
            if pin in (PIN_CALL, PIN_CALL_AND_CALLEE) and _pin_on_calls(graph, finding, hazard, pin == PIN_CALL_AND_CALLEE):
                continue
            node = state.node_calling(finding) if pin == PIN_BODY else None
            node = node or state.node_defining(finding)
            if node is not None:
                node.hazards.append(hazard)
            elif pin == PIN_DEFINITION_OR_GRAPH:
                graph.hazards.append(hazard)
            elif pin == PIN_WORKFLOW_BODY:
                owner = state.node_holding(finding)
                (owner.hazards if owner is not None else graph.hazards).append(hazard)


def _pin_on_calls(graph: Graph, finding: Diagnostic, hazard: Hazard, on_callee: bool) -> bool:
    """``hazard`` on the edges that stand for the call ``finding`` points at (and, once, on their targets); False
    when no edge does."""
    where = (finding.path, finding.line, finding.column)
    edges = [e for e in graph.edges if any(where in call for call in e.calls)]
    for edge in edges:
        edge.hazards.append(hazard)
    if on_callee:  # the node says it once: its calls in other tasks have no identity
        for edge in edges:
            target = graph.node(edge.target)
            if all(h.code != finding.code for h in target.hazards):
                target.hazards.append(hazard)
    return bool(edges)


def _coroutine_site(coroutine: CoroutineValue) -> tuple:
    return tuple(coroutine.site[:5])


def _call_site(unit: Unit, key: tuple) -> CallSite | None:
    for call in unit.summary.calls:
        if (call.span.line, call.span.col, call.span.end_line, call.span.end_col) == key:
            return call
    holder = unit.summary
    for function in unit.module.functions:  # a lambda's calls are recorded in the function holding it
        if function.qualname == holder.parent:
            for call in function.calls:
                if (call.span.line, call.span.col, call.span.end_line, call.span.end_col) == key:
                    return call
    return None


class _State:
    """Nodes by what they stand for, and the edges, as a graph is built."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.by_key: dict[str, Node] = {}
        self.bodies: dict[str, Decorated] = {}
        self.explored: set[str] = set()
        self.edges: dict[tuple, Edge] = {}

    def _new(self, key: str, **fields: object) -> Node:
        found = self.by_key.get(key)
        if found is None:
            found = self.by_key[key] = Node(id=f"n{len(self.graph.nodes) + 1}", **fields)  # type: ignore[arg-type]
            self.graph.nodes.append(found)
        return found

    def decorated_node(self, item: Decorated) -> Node:
        qualname = display_qualname(item.body.qualname) if item.body is not None else item.display
        node = self._new(
            item.key, kind=item.kind, name=item.display, qualified=f"{item.module.module}.{qualname}",
            module=item.module.module, path=item.module.path, line=item.anchor.line,
        )
        self.bodies[node.id] = item
        return node

    def helper_node(self, unit: Unit) -> Node:
        function = function_of(unit)
        assert function is not None
        return self._new(
            f"{function.path}:{function.qualname}", kind="helper", name=unit_display(unit),
            qualified=unit_qualified(unit), module=unit.module.module, path=unit.module.path,
            line=unit.summary.span.line,
        )

    def edge(self, source: Node, target: Node, kind: str, start: tuple, last: tuple, via: list[str]) -> None:
        """One edge per source, target, kind and helper chain; each call it stands for is kept in ``calls``."""
        key = (source.id, target.id, kind, tuple(via))
        found = self.edges.get(key)
        if found is None:
            order = 1 + sum(1 for e in self.graph.edges if e.source == source.id)
            found = self.edges[key] = Edge(source.id, target.id, kind, order, start[0], start[1], start[2], via)
            self.graph.edges.append(found)
        if (start, last) not in found.calls:
            found.calls.append((start, last))

    def node_defining(self, finding: Diagnostic) -> Node | None:
        """The step whose definition (its ``def``, parameters or defaults, or the ``step(...)`` call that makes
        it: ``@step(name=...)``, ``x = step(name=...)(f)``) a finding points into."""
        for node in self.graph.nodes:
            item = self.bodies.get(node.id)
            body = item.body if item is not None else None
            if body is None:
                continue
            made = item.config_call.span if item.config_call is not None else None
            if made is not None and item.site and item.site[0] == finding.path \
                    and made.line <= finding.line <= made.end_line:
                return node
            if item.module.path != finding.path:
                continue
            last = max([body.span.line, *(p.span.end_line for p in body.params),
                        *(p.default_span.end_line for p in body.params if p.default_span is not None)])
            if item.anchor.line <= finding.line <= last or body.span.line <= finding.line <= last:
                return node
        return None

    def node_calling(self, finding: Diagnostic) -> Node | None:
        """The step or workflow whose body makes the call a finding points at."""
        for node in self.graph.nodes:
            item = self.bodies.get(node.id)
            body = item.body if item is not None else None
            if body is None or item.module.path != finding.path:
                continue
            if any(c.span.line == finding.line and c.span.col + 1 == finding.column for c in body.calls):
                return node
        return None

    def node_holding(self, finding: Diagnostic) -> Node | None:
        """The workflow whose body holds a finding's call (a rule pinned to the workflow body)."""
        best: Node | None = None
        for node in self.graph.nodes:
            item = self.bodies.get(node.id)
            if item is not None and item.kind == "workflow" and item.module.path == finding.path:
                if item.anchor.line <= finding.line and (best is None or best.line < item.anchor.line):
                    best = node
        return best
