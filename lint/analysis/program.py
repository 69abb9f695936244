"""Steps and workflows of the analyzed code, and the facts rules share about them.

Built once per run over the project index: which callables MAF's ``step`` and
``workflow`` made (decorators in every form, ``fn2 = step(fn)``,
``step(name="x")(fn)``, ``StepWrapper(fn)``), which calls target them, and
whether a step falls back to MAF's call-order cache key.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Iterator, TypeVar

from steplint.core.diagnostics import ERROR, WARNING, Diagnostic
from steplint.analysis.durability import DurabilityJudge, State, value_state
from steplint.analysis.fingerprint import BAD, FingerprintJudge, Verdict, fingerprinted_literal, parse_annotation
from steplint.analysis.flow import ModuleFlow
from steplint.analysis.index import ModuleFinder, ProjectIndex, Target
from steplint.analysis.interpret_shared import BUILT_WORKFLOW
from steplint.analysis.interpreter import Engine
from steplint.analysis.made_steps import MadeSteps, joined_options
from steplint.analysis.values import StepOptions, StepValue
from steplint.core.summary import (
    Binding,
    display_qualname,
    CallExpr,
    CallSite,
    Const,
    FunctionSummary,
    ModuleSummary,
    Param,
    Ref,
    Span,
    Starred,
)
from steplint.core.framework_versions import FINGERPRINT_VERSION, NEWEST, Version

STEP_FACTORIES = {"step", "StepWrapper"}
_BINDERS = {"external:builtins.staticmethod": "static", "external:builtins.classmethod": "classmethod"}
WORKFLOW_FACTORIES = {"workflow", "FunctionalWorkflowDefinition", BUILT_WORKFLOW}
_MAF = "agent_framework"
T = TypeVar("T")


def maf_name(target: Target | None) -> str | None:
    """``step`` for ``agent_framework.step`` (or any private path to it), else None."""
    if target is None or target.kind != "external" or "()" in target.name:
        return None
    parts = target.name.split(".")
    if len(parts) < 2 or parts[0] != _MAF:
        return None
    return parts[-1]


@dataclass(slots=True)
class Decorated:
    """A callable made by ``step`` or ``workflow``."""

    kind: str  # "step" or "workflow"
    key: str
    display: str  # the name users see in messages
    module: ModuleSummary  # where the body is defined
    body: FunctionSummary | None
    config_call: CallExpr | None  # ``step(...)``/``StepWrapper(fn, ...)`` carrying name=/replay_key=
    anchor: Span  # where definition-level findings point: the ``def``
    decorated: bool  # True for the decorator forms, False for assignments
    made_in: str | None = None  # qualname of the function whose code runs ``step(...)``; None: module level
    site: tuple = ()  # (path, line, column) where the value-flow analysis makes it (``StepValue.site``)
    #: What a wrapper or factory of the project passed to MAF (``config_call`` is then None).
    options: StepOptions | None = None
    #: Made by ``FunctionalWorkflow(fn, ...)``: a runnable workflow (``run()``), not a definition to ``build()``.
    built: bool = False

    @property
    def replay_key_argument(self) -> Span | None:
        """Where ``replay_key=`` is passed (whatever its value), if it is."""
        if self.config_call is None or self.config_call.kwarg("replay_key") is None:
            return None
        return self.config_call.kwarg_span("replay_key") or self.config_call.span

    @property
    def replay_key_span(self) -> Span | None:
        if self.config_call is None:
            return None
        value = self.config_call.kwarg("replay_key")
        if value is None or (isinstance(value, Const) and value.value is None):
            return None
        return self.config_call.kwarg_span("replay_key") or self.config_call.span

    @property
    def has_replay_key(self) -> bool:
        # ``step(**options)`` may pass one: precision over recall.
        if self.options is not None and self.options.replay_key:
            return True
        return self.replay_key_span is not None or (
            self.config_call is not None and self.config_call.kwarg("**") is not None
        )

    @property
    def maf_name(self) -> str:
        if self.config_call is not None:
            name = self.config_call.kwarg("name")
            if isinstance(name, Const) and isinstance(name.value, str):
                return name.value
        if self.options is not None and self.options.name is not None:
            return self.options.name
        return self.body.name if self.body is not None else self.display


@dataclass(frozen=True, slots=True)
class ParamVerdict:
    param: Param
    verdict: Verdict


_KEPT_FLOWS = 8


class Analysis:
    """Everything rules read: the index, the steps and workflows, version policy."""

    def __init__(
        self,
        summaries: list[ModuleSummary],
        target_version: Version = NEWEST,
        loader: ModuleFinder | None = None,
        target_python: tuple[int, int] | None = None,
        io_functions: tuple[str, ...] | None = None,
    ):
        #: The modules findings are reported for (broken ones included, for STP900).
        self.reported = summaries
        self.index = ProjectIndex(summaries, loader)
        #: Finds modules by name; a run's loader also knows the run's other files (``discovered``).
        self.loader = loader
        self.judge = FingerprintJudge(self.index)
        self.durability = DurabilityJudge(self.index)
        self.target_version = target_version
        #: The Python the code runs on: ``asyncio.wait_for`` ran its coroutine in a new task before 3.12.
        self.target_python: tuple[int, int] = target_python or tuple(sys.version_info[:2])  # type: ignore[assignment]
        #: Library calls that do I/O, as globs over full dotted names (``[tool.steplint] io-functions``;
        #: None: the I/O rule's own list).
        self.io_functions = io_functions
        self.steps: dict[str, Decorated] = {}
        self.workflows: dict[str, Decorated] = {}
        self._body_kinds: dict[str, str] = {}
        self._scanned: dict[str, list[Decorated]] = {}
        self._param_verdicts: dict[str, list[ParamVerdict]] = {}
        self._services: dict[type, object] = {}
        self.engine = Engine(self.index.module, self.index.functions, self.index.classes, self.index.by_path,
                             self.target_python)
        self._flows: dict[str, ModuleFlow] = {}
        self._by_site: dict[tuple, Decorated] = {}
        self._made = MadeSteps(self.engine, self.index)

    def flow(self, module: ModuleSummary) -> ModuleFlow:
        """The value flow of ``module``'s steps and workflows (one runtime session per checked module)."""
        found = self._flows.pop(module.path, None)
        if found is None:
            bodies = [(item.module, item.body) for item in self.decorated_in(module) if item.body is not None]
            found = ModuleFlow(self.engine, self.index, module, bodies)
            if len(self._flows) >= _KEPT_FLOWS:
                # Rules ask for the flow of the module they check: a run that checks thousands keeps a few,
                # since each session holds every value it computed (a rare later question computes it again).
                self.engine.discard(self._flows.pop(next(iter(self._flows))).session)
        self._flows[module.path] = found  # the most recently asked for last
        return found

    def step_for(self, value: StepValue) -> Decorated | None:
        """The step or workflow a value of the analysis stands for, as its definition found it."""
        path = value.site[0]
        module = self.engine.modules_by_path.get(path)
        if module is None:
            return None
        self.decorated_in(module)
        found = self._by_site.get(tuple(value.site[:3]))
        if found is not None or value.function is None:
            return found
        # Made where the definitions are not looked for (a comprehension of steps...): described from the value.
        body_module = self.engine.modules_by_path.get(value.function.path)
        body = self.index.functions.get((value.function.path, value.function.qualname))
        if body is None or body_module is None:
            return None
        made = Decorated(
            kind=value.kind, key=f"{path}:{value.site[1]}:{value.site[2]}", display=_display(body.qualname),
            module=body_module, body=body, config_call=None, anchor=body.span, decorated=False,
            site=tuple(value.site[:3]),
        )
        self._by_site[made.site] = made
        return made

    def service(self, kind: type[T]) -> T:
        """One shared instance of ``kind(analysis)`` per run, so rules share memoized work."""
        found = self._services.get(kind)
        if found is None:
            found = self._services[kind] = kind(self)
        return found  # type: ignore[return-value]

    def decorated_in(self, module: ModuleSummary) -> list[Decorated]:
        """The steps and workflows ``module`` defines, found once per module."""
        found = self._scanned.get(module.path)
        if found is None:
            found = self._scanned[module.path] = []
            self._find_decorated(module)
            self._find_assigned(module)
        return found

    def steps_in(self, module: ModuleSummary) -> list[Decorated]:
        return [item for item in self.decorated_in(module) if item.kind == "step"]

    def workflows_in(self, module: ModuleSummary) -> list[Decorated]:
        return [item for item in self.decorated_in(module) if item.kind == "workflow"]

    @property
    def fingerprints(self) -> bool:
        return self.target_version >= FINGERPRINT_VERSION

    def auto_keyed_steps_in(self, module: ModuleSummary) -> list[Decorated]:
        """Steps MAF keys by their automatic identity: on 1.20+, those without ``replay_key``."""
        if not self.fingerprints:
            return []
        return [item for item in self.steps_in(module) if not item.has_replay_key]

    # --- discovery -------------------------------------------------------------

    def _find_decorated(self, module: ModuleSummary) -> None:
        for function in module.functions:
            for decorator, candidates in zip(function.decorators, self.index.decorator_candidates(module, function)):
                # A name that may be MAF's step (a guarded import) is.
                kinds = [_kind(maf_name(target)) for target in candidates]
                kind = next((k for k in kinds if k is not None), None)
                if kind is not None:
                    built = any(maf_name(target) == BUILT_WORKFLOW for target in candidates)
                    self._add_decorated(module, function, kind, decorator if isinstance(decorator, CallExpr) else None,
                                        built=built)
                    break
                if all(target.kind == "external" for target in candidates) and candidates:
                    continue  # an outside decorator: it is not MAF's, and nothing of the project runs in it
                made = self._made.at_def(module, function)
                if made:
                    # Made through the project's own code (a loader, a wrapper, a factory): as the value flow ran it.
                    kind = min(value.kind for value in made)
                    options = joined_options(made)
                    self._add_decorated(module, function, kind, None, options, built=options.built)
                    break

    def _add_decorated(self, module: ModuleSummary, function: FunctionSummary, kind: str,
                       config: CallExpr | None, options: StepOptions | None = None, built: bool = False) -> None:
        self._add(
            Decorated(
                kind=kind,
                key=f"{module.path}:{function.qualname}",
                display=_display(function.qualname),
                module=module,
                body=function,
                config_call=config,
                anchor=function.span,
                decorated=True,
                made_in=function.parent,
                site=(module.path, function.span.line, function.span.col),
                options=options,
                built=built,
            ),
            module,
        )

    def _find_assigned(self, module: ModuleSummary) -> None:
        scopes: list[tuple[FunctionSummary | None, dict[str, list[Binding]]]] = [(None, module.bindings)]
        scopes.extend((f, f.bindings) for f in module.functions if f.bindings)
        for scope, bindings in scopes:
            for name, entries in bindings.items():
                for binding in entries:
                    if binding.kind == "assign" and isinstance(binding.value, CallExpr):
                        self._assigned(module, scope, name, binding)

    def _assigned(self, module: ModuleSummary, scope: FunctionSummary | None, name: str, binding: Binding) -> None:
        value = binding.value
        assert isinstance(value, CallExpr)
        if not value.args:
            return  # nothing given to make a step or workflow of (``client = Client()``): its callee is not resolved
        factory = self.index.resolve(module, scope, value.func)
        config: CallExpr | None = value
        made_by = maf_name(factory)
        kind, built = _kind(made_by), made_by == BUILT_WORKFLOW
        if kind is None and isinstance(value.func, CallExpr):
            # ``step(name="x")(fn)``: the inner call configures, the outer one wraps.
            kind = _kind(maf_name(self.index.resolve(module, scope, value.func.func)))
            config = value.func
        wrapper = kind is None and factory is not None and factory.kind == "function"  # of the project
        if not value.args or (kind is None and not wrapper):
            return
        body_target = self.index.resolve(module, scope, value.args[0], before_order=binding.order)
        options = None
        if wrapper and body_target is not None and body_target.kind == "function":
            # A wrapper of the project applied to a function (``tick = compat.step(_tick)``): as the value flow ran it.
            made = self._made.assigned(module, scope, name, (module.path, value.span.line, value.span.col))
            kind, config, options = (min(v.kind for v in made), None, joined_options(made)) if made else (None, None, None)
            built = options is not None and options.built
        if kind is None:
            return
        body = body_target.function if body_target is not None and body_target.kind == "function" else None
        body_module = body_target.module if body is not None and body_target is not None else module
        qualname = f"{scope.qualname}.<locals>.{name}" if scope is not None else name
        self._add(
            Decorated(
                kind=kind,
                key=f"{module.path}:{qualname}",
                display=name,
                module=body_module or module,
                body=body,
                config_call=config,
                anchor=body.span if body is not None else Span(binding.line, 0, binding.line, len(name)),
                decorated=False,
                made_in=scope.qualname if scope is not None else None,
                site=(module.path, value.span.line, value.span.col),
                options=options,
                built=built,
            ),
            module,
        )

    def _add(self, item: Decorated, module: ModuleSummary) -> None:
        table = self.steps if item.kind == "step" else self.workflows
        if item.key in table:
            return
        table[item.key] = item
        self._scanned[module.path].append(item)
        if item.site:
            self._by_site.setdefault(item.site, item)
        if item.body is not None:
            self._body_kinds.setdefault(f"{item.module.path}:{item.body.qualname}", item.kind)

    # --- queries ---------------------------------------------------------------

    def body_kind(self, module: ModuleSummary, function: FunctionSummary) -> str | None:
        """"step" or "workflow" when ``function`` is the body of one, else None."""
        self.decorated_in(module)
        return self._body_kinds.get(f"{module.path}:{function.qualname}")

    def calls_in(self, item: Decorated) -> Iterator[tuple[FunctionSummary, CallSite]]:
        """Calls lexically inside a body (nested defs and lambdas included, nested steps excluded)."""
        if item.body is None:
            return
        yield from self.lexical_calls(item.module, item.body)

    def lexical_calls(self, module: ModuleSummary, function: FunctionSummary) -> Iterator[tuple[FunctionSummary, CallSite]]:
        """The body's calls, then the protocol methods Python calls for it (``implicit_calls``), nested ones after."""
        for function_or_nested in (function, *self.index.lexical_descendants(module, function)):
            if function_or_nested is not function and self._inside_nested_body(module, function_or_nested, function):
                continue
            for call in function_or_nested.calls:
                yield function_or_nested, call
            for call in function_or_nested.implicit_calls:
                yield function_or_nested, call

    def _inside_nested_body(self, module: ModuleSummary, nested: FunctionSummary, outer: FunctionSummary) -> bool:
        current: FunctionSummary | None = nested
        while current is not None and current.qualname != outer.qualname:
            if self.body_kind(module, current) is not None:
                return True
            current = self.index.function(module, current.parent)
        return False

    # --- replay identity ----------------------------------------------------------

    def method_form(self, item: Decorated) -> str | None:
        """How a step in a class body is bound, as MAF's non-descriptor ``StepWrapper`` meets it.

        None outside a class body; "static" (``@staticmethod`` above ``@step``) and
        "unbound" (no positional parameter) behave as plain functions; "classmethod"
        (``@classmethod`` above ``@step``) receives the class as its first argument;
        "instance" never receives ``self``; "wraps-descriptor" (``@step`` above
        ``@classmethod``/``@staticmethod``) raises TypeError when the class is made.
        """
        body = item.body
        if body is None or body.class_qualname is None or not item.decorated:
            return None
        step_at: int | None = None
        binders: dict[str, int] = {}
        for position, target in enumerate(self.index.decorator_targets(item.module, body)):
            if step_at is None and _kind(maf_name(target)) == "step":
                step_at = position
            if target is not None and target.key in _BINDERS:
                binders.setdefault(_BINDERS[target.key], position)
        if step_at is None:
            return None
        if any(position > step_at for position in binders.values()):
            return "wraps-descriptor"
        if "static" in binders:
            return "static"
        if "classmethod" in binders:
            return "classmethod"
        positional = [p for p in body.params if p.kind in ("posonly", "normal")]
        return "instance" if positional and positional[0] is body.params[0] else "unbound"

    def param_verdicts(self, item: Decorated) -> list[ParamVerdict]:
        """How MAF will fingerprint each parameter (the run context excluded)."""
        cached = self._param_verdicts.get(item.key)
        if cached is not None:
            return cached
        verdicts: list[ParamVerdict] = []
        body = item.body
        form = self.method_form(item)
        # An instance-method step never gets ``self`` and one wrapping a descriptor never
        # exists (STP042 reports both); a classmethod step passes its class as an argument.
        if body is not None and form != "wraps-descriptor":
            scope = self.index.function(item.module, body.parent)
            params = list(body.params)
            if form == "classmethod":
                receiver = Verdict(BAD, "is the class object that @classmethod passes")
                verdicts.append(ParamVerdict(params.pop(0), receiver))
            elif params and (form == "instance" or (form is None and self._bound_method(item.module, body))):
                params = params[1:]
            for param in params:
                if self.is_context_param(item.module, scope, param):
                    continue
                verdicts.append(ParamVerdict(param, self.judge.judge(item.module, scope, param.annotation)))
        self._param_verdicts[item.key] = verdicts
        return verdicts

    def _bound_method(self, module: ModuleSummary, body: FunctionSummary) -> bool:
        """A method wrapped by assignment (``fetch = step(_fetch)`` in a class body) takes a receiver."""
        return body.class_qualname is not None and not self.index.is_staticmethod(module, body)

    def is_context_param(self, module: ModuleSummary, scope: FunctionSummary | None, param: Param) -> bool:
        if param.name == "ctx":
            return True
        annotation = param.annotation
        if isinstance(annotation, Const) and isinstance(annotation.value, str):
            annotation = parse_annotation(annotation.value)
        return isinstance(annotation, Ref) and maf_name(self.index.resolve(module, scope, annotation)) == "RunContext"

    def unfingerprintable_params(self, item: Decorated) -> list[ParamVerdict]:
        if item.has_replay_key:
            return []
        return [v for v in self.param_verdicts(item) if v.verdict.bad]

    def mutable_defaults(self, item: Decorated) -> list[tuple[Param, State]]:
        """Parameters whose default MAF does not count as durable wrapper identity (known ones only)."""
        body = item.body
        if body is None:
            return []
        scope = self.index.function(item.module, body.parent)
        found = []
        flow: ModuleFlow | None = None
        for param in body.params:
            if param.default is not None:
                state = self.durability.value(item.module, scope, param.default)
                if state.durable is None:
                    # What the value flow says the default is: a factory's dict, an instance made by a helper...
                    flow = flow or self.flow(item.module)
                    values = flow.default_values(item.module, body, param.name)
                    state = value_state(values, flow.session.read_all_cells)
                if state.not_durable:
                    found.append((param, state))
        return found

    def captured_names(self, item: Decorated) -> list[str]:
        """Enclosing-function locals the step's body reads: its closure cells.

        Any cell makes the wrapper identity non-durable, whatever it holds: MAF
        (1.20-1.26) starts ``closure_is_durable`` at ``func.__closure__ is None``,
        so even a captured str counts (``_get_step_wrapper_identity``).
        """
        body = item.body
        if body is None or body.parent is None:
            return []
        # ``nonlocal x`` makes x a cell of the enclosing function, read or written here.
        own = set(body.bindings) - body.declared_nonlocal
        free = (body.loaded_names | body.declared_nonlocal) - own - body.declared_global
        scope = self.index.function(item.module, body.parent)
        return [name for name in sorted(free) if self.index.find_binding(item.module, scope, name) is not None]

    def made_during_run(self, item: Decorated) -> Decorated | None:
        """The workflow or step whose body runs ``step(...)`` for this step, if one does.

        MAF marks a ``StepWrapper`` built while a workflow runs as non-durable.
        """
        current = self.index.function(item.module, item.made_in)
        while current is not None:
            kind = self.body_kind(item.module, current)
            if kind is not None:
                return self._body_owner(item.module, current)
            current = self.index.function(item.module, current.parent)
        return None

    def _body_owner(self, module: ModuleSummary, function: FunctionSummary) -> Decorated | None:
        for owner in self.decorated_in(module):
            if owner.body is function:
                return owner
        return None

    def call_order_reason(self, item: Decorated, call: CallExpr | None = None) -> str | None:
        """Why MAF keys this step (or its ``call``) by call order (always before 1.20), or None when it does not.

        From 1.20 a step gets no replay identity, without ``replay_key``, when an
        argument cannot be fingerprinted or its wrapper state is not durable
        (a closure, a non-durable default, made during a run). MAF fingerprints the
        values a call binds (defaults applied), so with ``call`` a parameter whose
        annotation it cannot fingerprint counts only where the call may bind it to
        such a value: not where it binds a literal MAF fingerprints, nor where it
        leaves the parameter to such a default (``options: Options | None = None``).
        """
        if not self.fingerprints:
            return "every step is keyed by call order before 1.20"
        if item.has_replay_key:
            return None
        for found in self.unfingerprintable_params(item):
            if call is None or not self._binds_literal(item, found.param, call):
                return f"parameter '{found.param.name}' {found.verdict.reason}"
        captured = self.captured_names(item)
        if captured:
            return f"it captures {', '.join(repr(name) for name in captured)} from its enclosing function"
        for param, state in self.mutable_defaults(item):
            return f"the default of '{param.name}' is {state.what}"
        owner = self.made_during_run(item)
        if owner is not None:
            return f"it is made while {owner.kind} '{owner.display}' runs"
        return None

    def _binds_literal(self, item: Decorated, param: Param, call: CallExpr) -> bool:
        """Whether ``call`` surely binds ``param`` of the step to a value MAF fingerprints, by its literals: what
        the call passes for it, or its default. A ``*``/``**`` argument, a method form or a parameter the call
        may fill otherwise: not known (False)."""
        body = item.body
        if body is None or self.method_form(item) is not None or any(isinstance(arg, Starred) for arg in call.args) \
                or any(name == "**" for name, _ in call.kwargs):
            return False
        scope = self.index.function(item.module, body.parent)
        params = [p for p in body.params if not self.is_context_param(item.module, scope, p)]
        positional = [p for p in params if p.kind in ("posonly", "normal")]
        named = {p.name for p in params if p.kind in ("normal", "kwonly")}
        if param.kind == "vararg":
            return all(fingerprinted_literal(arg) for arg in call.args[len(positional):])
        if param.kind == "kwarg":
            return all(fingerprinted_literal(value) for name, value in call.kwargs if name not in named)
        passed = dict(call.kwargs)
        if param in positional and positional.index(param) < len(call.args):
            return fingerprinted_literal(call.args[positional.index(param)])
        if param.kind != "posonly" and param.name in passed:
            return fingerprinted_literal(passed[param.name])
        return param.default is not None and fingerprinted_literal(param.default)

    def falls_back_to_call_order(self, item: Decorated) -> bool:
        """Whether MAF keys this step by call order (always before 1.20)."""
        return self.call_order_reason(item) is not None

    def nested_call_severity(self, inner: Decorated) -> str:
        return ERROR if self.falls_back_to_call_order(inner) else WARNING

    # --- reporting ---------------------------------------------------------------

    def diagnostic(
        self,
        module: ModuleSummary,
        span: Span,
        rule: type,
        message: str,
        severity: str | None = None,
        chain: tuple[str, ...] | None = None,
    ) -> Diagnostic:
        return Diagnostic(
            path=module.path,
            line=span.line,
            column=span.col + 1,
            end_line=span.end_line,
            end_column=span.end_col + 1,
            code=rule.code,  # type: ignore[attr-defined]
            name=rule.name,  # type: ignore[attr-defined]
            severity=severity or rule.severity,  # type: ignore[attr-defined]
            message=message,
            chain=chain,
        )


def _kind(name: str | None) -> str | None:
    if name in STEP_FACTORIES:
        return "step"
    if name in WORKFLOW_FACTORIES:
        return "workflow"
    return None


def _display(qualname: str) -> str:
    return display_qualname(qualname)

