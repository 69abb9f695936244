from __future__ import annotations

from typing import Iterator

from steplint.analysis.graph_pins import PIN_DEFINITION_OR_GRAPH
from steplint.analysis.hash_order import is_builtin, string_set
from steplint.analysis.index import Target
from steplint.analysis.module_names import MafNames, MafReach
from steplint.analysis.nondeterminism_sinks import SinkSearch
from steplint.analysis.flow import site_key
from steplint.analysis.program import Analysis, maf_name
from steplint.analysis.values import ExternalValue, StepValue
from steplint.core.diagnostics import Diagnostic
from steplint.core.framework_versions import FINGERPRINT_VERSION, format_version
from steplint.core.summary import (
    CallExpr,
    FunctionSummary,
    ModuleSummary,
    Ref,
    Span,
    iter_calls,
)
from steplint.rules.base import NONDETERMINISM, Rule
from steplint.rules.stp030_nondeterministic_workflow import nondeterministic

#: Values that differ from one process to the next, beyond the clocks and random sources STP030 knows: a
#: resume runs in a new process, often on another machine (a restarted container has another host name).
_PER_PROCESS = frozenset({"os.getpid", "os.getppid", "socket.gethostname", "platform.node", "threading.get_ident",
                          "threading.get_native_id"})
#: Builtins whose result pairs a set's elements with positions: the pairing follows the set's iteration order.
_POSITIONAL = frozenset({"enumerate", "zip"})
_MAKERS = frozenset({"step", "StepWrapper"})
_SET_ORDER = "the iteration order of a set of strings"
_UNASKED = object()


class UnstableStepName(Rule):
    """
    ## What it does
    Finds a step whose `name=` is made from a value that differs from one
    process to the next: a clock, a uuid, `random`, `os.urandom`,
    `secrets` (the calls STP030 knows), the process id or the host name
    (`os.getpid()`, `socket.gethostname()`, `platform.node()`), or a
    position in the iteration order of a set of strings
    (`enumerate({"eu", "us"})`, `zip(a_set, handlers)`), whose order follows
    the process's hash seed. The value is followed from the call that makes
    it through names, operators, f-strings, containers and loops to the
    `name=` of `step(...)`, `step(name=...)(fn)` or `StepWrapper(...)`, in
    the module's code and in any function (a step factory), and into a
    function of the project that passes one of its parameters to such a
    `name=`. Reported at the call that makes the value.

    Silent on a name from a literal, a module constant, an f-string of
    literals or constants, a set's element itself (`{p: step(name=f"part_{p}")(work)
    for p in PARTS}`: the name stays with its element, whatever the order),
    and an environment variable: it is stable for a deployment, and a resume
    is meant to run the same deployment (where the resumed process has
    another value, the resume behaves as below). Known limit: a loop over
    `enumerate(a_set)` taints both names it binds, so a name made from the
    element there is reported too.

    ## Why is this bad?
    MAF keys a step's cached result by its name. A resume runs in a new
    process, where the name comes out different: the checkpoint holds
    results under names no call asks for. Where the workflow names the step
    directly, its name is part of the workflow's signature and MAF refuses
    the checkpoint (`ValueError`: "created by a different version of
    workflow"): the run cannot go on. Where the workflow reaches it as a
    module attribute (`billing.charge(...)`), which the signature does not
    see, the resume goes on and the step runs again: its side effect (a
    charge, an e-mail) is repeated, silently. Names from a set's order
    move between steps: before 1.20 (keys `part_0::0`) a step gets the
    cached result of the call that had its name in the first process,
    silently; from 1.20 (keys carry the arguments) the moved steps run
    again.

    ## Example
    ```python
    import uuid

    from agent_framework import step, workflow


    async def _charge(order_id: str) -> str:
        return f"charged {order_id}"


    charge = step(name=f"charge-{uuid.uuid4().hex[:8]}")(_charge)


    @step
    async def ship(receipt: str) -> str:
        return f"shipped after {receipt}"


    @workflow(name="checkout")
    async def checkout(order_id: str) -> str:
        receipt = await charge(order_id)
        return await ship(receipt)
    ```

    ## Use instead
    Give the step a name that is the same in every process:
    ```python
    from agent_framework import step, workflow


    async def _charge(order_id: str) -> str:
        return f"charged {order_id}"


    charge = step(name="charge")(_charge)


    @step
    async def ship(receipt: str) -> str:
        return f"shipped after {receipt}"


    @workflow(name="checkout")
    async def checkout(order_id: str) -> str:
        receipt = await charge(order_id)
        return await ship(receipt)
    ```

    ## References
    - `StepWrapper.__call__` (the cache key), `FunctionalWorkflow._compute_signature_hash` and its check on restore: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    """

    code = "STP015"
    name = "unstable-step-name"
    summary = "a step's name is made from a uuid, a clock, random, the process or a set's order"
    points_at = "the call that makes the value (`uuid.uuid4()`, `enumerate(a_set)`)"
    version_dependent = True
    family = NONDETERMINISM
    graph_pin = PIN_DEFINITION_OR_GRAPH
    INVALID = (
        """
import time
from agent_framework import step

@step(name=f"report-{time.time_ns()}")  # expect: STP015
async def report(day: str) -> str:
    return day
""",
    )
    VALID = (
        """
import os
from agent_framework import step

PREFIX = "billing"

@step(name=f"{PREFIX}-report")
async def report(day: str) -> str:
    return day

@step(name=os.environ.get("STEP_PREFIX", "x") + "-audit")
async def audit(day: str) -> str:
    return day
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        found = analysis.service(UnstableNames).found(module)
        for key in sorted(found):
            span, what = found[key]
            yield analysis.diagnostic(module, span, UnstableStepName, _message(what, analysis))


class UnstableNames:
    """Where each module's step names are made from a value that varies, once per module (an ``Analysis``
    service): the search does not depend on the target release, which only the message names, so the epochs
    a file's target admits share it."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self._found: dict[str, dict[tuple, tuple[Span, str]]] = {}

    def found(self, module: ModuleSummary) -> dict[tuple, tuple[Span, str]]:
        found = self._found.get(module.path)
        if found is None:
            found = self._found[module.path] = _search(self.analysis, module)
        return found


