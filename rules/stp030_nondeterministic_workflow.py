from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import WARNING, Diagnostic
from steplint.analysis.program import Analysis
from steplint.analysis.flow import is_plain_callable, site_key
from steplint.analysis.nondeterminism_sinks import HelperSinks, Sink, SinkSearch, step_run_by
from steplint.analysis.workflow_body import reaching
from steplint.analysis.values import StepValue
from steplint.core.framework_versions import FINGERPRINT_VERSION
from steplint.analysis.graph_pins import PIN_WORKFLOW_BODY
from steplint.rules.base import NONDETERMINISM, Rule
from steplint.rules.known_limits import NEVER_RESUMES
from steplint.analysis.hash_order import hash_ordered_loops
from steplint.core.framework_versions import short_version
from steplint.core.summary import CallSite, ModuleSummary, Ref, iter_calls

# Calls whose value differs from one run to the next, by full name.
_NONDETERMINISTIC = frozenset({
    "time.time", "time.time_ns", "time.monotonic", "time.monotonic_ns", "time.perf_counter", "time.perf_counter_ns",
    "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today", "datetime.date.today",
    "uuid.uuid1", "uuid.uuid4", "os.urandom", "os.getrandom",
})
# Clocks whose readings mean something only within one process.
_MONOTONIC = frozenset({"time.monotonic", "time.monotonic_ns", "time.perf_counter", "time.perf_counter_ns"})
# Every function of these modules, except the deterministic ones.
_NONDETERMINISTIC_MODULES = {
    "random": frozenset({"seed", "getstate", "setstate", "Random", "SystemRandom"}),
    "secrets": frozenset({"compare_digest"}),
}


def nondeterministic(name: str | None) -> bool:
    if name is None or "()" in name:
        return False
    if name in _NONDETERMINISTIC:
        return True
    module, _, function = name.partition(".")
    exempt = _NONDETERMINISTIC_MODULES.get(module)
    return exempt is not None and "." not in function and function not in exempt and not function.startswith("_")


