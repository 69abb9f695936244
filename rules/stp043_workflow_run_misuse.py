from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator

from steplint.analysis.graph_pins import PIN_WORKFLOW_BODY
from steplint.analysis.function_values import FunctionValues
from steplint.analysis.module_names import MafNames, MafReach
from steplint.analysis.program import Analysis, Decorated
from steplint.analysis.values import ExternalValue, StepValue
from steplint.core.diagnostics import Diagnostic, Fix
from steplint.core.framework_versions import Version, WORKFLOW_DEFINITION, format_version
from steplint.core.summary import (
    Attr, AttrTarget, CallExpr, CallSite, Const, Expr, FunctionSummary, IfStmt, ModuleSummary, Ref, Span, iter_calls,
    spelled,
)
from steplint.fixes.rewrites import call_through_method
from steplint.fixes.source_texts import source_text
from steplint.rules.base import BROKEN, Rule

# From 1.14.0 `workflow` returns a FunctionalWorkflowDefinition, which has only `build()` (no `run`, no
# `__call__`); up to 1.13.x it returned the FunctionalWorkflow itself, with `run()`. MAF source:
# agent_framework/_workflows/_functional.py, `def workflow(...)` and `class FunctionalWorkflowDefinition` (1.14.0).
DEFINITION_RELEASE: Version = WORKFLOW_DEFINITION
# Keywords of `run()` a freshly built workflow cannot answer: `responses=` needs a pending request from an
# earlier run of the same instance (`FunctionalWorkflow.run`, "do not correspond to any pending request",
# 1.2.0 to 1.26.0), unless `checkpoint_id=` restores one.
_NEEDS_EARLIER_RUN = "responses"
_RESTORES = "checkpoint_id"
# What a FunctionalWorkflow has and a definition (1.14+) lacks, as application code calls it.
_DEFINITION_LACKS_NAMES = ("run", "as_agent")
_DEFINITION_LACKS = tuple(f".{name}" for name in _DEFINITION_LACKS_NAMES)
# MAF's agent adapter: it takes a FunctionalWorkflow and calls its run() on the agent's first run().
_AGENT = "FunctionalWorkflowAgent"


def _workflows(analysis: Analysis, values, built: bool = False) -> list[Decorated]:  # noqa: ANN001 - Values
    """The workflow definitions ``values`` surely are (any other value, an unknown included: none); with ``built``,
    the runnable workflows ``FunctionalWorkflow(fn, ...)`` made count too (neither is callable)."""
    if not values or not all(isinstance(v, StepValue) and v.kind == "workflow" for v in values):
        return []
    found = {item.key: item for item in (analysis.step_for(v) for v in values) if item is not None}
    if not built and (any(item.built for item in found.values())
                      or any(v.options is not None and v.options.built for v in values)):
        return []
    return sorted(found.values(), key=lambda item: item.display)