def _search(analysis: Analysis, module: ModuleSummary) -> dict[tuple, tuple[Span, str]]:
    naming = analysis.service(StepNaming)
    if not analysis.service(MafReach).reaches(module):
        return {}  # no call of it can make a step, nor reach one that does
    sources_by_body: dict[int, dict[tuple, tuple[Span, str]]] = {}  # by position in module.functions
    verdicts: dict = {}
    for position, body in enumerate(module.functions):
        if not body.is_lambda:
            sources = _sources(analysis, module, None if body.qualname == "<module>" else body, body, verdicts)
            if sources:
                sources_by_body[position] = sources
    if not sources_by_body and not analysis.steps_in(module):
        # Without a step of its own, a finding here needs a value that varies (a source, found above through the
        # module-level names other rules read too). Most modules have none, and their flow is never run. Where one
        # has a source, the sink search below follows only what it taints: cheaper than resolving every call of
        # the module first to learn whether one can pass a step's name (measured: 0.41 G of 31.7 G on
        # agent-framework's tree).
        return {}
    flow = analysis.flow(module)
    carried_by_scope: dict[str, dict[str, frozenset]] = {}
    found: dict[tuple, tuple[Span, str]] = {}
    for position, body in enumerate(module.functions):
        if body.is_lambda:
            continue
        scope = None if body.qualname == "<module>" else body
        sources = sources_by_body.get(position)
        if not sources:
            continue
        search = SinkSearch(flow, module, body, set(sources), _step_namer(analysis), only=frozenset({"name"}),
                            step_name_arguments=lambda call, s=scope: naming.arguments(module, s, call))
        for key in search.search():
            found.setdefault(key, sources[key])
        carried_by_scope[body.qualname] = search.names
    for step in analysis.steps_in(module):
        found.update(_in_decorator(analysis, module, step, carried_by_scope, verdicts))
    return found


