"""Where a value computed in a workflow body goes: what it can change when the body replays.

On resume MAF runs a workflow's body again and replays its steps' cached
results. A value that differs on the second run matters only where it can
change what replays: a step's argument (where it enters the step's key), a ``replay_key``, a condition that
decides whether (or how often, in which order) steps run, or state that later
steps read. A value that only reaches a log line, a metric or the workflow's
output (a duration, a timestamp, an id) is not a replay hazard.

The search walks the body's statements (as the summaries keep them) and
follows the values made at the given call sites from name to name, through
operators, containers, attributes and calls; a value assigned under a
condition such a value decides carries it too. A call the value is passed to
is judged by what the value flow says it calls: a step (a sink), a plain
function of the analyzed code (a sink if it reaches a step, else its result
carries the value on), a logging, formatting or conversion function of the
standard library (its result carries it on), or anything else: a function
the linter cannot follow might store it where a later step reads it, so it is
a sink, conservatively.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from steplint.analysis.flow import ModuleFlow, is_plain_callable, site_key
from steplint.analysis.interpret_shared import Unit
from steplint.analysis.values import BuiltinMethod, ExternalValue, StepValue, Value, stable_key
from steplint.core.summary import (
    AssignStmt,
    AugAssignStmt,
    AttrTarget,
    CallExpr,
    Comprehension,
    Expr,
    ExprStmt,
    FunctionSummary,
    IfStmt,
    ItemTarget,
    LambdaForm,
    LoopStmt,
    MatchStmt,
    ModuleSummary,
    NameTarget,
    RaiseStmt,
    Ref,
    ReturnStmt,
    Span,
    TryStmt,
    UnpackTarget,
    WithStmt,
    iter_calls,
)

SiteKey = tuple[int, int, int, int]
Sources = frozenset  # of SiteKey: the call sites whose value an expression carries

#: Outside functions that give back what they are given, changed, and do nothing else with it.
_PASSING = ("builtins.", "logging.", "math.", "time.", "datetime.", "json.dumps", "statistics.", "structlog.",
            "uuid.", "decimal.", "str.", "operator.", "loguru.", "asyncio.sleep", "typing.", "enum.", "collections.",
            # what a class decorator made: the class's constructor
            "dataclasses.dataclass(", "pydantic.dataclasses.dataclass(", "attr.s(", "attrs.define(",
            # a pydantic model's constructor (a class of the analyzed code with that base): it validates and
            # stores its fields, so the instance carries what it is given
            "pydantic.BaseModel.__init__", "pydantic.main.BaseModel.__init__",
            # a task of a coroutine, or of a function run in a thread: its result is the coroutine's (a function of
            # the analyzed code that a thread runs is also a callee of the call, judged as a plain helper)
            "asyncio.create_task", "asyncio.ensure_future", "asyncio.gather", "asyncio.shield", "asyncio.wait_for",
            "asyncio.Task", "asyncio.to_thread")
_PASSES = 3  # the body's walks: a value made late in a loop reaches its start on the next one


@dataclass(frozen=True, slots=True)
class Sink:
    """A place a value reaches that changes what replays; ``kind`` says which (for the message's advice)."""

    kind: str  # "argument", "replay_key", "name", "decides", "state", "unknown"
    what: str  # "reaches the argument 'deadline' of step 'charge'"
    line: int


class SinkSearch:
    """The sinks each of ``sources`` (call sites in ``body``) reaches, in one walk of the body."""

    def __init__(self, flow: ModuleFlow, module: ModuleSummary, body: FunctionSummary, sources: set[SiteKey],
                 step_name: Callable[[StepValue], str],
                 keyed_by_arguments: Callable[[StepValue], bool] = lambda step: True,
                 only: frozenset[str] | None = None,
                 step_name_arguments: Callable[[CallExpr], frozenset[str]] | None = None):
        """``keyed_by_arguments``: whether a step's arguments enter its key on the target release;
        ``only``: the kinds of sink wanted (None: all); ``step_name_arguments``: the arguments of a call
        (``"0"``, ``"name"``) that become a step's name, for the "name" sink (None: not looked for)."""
        self.flow = flow
        self.only = only
        self.step_name_arguments = step_name_arguments
        self.module = module
        self.body = body
        self.sources = sources
        self.step_name = step_name
        #: Whether a step's arguments enter its cache key (False: keyed by call order, whatever they are).
        self.keyed_by_arguments = keyed_by_arguments
        self.names: dict[str, Sources] = {}
        self.found: dict[SiteKey, Sink] = {}
        self._runs_steps: dict[SiteKey, str | None] = {}
        self.seen: set[str] = set()  # names read where the walk saw them

    def search(self) -> dict[SiteKey, Sink]:
        for _ in range(_PASSES):
            before = dict(self.names)
            self.block(self.body.body, frozenset())
            if self.names == before:
                break
        for name, carried in sorted(self.names.items()):
            if name in self.body.loaded_names and name not in self.seen:
                # Read where the summary keeps no names (a comparison, an f-string): it may decide anything.
                self.sink(carried, Sink("unknown", f"is read as '{name}' in an expression the linter does not follow", 0))
        return self.found

    # --- statements ---------------------------------------------------------------------

    def block(self, statements: tuple, control: Sources) -> None:
        for statement in statements:
            handler = _STATEMENTS.get(type(statement))
            if handler is not None:
                handler(self, statement, control)

    def _assign(self, statement: AssignStmt, control: Sources) -> None:
        carried = self.carried(statement.value) | control
        for target in statement.targets:
            self.bind(target, carried)

    def _aug_assign(self, statement: AugAssignStmt, control: Sources) -> None:
        self.bind(statement.target, self.carried(statement.value) | control)

    def _expression(self, statement: ExprStmt | ReturnStmt | RaiseStmt, control: Sources) -> None:
        if statement.value is not None:
            self.carried(statement.value)  # a returned value is the workflow's output: no sink

    def _if(self, statement: IfStmt, control: Sources) -> None:
        decided = self.carried(statement.test)
        self.decides(decided, (statement.body, statement.orelse), "whether", statement.test)
        self.block(statement.body, control | decided)
        self.block(statement.orelse, control | decided)

    def _loop(self, statement: LoopStmt, control: Sources) -> None:
        decided = frozenset().union(*(self.carried(e) for e in (statement.iter, statement.test) if e is not None))
        if statement.target is not None:
            self.bind(statement.target, decided | control)
        self.decides(decided, (statement.body,), "how often or in which order", statement.iter or statement.test)
        self.block(statement.body, control | decided)
        self.block(statement.orelse, control | decided)

    def _with(self, statement: WithStmt, control: Sources) -> None:
        for expr, target in statement.items:
            carried = self.carried(expr)
            if target is not None:
                self.bind(target, carried | control)
        self.block(statement.body, control)

    def _try(self, statement: TryStmt, control: Sources) -> None:
        for body in (statement.body, *(b for _, _, b in statement.handlers), statement.orelse, statement.final):
            self.block(body, control)

    def _match(self, statement: MatchStmt, control: Sources) -> None:
        decided = self.carried(statement.subject)
        bodies = tuple(body for _, _, body in statement.cases)
        self.decides(decided, bodies, "whether", statement.subject)
        for names, _, body in statement.cases:
            for name in names:
                self.names[name] = self.names.get(name, frozenset()) | decided
            self.block(body, control | decided)

    def bind(self, target, carried: Sources) -> None:  # noqa: ANN001 - a summary target form
        binder = _TARGETS.get(type(target))
        if binder is not None and carried:
            binder(self, target, carried)

    def _bind_name(self, target: NameTarget, carried: Sources) -> None:
        self.names[target.name] = self.names.get(target.name, frozenset()) | carried

    def _bind_items(self, target: UnpackTarget, carried: Sources) -> None:
        for item in target.items:
            self.bind(item, carried)

    def _store_into(self, target: AttrTarget | ItemTarget, carried: Sources) -> None:
        """``obj.attr = value`` / ``obj[k] = value``: the object carries it; an object not made here is state."""
        head = _head(target.base)
        if head is not None and self._local(head):
            self.names[head] = self.names.get(head, frozenset()) | carried
            return
        shown = f"{head}.{target.attr}" if isinstance(target, AttrTarget) and head else (head or "an object")
        self.sink(carried, Sink("state", f"is stored into {shown}, which later steps may read", 0))

    def _local(self, name: str) -> bool:
        return any(b.kind == "assign" for b in self.body.bindings.get(name, ()))

    def decides(self, decided: Sources, bodies: tuple, how: str, where: Expr | None) -> None:
        if not decided:
            return
        step = next((found for body in bodies if (found := self.step_in(body)) is not None), None)
        later = step is None and any(_transfers(body) for body in bodies) and self.step_in(self.body.body) is not None
        if later:
            step = "the steps after it"
        if step is not None:
            self.sink(decided, Sink("decides", f"decides {how} {step} {'run' if later else 'runs'}", 0))

    def step_in(self, statements: tuple) -> str | None:
        """A step the statements run (directly or through helpers), as messages name it."""
        for call in iter_calls(statements):
            key = site_key(call.span)
            if key not in self._runs_steps:
                self._runs_steps[key] = self._step_run_by(call)
            if self._runs_steps[key] is not None:
                return self._runs_steps[key]
        return None

    def _step_run_by(self, call: CallExpr) -> str | None:
        step = step_run_by(self.flow, self.module, call)
        return f"step '{self.step_name(step)}'" if step is not None else None

    def sink(self, carried: Sources, sink: Sink) -> None:
        if self.only is not None and sink.kind not in self.only:
            return
        for source in carried:
            self.found.setdefault(source, sink)

    # --- expressions ----------------------------------------------------------------------

    def carried(self, expr: object) -> Sources:
        """The sources ``expr``'s value carries; the calls in it are judged on the way."""
        reader = _EXPRESSIONS.get(type(expr))
        if reader is not None:
            return reader(self, expr)
        if isinstance(expr, tuple):
            return frozenset().union(*(self.carried(item) for item in expr))
        return frozenset().union(*(self.carried(getattr(expr, name, None)) for name in getattr(type(expr), "__slots__", ())))

    def _ref(self, expr: Ref) -> Sources:
        head = expr.dotted.split(".", 1)[0]
        self.seen.add(head)
        return self.names.get(head, frozenset())

    def _nothing(self, expr: object) -> Sources:
        return frozenset()

    def _comprehension(self, expr: Comprehension) -> Sources:
        """Each generator binds its targets to what its iterable carries; the element carries what it reads.
        The comprehension's own names are dropped after it (they do not leak out of it in Python 3)."""
        outer = dict(self.names)
        carried = frozenset()
        for generator in expr.generators:
            from_iter = self.carried(generator.iter)
            self.bind(generator.target, from_iter)
            carried |= from_iter | frozenset().union(*(self.carried(c) for c in generator.conditions))
        carried |= self.carried(expr.elt) | (self.carried(expr.key) if expr.key is not None else frozenset())
        self.names = outer
        return carried

    def _call(self, call: CallExpr) -> Sources:
        key = site_key(call.span)
        receiver = self.carried(call.func)  # ``now.isoformat()``: a method of a value carries it
        args = [(str(i), self.carried(arg)) for i, arg in enumerate(call.args)]
        args += [(name, self.carried(value)) for name, value in call.kwargs]
        given = frozenset().union(*(carried for _, carried in args)) if args else frozenset()
        own = frozenset({key}) if key in self.sources else frozenset()
        if given and self.step_name_arguments is not None:
            naming = self.step_name_arguments(call)
            for name, carried in args:
                if name in naming:
                    self.sink(carried, Sink("name", "becomes a step's name", call.span.line))
        if not given:
            return own | receiver
        callees = self.flow.calls_at(self.module, call.span)
        steps = sorted((v for v in callees if isinstance(v, StepValue) and v.kind == "step"), key=stable_key)
        if steps:
            self._into_step(steps[0], call, args)
            return own
        if _replay_key(call, args):
            self.sink(given, Sink("replay_key", "reaches a replay_key", call.span.line))
        return own | receiver | given | self._into_call(call, callees, given)

    def _into_step(self, step: StepValue, call: CallExpr, args: list[tuple[str, Sources]]) -> None:
        if not self.keyed_by_arguments(step):
            return  # a call-order key: the resumed run replays the same cached result whatever it is given
        params = _param_names(self.flow, step)
        for name, carried in args:
            shown = params[int(name)] if name.isdigit() and int(name) < len(params) else name
            self.sink(carried, Sink("argument", f"reaches the argument '{shown}' of step '{self.step_name(step)}'",
                                    call.span.line))

    def _into_call(self, call: CallExpr, callees: dict[Value, set[int]], given: Sources) -> Sources:
        """A call of something that is not a step, given such a value: a sink where it may reach one."""
        plain = [v for v in callees if is_plain_callable(v)]
        outside = [v for v in callees if isinstance(v, ExternalValue)]
        if any(isinstance(v, BuiltinMethod) for v in callees):  # ``items.append(value)``: the container holds it
            head = _head(call.func)
            if head is not None:
                self.names[head] = self.names.get(head, frozenset()) | given
            outside.extend(ExternalValue("builtins.") for v in callees if isinstance(v, BuiltinMethod))
        if plain:
            step = self._step_run_by(call)
            if step is not None:
                self.sink(given, Sink("argument", f"is passed to a helper that runs {step}", call.span.line))
        if any(not v.name.startswith(_PASSING) for v in outside) or not (plain or outside):
            shown = _callee_text(call.func)
            self.sink(given, Sink("unknown", f"is passed to {shown}(), which the linter cannot follow", call.span.line))
        return frozenset()


def step_run_by(flow: ModuleFlow, module: ModuleSummary, call: CallExpr) -> StepValue | None:
    """The step ``call`` runs: itself, else the first a plain helper it calls reaches."""
    calls = flow.calls_at(module, call.span)
    steps = sorted((v for v in calls if isinstance(v, StepValue) and v.kind == "step"), key=stable_key)
    if steps:
        return steps[0]
    starts = [u for callee, ids in calls.items() if is_plain_callable(callee) for u in flow.units(ids)]
    found = flow.reach(starts, lambda unit, site, callee: isinstance(callee, StepValue) and callee.kind == "step") \
        if starts else None
    return found.callee if found is not None else None  # type: ignore[return-value]


class HelperSinks:
    """Where a value that plain helpers make goes inside them: a sink a helper's own body reaches (a step's
    argument, a condition, state: ``SinkSearch`` on its body), or one inside a helper it calls that makes the
    value. What a helper returns is its caller's to follow (a workflow body's search takes the helper's call as
    the value's source), so a value that only returns finds no sink here."""

    def __init__(self, flow: ModuleFlow, step_name: Callable[[StepValue], str],
                 keyed_by_arguments: Callable[[StepValue], bool], makes: Callable[[str], bool]):
        """``makes``: whether an outside callable, by full name, makes the value (``time.time``)."""
        self.flow, self.step_name, self.keyed_by_arguments, self.makes = flow, step_name, keyed_by_arguments, makes
        self.searched: set[int] = set()

    def first(self, units: list[Unit]) -> Sink | None:
        """The first sink of the value the *units* make (each searched once)."""
        for unit in units:
            if unit.id not in self.searched:
                self.searched.add(unit.id)
                found = self._in(unit)
                if found is not None:
                    return found
        return None

    def _in(self, unit: Unit) -> Sink | None:
        sources: set[SiteKey] = set()
        makers: list[Unit] = []
        for key, calls in unit.site_calls.items():
            if any(isinstance(v, ExternalValue) and self.makes(v.name) for v in calls):
                sources.add(key)
                continue
            starts = [u for callee, ids in calls.items() if is_plain_callable(callee) for u in self.flow.units(ids)]
            making = [u for u in starts if self.flow.reach([u], self._made) is not None]
            if making:
                sources.add(key)
                makers.extend(making)
        if not sources:
            return None
        sinks = SinkSearch(self.flow, unit.module, unit.summary, sources, self.step_name,
                           self.keyed_by_arguments).search()
        return sinks[min(sinks)] if sinks else self.first(makers)

    def _made(self, unit: Unit, site: SiteKey, callee: Value) -> bool:
        return isinstance(callee, ExternalValue) and self.makes(callee.name)


def _replay_key(call: CallExpr, args: list[tuple[str, Sources]]) -> bool:
    return any(name == "replay_key" and carried for name, carried in args)


def _param_names(flow: ModuleFlow, step: StepValue) -> list[str]:
    function = step.function
    summary = flow.engine.functions.get((function.path, function.qualname)) if function is not None else None
    return [p.name for p in summary.params] if summary is not None else []


def _head(expr: Expr) -> str | None:
    while not isinstance(expr, Ref):
        base = getattr(expr, "base", None)
        if base is None:
            return None
        expr = base
    return expr.dotted.split(".", 1)[0]


def _callee_text(expr: Expr) -> str:
    return expr.dotted if isinstance(expr, Ref) else "a callable"


def _transfers(statements: tuple) -> bool:
    """A ``return`` or ``raise`` among the statements (nested blocks included): the rest of the body may not run."""
    for statement in statements:
        if isinstance(statement, (ReturnStmt, RaiseStmt)):
            return True
        nested = [getattr(statement, name, ()) for name in ("body", "orelse", "final")]
        nested += [body for *_, body in getattr(statement, "handlers", ())] + [b for *_, b in getattr(statement, "cases", ())]
        if any(isinstance(block, tuple) and _transfers(block) for block in nested):
            return True
    return False


_STATEMENTS: dict[type, Callable] = {
    AssignStmt: SinkSearch._assign,
    AugAssignStmt: SinkSearch._aug_assign,
    ExprStmt: SinkSearch._expression,
    ReturnStmt: SinkSearch._expression,
    RaiseStmt: SinkSearch._expression,
    IfStmt: SinkSearch._if,
    LoopStmt: SinkSearch._loop,
    WithStmt: SinkSearch._with,
    TryStmt: SinkSearch._try,
    MatchStmt: SinkSearch._match,
}

_TARGETS: dict[type, Callable] = {
    NameTarget: SinkSearch._bind_name,
    UnpackTarget: SinkSearch._bind_items,
    AttrTarget: SinkSearch._store_into,
    ItemTarget: SinkSearch._store_into,
}

#: Expressions read by a handler of their own; any other form carries what its parts carry.
_EXPRESSIONS: dict[type, Callable] = {
    Ref: SinkSearch._ref,
    CallExpr: SinkSearch._call,
    Comprehension: SinkSearch._comprehension,
    LambdaForm: SinkSearch._nothing,  # a lambda's body may run later, inside a step
    **{kind: SinkSearch._nothing for kind in (str, int, float, bool, bytes, Span, type(None))},
}