class WorkflowRunMisuse(Rule):
    """
    ## What it does
    Finds a workflow run in a way agent-framework-core refuses:

    - `pipeline.run(...)` or `pipeline.as_agent(...)` on the `@workflow`
      definition, when the target version is 1.14 or newer (silent on 1.13
      and older, where the definition is the runnable workflow);
    - `FunctionalWorkflowAgent(pipeline)` given the definition, on 1.14 or
      newer: the agent is made, and its first `run()` raises;
    - `pipeline(...)` or `await pipeline(...)`: calling the definition (or
      the workflow `FunctionalWorkflow(fn, ...)` made), on any version;
    - `pipeline.build().run(responses=...)` without `checkpoint_id=`: a
      freshly built workflow has no pending request to answer, on any
      version.

    The definition is found through the value flow: a module-level name,
    an imported name (at module level, or by an import inside the calling
    function) or an attribute of an imported module that holds what
    `workflow` (or `FunctionalWorkflowDefinition(fn, ...)`) made; what
    `FunctionalWorkflow(fn, ...)` makes is the runnable workflow, whose
    `run()` is right. Through a compatibility module too (`try: from
    agent_framework import step, workflow` / `except ImportError:`
    stand-ins: every targeted release exports both names, so the stand-ins
    never replace them). The receiver of `run()`, `as_agent()` and the
    agent's argument are also followed through the value flow of the
    calling function, in a module that makes a workflow or imports one of
    the project's modules that does: a name it binds (`flow =
    make_flow()`), a factory's result (`make_flow().run(...)`), an
    instance's attribute (`Holder().flow.run(...)`), and
    `self._workflow.run(...)` in a method, with every value the class's
    methods give the attribute. Reported only where every value is a
    definition: a parameter is unknown, and an attribute a method rebinds
    to `self._workflow.build()` may be either. An attribute read on
    `self` is not reported where other code of the module, or of a base
    class's module, writes that attribute (`configure(runner)`, a base
    class's setter, `setattr`) or a subclass binds it in its body; code of
    other modules that sets it is not seen, so these findings offer no
    fix. Module-level code reaches a definition only through names. A
    `.run()` under
    `if hasattr(pipeline, "run"):` (`as_agent()` under `hasattr(pipeline,
    "as_agent")`) is not reported: it runs only where the definition has
    the method (1.13 and older). Only modules whose imports
    (followed at any depth, imports inside functions included) reach
    `agent_framework` are read: no other can hold a workflow.

    ## Why is this bad?
    From 1.14, `workflow` returns a `FunctionalWorkflowDefinition`, which
    has only `build()`: `pipeline.run(...)` raises `AttributeError`.
    Neither the definition nor a built workflow is callable, so
    `pipeline(...)` raises `TypeError` on every version. `run(responses=...)`
    resumes the request an earlier run of the same instance left pending;
    a new instance has none and raises `ValueError` ("responses ... do not
    correspond to any pending request"). Code written for 1.13 and older
    (`pipeline.run(...)`) breaks on upgrade.

    ## Example
    ```python
    from agent_framework import step, workflow


    @step
    async def shout(text: str) -> str:
        return text.upper()


    @workflow
    async def pipeline(text: str) -> str:
        return await shout(text)


    async def main() -> str:
        result = await pipeline.run("hi")
        return result.get_outputs()[0]
    ```

    ## Use instead
    Build a workflow from the definition (one per caller or session; keep
    it to answer its requests), then run it:
    ```python
    from agent_framework import step, workflow


    @step
    async def shout(text: str) -> str:
        return text.upper()


    @workflow
    async def pipeline(text: str) -> str:
        return await shout(text)


    async def main() -> str:
        result = await pipeline.build().run("hi")
        return result.get_outputs()[0]
    ```

    ## Fix safety
    Safe, for `pipeline.run(...)` on 1.14 and newer: the fix inserts
    `.build()` (`pipeline.build().run(...)`), which runs the same function
    with the same arguments on a new workflow, as the definition did on
    1.13. It is not offered when the call passes `responses=` or
    `checkpoint_id=` (they need the instance, or the checkpoint storage,
    an earlier run used) or `**kwargs`, nor where the receiver was found
    through the value flow of the calling function (code the analysis does
    not see may set it to a built workflow).

    ## References
    - `workflow`, `FunctionalWorkflowDefinition` and `FunctionalWorkflow.run`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    """

    code = "STP043"
    name = "workflow-run-misuse"
    summary = ("a workflow is run in a way MAF refuses (run(), as_agent(), a call or FunctionalWorkflowAgent on the "
               "definition, responses= on a new instance)")
    points_at = "the call expression"
    fix = "safe"
    version_dependent = True
    family = BROKEN
    graph_pin = PIN_WORKFLOW_BODY
    INVALID = (
        """
from agent_framework import workflow

@workflow
async def pipeline(text: str) -> str:
    return text

async def main():
    await pipeline("hi")  # expect: STP043
    await pipeline.build().run(responses={"r1": "yes"})  # expect: STP043
""",
    )
    VALID = (
        """
from agent_framework import workflow

@workflow
async def pipeline(text: str) -> str:
    return text

async def main(pipeline):
    await pipeline.run("hi")
    await pipeline.build().run("hi")
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        unsettled: list[_Unsettled] = []
        callees: dict[tuple, tuple[list[Decorated], bool]] = {}  # the functions of a module call the same names
        for function in module.functions:
            for call in function.calls:
                finding = self._judge(analysis, module, function, call, unsettled, callees)
                if finding is not None:
                    yield finding
        if unsettled and _may_make_workflows(analysis, module):
            yield from self._judge_by_flow(analysis, module, unsettled)

    def _judge(self, analysis: Analysis, module: ModuleSummary, function: FunctionSummary, call: CallSite,
               unsettled: list["_Unsettled"], callees: dict[tuple, tuple[list[Decorated], bool]]) -> Diagnostic | None:
        callee = call.callee
        definition_only = analysis.target_version >= DEFINITION_RELEASE
        if isinstance(callee, Ref) and callee.dotted.endswith(_DEFINITION_LACKS):
            receiver, _, method = callee.dotted.rpartition(".")
            if not definition_only or _under_hasattr_run(module, function, call, receiver, method):
                return None  # runs only where the definition has the method: 1.13 and older
            if _definitions(analysis, module, function, Ref(receiver)):
                return self._run_on_definition(analysis, module, function, call, receiver, method)
            if _bound_in_body(analysis, module, function, receiver):
                unsettled.append(_Unsettled(function, call, method, Ref(receiver), receiver))
            return None
        if isinstance(callee, Attr) and callee.attr == "run" and isinstance(callee.base, CallExpr) \
                and _is_build(callee.base):
            return self._responses_on_new_instance(analysis, module, function, call, callee.base)
        if isinstance(callee, Attr) and callee.attr in _DEFINITION_LACKS_NAMES and definition_only:
            # ``make().run(...)``, ``Holder().flow.run(...)``: only the value flow tells what the receiver is
            unsettled.append(_Unsettled(function, call, callee.attr, callee.base, spelled(callee.base, "")))
            return None
        if isinstance(callee, Ref):
            called, agent = _callee(analysis, module, function, callee, callees)
            if called:
                built = any(item.built for item in called)
                return self._report(analysis, module, call, _called(callee.dotted, analysis.target_version, built))
            if definition_only and call.arg_count and agent:
                given = _given_workflow(function, call)
                if isinstance(given, Ref) and _definitions(analysis, module, function, given):
                    return self._report(analysis, module, call, _agent_message(given.dotted, analysis.target_version))
                if given is not None and (not isinstance(given, Ref)
                                          or _bound_in_body(analysis, module, function, given.dotted)):
                    unsettled.append(_Unsettled(function, call, _AGENT, given, spelled(given, "")))
        return None

    def _judge_by_flow(self, analysis: Analysis, module: ModuleSummary,
                       unsettled: list["_Unsettled"]) -> Iterator[Diagnostic]:
        """The receivers the names did not settle (an attribute set in ``__init__``, a factory's result, a local
        name), read from the value flow of the functions that hold them."""
        functions = {item.function.qualname: item.function for item in unsettled}
        classes = {_method_class(analysis, module, item.function) for item in unsettled} - {None}
        # a method reads what any method of its class set on ``self`` (``__init__``'s ``self._wf = solve``): they run
        # in one session, where an attribute holds every value they wrote
        functions.update((f.qualname, f) for f in module.functions if f.class_qualname in classes)
        with FunctionValues(analysis, module, functions.values()) as flow:
            for item in unsettled:
                if not item.shown or not _workflows(analysis, flow.values(item.function, item.receiver)):
                    continue
                if not _kept_by_its_class(analysis, module, item):
                    continue
                if item.story == _AGENT:
                    yield self._report(analysis, module, item.call, _agent_message(item.shown, analysis.target_version))
                else:
                    # what the flow found is offered no fix: code it does not see (another module) may set the value
                    yield self._run_on_definition(analysis, module, item.function, item.call, item.shown, item.story,
                                                  fixable=False)

    def _run_on_definition(self, analysis: Analysis, module: ModuleSummary, function: FunctionSummary,
                           call: CallSite, receiver: str, method: str = "run", fixable: bool = True) -> Diagnostic:
        version = format_version(analysis.target_version)
        if method != "run":
            message = (f"'{receiver}' is a @workflow definition, which has no {method}() on agent-framework-core "
                       f"{version} (AttributeError; since 1.14 `workflow` returns a FunctionalWorkflowDefinition): "
                       f"call '{receiver}.build().{method}(...)'")
            return self._report(analysis, module, call, message)
        keywords = _keywords(function, call) or {}
        answers = _NEEDS_EARLIER_RUN in keywords and _RESTORES not in keywords and not (
            isinstance(keywords[_NEEDS_EARLIER_RUN], Const) and keywords[_NEEDS_EARLIER_RUN].value is None)
        # run(responses=...) answers the run that paused: a new build() has no pending request (the third story)
        remedy = (f"build it once ('flow = {receiver}.build()'), run that, and answer with "
                  f"'flow.run(responses=...)' on the same built workflow" if answers
                  else f"call '{receiver}.build().run(...)'")
        message = (
            f"'{receiver}' is a @workflow definition, which has no run() on agent-framework-core {version} "
            f"(AttributeError; since 1.14 `workflow` returns a FunctionalWorkflowDefinition): {remedy}"
        )
        finding = self._report(analysis, module, call, message)
        return replace(finding, fix=_build_fix(analysis, module, function, call, receiver)) if fixable else finding

    def _responses_on_new_instance(self, analysis: Analysis, module: ModuleSummary, function: FunctionSummary,
                                   call: CallSite, built: CallExpr) -> Diagnostic | None:
        keywords = _keywords(function, call)
        if keywords is None or _NEEDS_EARLIER_RUN not in keywords or _RESTORES in keywords:
            return None
        if isinstance(keywords[_NEEDS_EARLIER_RUN], Const) and keywords[_NEEDS_EARLIER_RUN].value is None:
            return None
        receiver = built.func.dotted[: -len(".build")]
        if not _definitions(analysis, module, function, Ref(receiver)):
            return None
        message = (
            f"'{receiver}.build()' makes a new workflow with no pending request, so run(responses=...) raises "
            "ValueError ('do not correspond to any pending request') on every release: answer on the workflow "
            "whose run asked, or restore its checkpoint with checkpoint_id="
        )
        return self._report(analysis, module, call, message)

    @staticmethod
    def _report(analysis: Analysis, module: ModuleSummary, call: CallSite, message: str) -> Diagnostic:
        return analysis.diagnostic(module, call.span, WorkflowRunMisuse, message)


@dataclass(frozen=True, slots=True)
class _Unsettled:
    """A call whose receiver (or, for the agent, whose workflow argument) the names did not settle."""

    function: FunctionSummary
    call: CallSite
    story: str  # the method called on the receiver, or _AGENT
    receiver: Expr
    shown: str


def _callee(analysis: Analysis, module: ModuleSummary, function: FunctionSummary, callee: Ref,
            callees: dict[tuple, tuple[list[Decorated], bool]]) -> tuple[list[Decorated], bool]:
    """The workflows (definitions or built) a called name surely is, and whether it is MAF's agent adapter, once per
    name and the scope its value depends on (``MafNames.scope_key``)."""
    names = analysis.service(MafNames)
    scope = None if function.qualname == "<module>" else function
    key = names.scope_key(module, scope, callee.dotted)
    found = callees.get(key)
    if found is None:
        found = callees[key] = (_definitions(analysis, module, function, callee, built=True),
                                _is_agent(names.values(module, scope, callee)))
    return found


def _is_build(expr: CallExpr) -> bool:
    """``name.build()``: what ``run(responses=...)`` on it is judged by (a built workflow's ``run`` is right)."""
    return isinstance(expr.func, Ref) and expr.func.dotted.endswith(".build")


def _call_expr(function: FunctionSummary, call: CallSite) -> CallExpr | None:
    """The call expression of a call site (None: not found)."""
    return next((expr for expr in iter_calls(function.body) if expr.span == call.span), None)


def _given_workflow(function: FunctionSummary, call: CallSite) -> Expr | None:
    """The workflow argument of ``FunctionalWorkflowAgent(workflow, ...)`` (None: not found)."""
    expr = _call_expr(function, call)
    return None if expr is None else expr.args[0] if expr.args else expr.kwarg("workflow")


def _bound_in_body(analysis: Analysis, module: ModuleSummary, function: FunctionSummary, dotted: str) -> bool:
    """Whether the head of ``dotted`` is what only the value flow of the function can tell: a name a function scope
    binds other than as a parameter (``flow = make_flow()``), or a method's first parameter. A module-level or imported
    name was read by ``_definitions`` already, and another parameter holds what callers pass (unknown)."""
    head = dotted.split(".", 1)[0]
    found = analysis.index.find_binding(module, function, head)
    if found is None:
        return False
    scope, bindings = found
    if scope.class_qualname is not None and scope.params and scope.params[0].name == head:
        return True  # a method's first parameter (``self``, ``cls``; a staticmethod's stays unknown in the flow)
    return any(binding.kind != "param" for binding in bindings)


def _kept_by_its_class(analysis: Analysis, module: ModuleSummary, item: "_Unsettled") -> bool:
    """For ``self.attr`` (``cls.attr``) read in a method: the flow saw every write to ``attr`` only where nothing
    else in the module writes it (``configure(runner)``, a setter of another class, ``setattr``), no other class
    of the module binds it in its body (a subclass's ``attr = ...``), and no base class of the project, at any depth,
    writes or binds it. Any other receiver: True."""
    receiver = item.receiver
    if not isinstance(receiver, Ref) or "." not in receiver.dotted:
        return True
    head, attr = receiver.dotted.split(".")[:2]
    owner = _method_class(analysis, module, item.function)
    found = analysis.index.find_binding(module, item.function, head)
    if owner is None or found is None or not found[0].params or found[0].params[0].name != head:
        return True
    modules = {module.path: module}
    related = {(module.path, owner)}  # the class, its bases of the project (at any depth), its subclasses in the module
    pending = [(module, next((c for c in module.classes if c.qualname == owner), None))]
    while pending:
        holder, cls = pending.pop()
        for base in cls.bases if cls is not None else ():
            target = analysis.index.resolve(holder, None, base) if isinstance(base, Ref) else None
            if target is not None and target.module is not None and (target.module.path, target.name) not in related:
                modules.setdefault(target.module.path, target.module)
                related.add((target.module.path, target.name))
                pending.append((target.module, target.cls))
    for other in module.classes:
        if any(isinstance(base, Ref) and (target := analysis.index.resolve(module, None, base)) is not None
               and target.module is module and target.name == owner for base in other.bases):
            related.add((module.path, other.qualname))
    for holder in modules.values():
        if any((holder.path, c.qualname) in related - {(module.path, owner)} and attr in c.body_names
               for c in holder.classes):
            return False
        for function in holder.functions:
            method = _enclosing_method(analysis, holder, function)
            method_of = method.class_qualname if method is not None else None
            if holder is module and method_of == owner:
                continue
            # ``self.attr = ...`` in another class's method writes that class's instances only
            own = method.params[0].name if method is not None and method.params else None
            if _writes_attribute(function.body, attr, own if (holder.path, method_of) not in related else None):
                return False
    return True


def _writes_attribute(node: object, attr: str, unrelated_self: str | None = None) -> bool:
    """Whether ``node`` (statements) assigns ``<anything>.attr`` or calls ``setattr``; ``unrelated_self``: the first
    parameter of a method of a class unrelated to the reader's, whose ``self.attr = ...`` does not count."""
    if isinstance(node, AttrTarget):
        if node.attr == attr and not (isinstance(node.base, Ref) and node.base.dotted == unrelated_self):
            return True
        return _writes_attribute(node.base, attr, unrelated_self)
    if isinstance(node, CallExpr) and isinstance(node.func, Ref) and node.func.dotted.rsplit(".", 1)[-1] in (
            "setattr", "__setattr__"):
        return True
    if isinstance(node, tuple):
        return any(_writes_attribute(item, attr, unrelated_self) for item in node)
    if node is None or isinstance(node, (str, int, float, bool, bytes, Span)):
        return False
    return any(_writes_attribute(getattr(node, name, None), attr, unrelated_self)
               for name in getattr(type(node), "__slots__", ()))


def _enclosing_method(analysis: Analysis, module: ModuleSummary, function: FunctionSummary) -> FunctionSummary | None:
    """The method ``function`` is, or is nested in (whose first parameter it may read)."""
    current: FunctionSummary | None = function
    while current is not None and current.class_qualname is None:
        current = analysis.index.function(module, current.parent)
    return current


def _method_class(analysis: Analysis, module: ModuleSummary, function: FunctionSummary) -> str | None:
    """The class of the method ``function`` is, or is nested in (whose ``self`` it may read)."""
    method = _enclosing_method(analysis, module, function)
    return method.class_qualname if method is not None else None


def _may_make_workflows(analysis: Analysis, module: ModuleSummary) -> bool:
    """Whether a definition can reach the value flow of ``module``'s functions, as far as the rule looks: the module
    makes a workflow, or one of the project's modules it imports does (a factory, a module-level definition). A
    definition that comes from further away is not followed: the flow of a function that calls into a large
    library's code costs much more than the rest of the rule."""
    if not analysis.service(MafReach).reaches(module) or analysis.workflows_in(module):
        return bool(analysis.workflows_in(module))
    # The imports are loaded as an import of them would be (so every process, and a run of this one file, answers
    # alike, and the cache records them).
    names = list(analysis.service(MafReach).imports_of(module))
    return any(analysis.workflows_in(loaded) for loaded in analysis.engine.imported_modules(module, names))


def _is_agent(values) -> bool:  # noqa: ANN001 - Values
    """``values`` are MAF's agent adapter (``FunctionalWorkflowAgent``, imported under any name)."""
    return bool(values) and all(isinstance(v, ExternalValue) and v.name.startswith("agent_framework.")
                                and v.name.rsplit(".", 1)[-1] == _AGENT for v in values)


def _agent_message(shown: str, target: Version) -> str:
    return (f"'{shown}' is a @workflow definition, which FunctionalWorkflowAgent cannot run on agent-framework-core "
            f"{format_version(target)}: the agent is made, and its first run() raises AttributeError (a "
            f"FunctionalWorkflowDefinition has no run() since 1.14); pass '{shown}.build()'")


def _definitions(analysis: Analysis, module: ModuleSummary, function: FunctionSummary, expr: Ref,
                 built: bool = False) -> list[Decorated]:
    """The workflow definitions ``expr`` surely is (with ``built``, or runnable workflows): through module-level
    names, or a ``@workflow`` ``def`` of the function that reads it (or of one around it)."""
    scope = None if function.qualname == "<module>" else function
    # Only a module whose imports reach agent_framework can hold a workflow: no other's import is run.
    found = _workflows(analysis, analysis.service(MafNames).values(module, scope, expr), built)
    return found or _local_definitions(analysis, module, scope, expr, built)


def _local_definitions(analysis: Analysis, module: ModuleSummary, scope: FunctionSummary | None,
                       expr: Ref, built: bool = False) -> list[Decorated]:
    """A name its function scope binds only by ``def`` statements, each decorated into a workflow (a helper that
    defines its workflow and calls it); any other binding there, a rebinding included: none."""
    if "." in expr.dotted:
        return []
    while scope is not None and scope.qualname != "<module>":
        if expr.dotted in scope.declared_global:
            return []
        bindings = scope.bindings.get(expr.dotted)
        if bindings is not None:
            if not all(binding.kind == "def" for binding in bindings):
                return []
            defined = {item.body.qualname: item for item in analysis.workflows_in(module)
                       if item.decorated and item.body is not None}
            found = [defined.get(binding.target) for binding in bindings]
            if not all(found) or (not built and any(item.built for item in found)):  # type: ignore[union-attr]
                return []
            return sorted({item.key: item for item in found}.values(), key=lambda item: item.display)  # type: ignore[union-attr]
        scope = analysis.index.function(module, scope.parent)
    return []


def _under_hasattr_run(module: ModuleSummary, function: FunctionSummary, call: CallSite, receiver: str,
                       method: str = "run") -> bool:
    """Whether ``call`` sits in the body of ``if hasattr(<receiver>, "<method>"):`` (the builtin ``hasattr``)."""
    if not any(type(site.callee) is Ref and site.callee.dotted == "hasattr" for site in function.calls):
        return False  # no ``hasattr(...)`` test in the function (most): its statements are not walked
    if "hasattr" in module.bindings or any("hasattr" in f.bindings for f in module.functions):
        return False
    blocks = [function.body]
    while blocks:
        for statement in blocks.pop():
            if isinstance(statement, IfStmt) and _tests_has(statement.test, receiver, method) and any(
                    expr.span == call.span for expr in iter_calls(statement.body)):
                return True
            blocks.extend(getattr(statement, field) for field in ("body", "orelse", "final")
                          if isinstance(getattr(statement, field, None), tuple))
            blocks.extend(body for *_, body in getattr(statement, "handlers", None) or getattr(statement, "cases", None)
                          or ())
    return False


def _tests_has(test: object, receiver: str, method: str) -> bool:
    return (isinstance(test, CallExpr) and isinstance(test.func, Ref) and test.func.dotted == "hasattr"
            and len(test.args) == 2 and not test.kwargs and isinstance(test.args[0], Ref)
            and test.args[0].dotted == receiver and isinstance(test.args[1], Const) and test.args[1].value == method)


def _called(name: str, target: Version, built: bool = False) -> str:
    if built:
        return (f"'{name}' is a workflow (FunctionalWorkflow), which is not callable (TypeError): run it with "
                f"'{name}.run(...)' and read the result's get_outputs()")
    runs = f"'{name}.build().run(...)'" if target >= DEFINITION_RELEASE else f"'{name}.run(...)'"
    return (
        f"'{name}' is a @workflow definition, which is not callable on agent-framework-core "
        f"{format_version(target)} (TypeError): run it with {runs} and read the result's get_outputs()"
    )


def _keywords(function: FunctionSummary, call: CallSite) -> dict | None:
    """The call's keyword arguments by name (``**`` for a ``**mapping``), or None where it is not found."""
    expr = _call_expr(function, call)
    return dict(expr.kwargs) if expr is not None else None


def _build_fix(analysis: Analysis, module: ModuleSummary, function: FunctionSummary, call: CallSite,
               receiver: str) -> Fix | None:
    keywords = _keywords(function, call)
    if keywords is None or {_NEEDS_EARLIER_RUN, _RESTORES, "**"} & set(keywords):
        return None
    return call_through_method(
        source_text(analysis, module), call.span, f"{receiver}.run", "build",
        title=f"Run a built workflow: '{receiver}.build().run(...)'", safe=True,
    )