def _message(what: str, analysis: Analysis) -> str:
    version = format_version(analysis.target_version)
    if what == _SET_ORDER:
        if analysis.target_version >= FINGERPRINT_VERSION:
            outcome = ("the steps whose names moved miss their cached results and run again, repeating their side "
                       "effects (or, where the names went to different functions, MAF refuses the resume)")
        else:
            outcome = ("a step is handed the cached result of the call that had its name in the first process "
                       "(keys 'name::index'), silently")
        return (f"a step's name is made from {what}, which follows the process's hash seed: on "
                f"agent-framework-core {version}, a resume in a new process gives the names to other calls, and "
                f"{outcome}; name each step from its own element, or iterate sorted(...)")
    return (f"a step's name is made from {what}, which differs in every process: on agent-framework-core {version}, "
            "a resume in a new process looks the step's result up under another name; where the workflow names the "
            "step directly MAF refuses the checkpoint ('created by a different version of workflow'), and where it "
            "reaches it as a module attribute the step runs again, repeating its side effect; give the step a "
            "constant name")


def _step_namer(analysis: Analysis):  # noqa: ANN202
    def name(step: StepValue) -> str:
        found = analysis.step_for(step)
        return found.display if found is not None else "?"
    return name


# --- where the values come from ---------------------------------------------------------------------------

def _sources(analysis: Analysis, module: ModuleSummary, scope: FunctionSummary | None, body: FunctionSummary,
             verdicts: dict) -> dict[tuple, tuple[Span, str]]:
    """The calls in ``body`` (lambdas aside) whose value differs from one process to the next, by site.
    ``verdicts`` holds what each callee was found to be (``MafNames.scope_key``) for the module's other bodies."""
    names = analysis.service(MafNames)
    # The body's call sites are a flat list (walking its statements for their calls costs more than answering
    # them); a site also counts the calls of nested definitions' decorators and defaults, so the few that
    # answer are kept only where they are calls of the body's own statements.
    varying: dict[Span, str] = {}
    positional = False
    for site in body.calls:
        callee = site.callee
        if site.in_lambda or not isinstance(callee, Ref):
            continue
        if callee.dotted in _POSITIONAL:
            positional = True
            continue
        # the functions of a module call the same names over and over: each is answered once
        key = names.scope_key(module, scope, callee.dotted)
        what = verdicts.get(key, _UNASKED)
        if what is _UNASKED:
            what = verdicts[key] = _varying_callee(names.values(module, scope, callee))
        if what is not None:
            varying[site.span] = what
    if not varying and not positional:
        return {}
    found: dict[tuple, tuple[Span, str]] = {}
    for call in iter_calls(body.body):
        func = call.func
        if not isinstance(func, Ref):
            continue
        what = _varies(analysis, module, scope, call) if func.dotted in _POSITIONAL else varying.get(call.span)
        if what is not None:
            found[site_key(call.span)] = (call.span, what)
    return found


def _varies(analysis: Analysis, module: ModuleSummary, scope: FunctionSummary | None, call: CallExpr) -> str | None:
    if not isinstance(call.func, Ref):
        return None
    if call.func.dotted in _POSITIONAL and is_builtin(analysis.index, module, scope, call.func.dotted):
        if any(string_set(analysis.index, module, scope, arg) for arg in call.args):
            return _SET_ORDER
        return None
    return _varying_callee(analysis.service(MafNames).values(module, scope, call.func))


def _varying_callee(values) -> str | None:  # noqa: ANN001 - Values
    names = sorted(v.name for v in values if isinstance(v, ExternalValue)
                   and (nondeterministic(v.name) or v.name in _PER_PROCESS))
    return f"{names[0]}()" if names else None


# --- where they go: a step's name ----------------------------------------------------------------------------