class NondeterministicWorkflow(Rule):
    """
    ## What it does
    Finds a call in a workflow's body, outside any step, to a function whose
    value changes from run to run: `time.time/time_ns/monotonic/perf_counter`
    (and their `_ns` forms), `datetime.now/utcnow/today`, `date.today`,
    `random.*` (not `seed`, `getstate`, `setstate`, `Random`,
    `SystemRandom`), `uuid.uuid1/uuid4`, `os.urandom`, `secrets.*` (not
    `compare_digest`), under any import alias (`import time as t`,
    `from datetime import datetime as dt`).

    It is reported at the call in the workflow body: the call itself, or the
    call of a plain helper (of the analyzed code) that makes one, directly
    or through other plain helpers; the message then shows the chain
    `workflow -> helper -> time.time`. A helper called only from steps, or
    from code that steps call, is never reported; one that the workflow and
    steps both call is reported only at the workflow's call. Calls inside a
    step body, inside a nested `def` the workflow does not call, or inside a
    lambda (which may run later, inside a step) are not workflow-body calls.

    Reported only where the value can change what replays (the message
    names the place): a step's argument where it enters the step's cache
    key (from 1.20, for a step MAF keys by its arguments' fingerprint or by
    a `replay_key`; not before 1.20, where every step is keyed by call
    order, nor for a step that falls back to the call-order key, STP010),
    a `replay_key`, a condition that
    decides whether, how often or in which order steps run, an object not
    made in the body (state later steps may read), a helper that runs a
    step. A value a plain helper makes is followed the same way in the
    helper's body (and the helpers under it) and, through what the helper
    returns, at its call. A value that reaches only a log line, `print`, or the workflow's
    output (a duration, a timestamp, an id) is not reported: the resumed run
    reports its own. Followed through names, operators, containers,
    attributes, plain helpers of the analyzed code and the standard
    library's conversions, f-strings and comprehensions. Known limits, decided conservatively (reported):
    a value passed to a function the linter cannot follow (outside the
    standard library's logging and conversions, asyncio's task makers and a
    pydantic model's constructor, which pass it on), or read in an expression
    the summaries do not keep (a comparison, an f-string's format spec) is treated as a
    sink.

    Also reported: a loop in the workflow body (a `for`, or a comprehension's
    `for`) over a set of strings (a display of string literals,
    `set([...])`/`frozenset([...])` of one, or a name bound once to one:
    `for region in REGIONS`) whose element runs a step keyed by call order
    (every step before 1.20; from 1.20 one MAF cannot fingerprint and that
    has no `replay_key`). Reported at the loop. A set built from data is not
    known to hold strings and is not reported; a step keyed by its
    arguments is not either (each call finds its own entry in any order).

    ## Why is this bad?
    On resume (from a checkpoint, or after human-in-the-loop input) MAF runs
    the workflow body again from the top and returns cached step results.
    Code outside steps really runs again and gets another value: a
    timestamp, a random choice or an id that differs from the first run,
    fed to a step as an argument that enters its key, changes the key on
    1.20+ (a cache miss that redoes the work), or sends the workflow down
    another branch. A step keyed by call order (every step before 1.20;
    from 1.20 one with an argument MAF cannot fingerprint and no
    `replay_key`) replays the same cached result whatever it is given, so
    an argument of it is not reported. Never move a
    `time.monotonic()`/`perf_counter()` duration into a step: a monotonic
    reading replayed in another process has another origin; read a wall
    clock in a step instead. A set of strings iterates in an order that
    follows the process's hash seed (`PYTHONHASHSEED`, random per process):
    a resume in a new process calls the steps in another order, and a step
    keyed by call order hands each call the cached result of the call that
    had its place in the first process, silently. Iterate `sorted(...)`.

    ## Example
    ```python
    import time

    from agent_framework import step, workflow


    @step
    async def process(job: str, started: float) -> str:
        return f"{job}@{started}"


    @workflow
    async def pipeline(job: str) -> str:
        started = time.time()
        return await process(job, started)
    ```

    ## Use instead
    Make the value inside a step, whose result is cached and replayed:
    ```python
    import time

    from agent_framework import step, workflow


    @step
    async def process(job: str, started: float) -> str:
        return f"{job}@{started}"


    @step
    async def now() -> float:
        return time.time()


    @workflow
    async def pipeline(job: str) -> str:
        started = await now()
        return await process(job, started)
    ```

    ## References
    - MAF replays the workflow body on resume (`FunctionalWorkflow`): https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    """

    code = "STP030"
    name = "nondeterministic-workflow"
    severity = WARNING
    summary = "a workflow body calls time/random/uuid... outside a step"
    points_at = "the call expression"
    version_dependent = True  # what a step argument's change does: run again (1.20+) or replay a stale result
    family = NONDETERMINISM
    known_limits = (NEVER_RESUMES,)
    graph_pin = PIN_WORKFLOW_BODY
    INVALID = (
        """
import time as t
from agent_framework import step, workflow

@workflow
async def pipeline(job: str) -> str:
    return await stamp(job, t.time())  # expect: STP030

@step
async def stamp(job: str, at: float) -> str:
    return f"{job}@{at}"
""",
    )
    VALID = (
        """
import time
from agent_framework import step, workflow

@step
async def now() -> float:
    return time.time()

@workflow
async def pipeline(job: str) -> str:
    return f"{job}@{await now()}"
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        flow = analysis.flow(module)
        step_name = _step_namer(analysis)
        for workflow in analysis.workflows_in(module):
            body = workflow.body
            if body is None:
                continue
            keyed = _keyed_by_arguments(analysis)
            sources = list(_sources(flow, workflow, step_name, keyed))
            if not sources:
                continue
            sinks = SinkSearch(flow, workflow.module, body, {site_key(c.span) for c, *_ in sources}, step_name,
                               keyed).search()
            for call, what, name, inside in sources:
                sink = sinks.get(site_key(call.span)) or inside
                if sink is not None:
                    yield _report(analysis, workflow, call, what, name, sink)
        yield from _hash_ordered(analysis, module)


def _hash_ordered(analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
    """Loops of a workflow body over a set of strings whose element runs a step keyed by call order."""
    flow = analysis.flow(module)
    keyed = _keyed_by_arguments(analysis)
    for workflow in analysis.workflows_in(module):
        if workflow.body is None:
            continue
        for loop in hash_ordered_loops(analysis.index, workflow.module, workflow.body):
            step = _step_run_in(flow, workflow.module, loop.body)
            if step is None or keyed(step):
                continue
            found = analysis.step_for(step)
            shown = found.display if found is not None else "?"
            yield analysis.diagnostic(
                workflow.module, loop.span, NondeterministicWorkflow,
                f"workflow '{workflow.display}' iterates a set of strings ({_shown(loop.iterated)}), whose order "
                f"follows the process's hash seed, and runs step '{shown}' for each element: on "
                f"agent-framework-core {short_version(analysis.target_version)} '{shown}' is keyed by call order, so "
                "a resume in a new process calls it in another order and hands each call the cached result of the "
                "call that had its place in the first process, silently; iterate sorted(...)")


def _step_run_in(flow, module: ModuleSummary, parts: tuple) -> StepValue | None:  # noqa: ANN001 - a ModuleFlow
    """The first step the calls in ``parts`` run, directly or through plain helpers of the analyzed code."""
    return next((step for call in iter_calls(parts) if (step := step_run_by(flow, module, call)) is not None), None)


def _shown(expr: object) -> str:
    return expr.dotted if isinstance(expr, Ref) else "a set display"


def _sources(flow, workflow, step_name, keyed) -> Iterator[tuple[CallSite, str, str, Sink | None]]:  # noqa: ANN001
    """The calls in the workflow body whose value changes from run to run: what each calls, the function, and,
    for a helper that makes the value, the sink it reaches inside the helper (or a helper under it)."""
    for call in workflow.body.calls:
        if call.in_lambda:
            continue
        calls = flow.calls_at(workflow.module, call.span)
        found = reaching(flow, calls, nondeterministic)
        if found is None:
            continue
        reached, helpers = found
        if not helpers:
            yield call, f"calls {reached}()", reached, None
            continue
        path = " -> ".join([workflow.display, *helpers, reached])
        yield call, f"calls '{helpers[0]}', which reaches {reached}() ({path})", reached, _inner_sink(
            flow, calls, step_name, keyed)


def _inner_sink(flow, calls: dict, step_name, keyed) -> Sink | None:  # noqa: ANN001
    """Where the value goes inside a helper that runs a step: the same sinks, followed in its body and the helpers
    under it (a value made for the output after the helper's steps reaches none). A helper that runs no step
    gives the value only back (the workflow body's search follows the call's result)."""
    starts = [u for callee, ids in calls.items() if is_plain_callable(callee) for u in flow.units(ids)]
    runs_step = flow.reach(starts, lambda unit, site, callee: isinstance(callee, StepValue) and callee.kind == "step")
    if runs_step is None:
        return None
    return HelperSinks(flow, step_name, keyed, nondeterministic).first(starts)


def _step_namer(analysis: Analysis):  # noqa: ANN202
    def name(step: StepValue) -> str:
        found = analysis.step_for(step)
        return found.display if found is not None else "?"
    return name


def _keyed_by_arguments(analysis: Analysis):  # noqa: ANN202
    """Whether a step's arguments enter its cache key on the target release (MAF ``StepWrapper.__call__``): never
    before 1.20 (``name::index``); from 1.20 unless it falls back to the call-order key (an argument that cannot be
    fingerprinted, a closure, a non-durable default; ``Analysis.call_order_reason``) or has a ``replay_key``,
    which reads them. A step the analysis cannot describe: keyed by them (reported)."""
    def keyed(step: StepValue) -> bool:
        found = analysis.step_for(step)
        return found is None or found.has_replay_key or not analysis.falls_back_to_call_order(found)
    return keyed


def _report(analysis: Analysis, workflow, call: CallSite, what: str, name: str, sink: Sink) -> Diagnostic:  # noqa: ANN001
    return analysis.diagnostic(
        workflow.module,
        call.span,
        NondeterministicWorkflow,
        f"workflow '{workflow.display}' {what} outside any step, and the value {sink.what}: on resume MAF runs "
        f"the workflow body again and {name}() returns another value; {_consequence(sink, analysis.target_version)}; "
        f"{_fix(name)}",
    )


def _consequence(sink: Sink, target) -> str:  # noqa: ANN001 - a Version
    if sink.kind == "argument":
        if target >= FINGERPRINT_VERSION:
            return "the step's key (its arguments' fingerprint) changes, so it runs again instead of replaying"
        return "the step replays the result it computed from the first run's argument"
    if sink.kind == "replay_key":
        return "the step's key changes, so it runs again instead of replaying"
    if sink.kind == "decides":
        return "the resumed run can run other steps, or the same steps in another order, than the cached results"
    return "a later step may read another value than the first run's"


def _fix(name: str) -> str:
    if name in _MONOTONIC:
        return ("read a wall clock (time.time()) inside a step, whose result is replayed: a monotonic reading "
                "replayed in another process has another origin")
    return "call it inside a step, whose result is replayed"