class StepNaming:
    """Which arguments of a call become a step's name, once per call site, and which parameters of a function
    pass one on, once per function (an ``Analysis`` service: the sink searches of a module and of the
    others that call the same helper share the answers instead of resolving each call again)."""

    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self._arguments: dict[tuple, frozenset[str]] = {}
        self._parameters: dict[tuple[str, str], frozenset[str]] = {}
        self._targets: dict[tuple, Target | None] = {}

    def arguments(self, module: ModuleSummary, scope: FunctionSummary | None, call: CallExpr) -> frozenset[str]:
        key = (module.path, scope.qualname if scope is not None else None, call.span)
        found = self._arguments.get(key)
        if found is None:
            found = self._arguments[key] = _name_arguments(self, self.target(module, scope, call.func), call)
        return found

    def target(self, module: ModuleSummary, scope: FunctionSummary | None, func: object) -> Target | None:
        """``ProjectIndex.resolve`` of a call's callee, once per name and the scope that binds its head (a module's
        functions call the same names over and over)."""
        if not isinstance(func, Ref):
            return None
        index = self.analysis.index
        owner = index.find_binding(module, scope, func.dotted.split(".", 1)[0])
        key = (module.path, owner[0].qualname if owner is not None else None, func.dotted)
        if key in self._targets:
            return self._targets[key]
        found = self._targets[key] = index.resolve(module, owner[0] if owner is not None else None, func)
        return found

    def parameters(self, module: ModuleSummary, function: FunctionSummary) -> frozenset[str]:
        key = (module.path, function.qualname)
        found = self._parameters.get(key)
        if found is None:
            found = self._parameters[key] = _naming_parameters(self.analysis, module, function)
        return found


def _name_arguments(naming: StepNaming, target: Target | None, call: CallExpr) -> frozenset[str]:
    """The arguments of ``call`` (``"0"``, ``"name"``...) that become a step's name: ``name=`` of MAF's
    ``step``/``StepWrapper``; for a function of the project, the parameters it passes to such a ``name=``."""
    if target is None:
        return frozenset()
    if maf_name(target) in _MAKERS:
        return frozenset({"name"})
    if target.kind != "function" or target.function is None or target.module is None:
        return frozenset()
    passed = naming.parameters(target.module, target.function)
    if not passed:
        return frozenset()
    params = [p.name for p in target.function.params if p.kind in ("posonly", "normal")]
    positions = {str(i) for i, name in enumerate(params) if name in passed and i < len(call.args)}
    return frozenset(positions | {name for name, _ in call.kwargs if name in passed})


def _naming_parameters(analysis: Analysis, module: ModuleSummary, function: FunctionSummary) -> frozenset[str]:
    """The parameters of ``function`` read in the ``name=`` of a call of MAF's ``step``/``StepWrapper`` in it."""
    params = {p.name for p in function.params}
    found: set[str] = set()
    for call in iter_calls(function.body):
        value = call.kwarg("name")
        if value is None or maf_name(analysis.index.resolve(module, function, call.func)) not in _MAKERS:
            continue
        found.update(name for name in _names_read(value) if name in params)
    return frozenset(found)


def _names_read(expr: object) -> Iterator[str]:
    if isinstance(expr, Ref):
        yield expr.dotted.split(".", 1)[0]
        return
    if isinstance(expr, (str, int, float, bool, bytes, Span)) or expr is None:
        return
    if isinstance(expr, tuple):
        for item in expr:
            yield from _names_read(item)
        return
    for name in getattr(type(expr), "__slots__", ()):
        yield from _names_read(getattr(expr, name, None))


def _in_decorator(analysis: Analysis, module: ModuleSummary, step, carried_by_scope: dict,  # noqa: ANN001
                  verdicts: dict) -> Iterator[tuple[tuple, tuple[Span, str]]]:
    """``@step(name=...)`` on a ``def``: the decorator is no statement of the scope, so it is read here, with
    what the scope's names carried at the end of its walk."""
    config = step.config_call
    if not step.decorated or config is None or config.kwarg("name") is None:
        return
    holder = analysis.index.function(module, step.made_in) if step.made_in else module.functions[0]
    if holder is None:
        return
    scope = None if holder.qualname == "<module>" else holder
    expr = config.kwarg("name")
    for call in iter_calls((expr,)):
        what = _varies(analysis, module, scope, call)
        if what is not None:
            yield site_key(call.span), (call.span, what)
    carried = carried_by_scope.get(holder.qualname, {})
    sources = _sources(analysis, module, scope, holder, verdicts)
    for name in set(_names_read(expr)):
        for key in carried.get(name, ()):
            if key in sources:
                yield key, sources[key]
