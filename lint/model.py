"""Steps and workflows of the analyzed code, and the facts rules share about them.

Built once per run over the project index: which callables MAF's ``step`` and
``workflow`` made (decorators in every form, ``fn2 = step(fn)``,
``step(name="x")(fn)``, ``StepWrapper(fn)``), which calls target them, and
whether a step falls back to MAF's call-order cache key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, TypeVar

from steplint.diagnostics import ERROR, WARNING, Diagnostic
from steplint.fingerprint import FingerprintJudge, Verdict
from steplint.index import ProjectIndex, Target
from steplint.summary import (
    Binding,
    CallExpr,
    CallSite,
    Const,
    Display,
    Expr,
    FunctionSummary,
    ModuleSummary,
    Param,
    Ref,
    Span,
)
from steplint.versions import FINGERPRINT_VERSION, NEWEST, Version

STEP_FACTORIES = {"step", "StepWrapper"}
WORKFLOW_FACTORIES = {"workflow"}
_MAF = "agent_framework"
T = TypeVar("T")


def maf_name(target: Target | None) -> str | None:
    """``step`` for ``agent_framework.step`` (or any private path to it), else None."""
    if target is None or target.kind != "external":
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
        return self.replay_key_span is not None

    @property
    def maf_name(self) -> str:
        if self.config_call is not None:
            name = self.config_call.kwarg("name")
            if isinstance(name, Const) and isinstance(name.value, str):
                return name.value
        return self.body.name if self.body is not None else self.display


@dataclass(frozen=True, slots=True)
class ParamVerdict:
    param: Param
    verdict: Verdict


class Analysis:
    """Everything rules read: the index, the steps and workflows, version policy."""

    def __init__(
        self,
        summaries: list[ModuleSummary],
        target_version: Version = NEWEST,
        loader: Callable[[str], ModuleSummary | None] | None = None,
    ):
        #: The modules findings are reported for (broken ones included, for STP900).
        self.reported = summaries
        self.index = ProjectIndex(summaries, loader)
        self.judge = FingerprintJudge(self.index)
        self.target_version = target_version
        self.steps: dict[str, Decorated] = {}
        self.workflows: dict[str, Decorated] = {}
        self._body_kinds: dict[str, str] = {}
        self._scanned: dict[str, list[Decorated]] = {}
        self._param_verdicts: dict[str, list[ParamVerdict]] = {}
        self._services: dict[type, object] = {}

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

    # --- discovery -------------------------------------------------------------

    def _find_decorated(self, module: ModuleSummary) -> None:
        for function in module.functions:
            for decorator, target in zip(function.decorators, self.index.decorator_targets(module, function)):
                kind = _kind(maf_name(target))
                if kind is None:
                    continue
                config = decorator if isinstance(decorator, CallExpr) else None
                self._add(
                    Decorated(
                        kind=kind,
                        key=f"{module.module}:{function.qualname}",
                        display=_display(function.qualname),
                        module=module,
                        body=function,
                        config_call=config,
                        anchor=function.span,
                        decorated=True,
                    ),
                    module,
                )
                break

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
        factory = self.index.resolve(module, scope, value.func)
        config: CallExpr | None = value
        kind = _kind(maf_name(factory))
        if kind is None and isinstance(value.func, CallExpr):
            # ``step(name="x")(fn)``: the inner call configures, the outer one wraps.
            kind = _kind(maf_name(self.index.resolve(module, scope, value.func.func)))
            config = value.func
        if kind is None or not value.args:
            return
        body_target = self.index.resolve(module, scope, value.args[0], before_order=binding.order)
        body = body_target.function if body_target is not None and body_target.kind == "function" else None
        body_module = body_target.module if body is not None and body_target is not None else module
        qualname = f"{scope.qualname}.<locals>.{name}" if scope is not None else name
        self._add(
            Decorated(
                kind=kind,
                key=f"{module.module}:{qualname}",
                display=name,
                module=body_module or module,
                body=body,
                config_call=config,
                anchor=body.span if body is not None else Span(binding.line, 0, binding.line, len(name)),
                decorated=False,
            ),
            module,
        )

    def _add(self, item: Decorated, module: ModuleSummary) -> None:
        table = self.steps if item.kind == "step" else self.workflows
        if item.key in table:
            return
        table[item.key] = item
        self._scanned[module.path].append(item)
        if item.body is not None:
            self._body_kinds.setdefault(f"{item.module.module}:{item.body.qualname}", item.kind)

    # --- queries ---------------------------------------------------------------

    def step_of(self, target: Target | None) -> Decorated | None:
        if target is None or target.module is None or target.kind not in ("function", "assign"):
            return None
        self.decorated_in(target.module)
        return self.steps.get(target.key)

    def workflow_of(self, target: Target | None) -> Decorated | None:
        if target is None or target.module is None or target.kind not in ("function", "assign"):
            return None
        self.decorated_in(target.module)
        return self.workflows.get(target.key)

    def body_kind(self, module: ModuleSummary, function: FunctionSummary) -> str | None:
        """"step" or "workflow" when ``function`` is the body of one, else None."""
        self.decorated_in(module)
        return self._body_kinds.get(f"{module.module}:{function.qualname}")

    def calls_in(self, item: Decorated) -> Iterator[tuple[FunctionSummary, CallSite]]:
        """Calls lexically inside a body (nested defs and lambdas included, nested steps excluded)."""
        if item.body is None:
            return
        yield from self.lexical_calls(item.module, item.body)

    def lexical_calls(self, module: ModuleSummary, function: FunctionSummary) -> Iterator[tuple[FunctionSummary, CallSite]]:
        for call in function.calls:
            yield function, call
        for nested in self.index.lexical_descendants(module, function):
            if self._inside_nested_body(module, nested, function):
                continue
            for call in nested.calls:
                yield nested, call

    def _inside_nested_body(self, module: ModuleSummary, nested: FunctionSummary, outer: FunctionSummary) -> bool:
        current: FunctionSummary | None = nested
        while current is not None and current.qualname != outer.qualname:
            if self.body_kind(module, current) is not None:
                return True
            current = self.index.function(module, current.parent)
        return False

    def call_target(self, module: ModuleSummary, owner: FunctionSummary, call: CallSite) -> Target | None:
        return self.index.resolve(module, owner, call.callee)

    def call_name(self, module: ModuleSummary, owner: FunctionSummary, callee: Expr) -> str | None:
        """The fully qualified external name a callee resolves to (``asyncio.gather``)."""
        target = self.index.resolve(module, owner, callee)
        return target.name if target is not None and target.kind == "external" else None

    # --- replay identity ----------------------------------------------------------

    def param_verdicts(self, item: Decorated) -> list[ParamVerdict]:
        """How MAF will fingerprint each parameter (the run context excluded)."""
        cached = self._param_verdicts.get(item.key)
        if cached is not None:
            return cached
        verdicts: list[ParamVerdict] = []
        body = item.body
        if body is not None:
            scope = self.index.function(item.module, body.parent)
            params = list(body.params)
            if body.class_qualname is not None and params and not self.index.is_staticmethod(item.module, body):
                params = params[1:]
            for param in params:
                if self.is_context_param(item.module, scope, param):
                    continue
                verdicts.append(ParamVerdict(param, self.judge.judge(item.module, scope, param.annotation)))
        self._param_verdicts[item.key] = verdicts
        return verdicts

    def is_context_param(self, module: ModuleSummary, scope: FunctionSummary | None, param: Param) -> bool:
        if param.name == "ctx":
            return True
        annotation = param.annotation
        if isinstance(annotation, Const) and isinstance(annotation.value, str):
            from steplint.fingerprint import parse_annotation

            annotation = parse_annotation(annotation.value)
        return isinstance(annotation, Ref) and maf_name(self.index.resolve(module, scope, annotation)) == "RunContext"

    def unfingerprintable_params(self, item: Decorated) -> list[ParamVerdict]:
        if item.has_replay_key:
            return []
        return [v for v in self.param_verdicts(item) if v.verdict.bad]

    def mutable_defaults(self, item: Decorated) -> list[Param]:
        """Parameters whose default MAF cannot treat as durable identity."""
        if item.body is None:
            return []
        return [p for p in item.body.params if p.default is not None and _mutable_default(p.default)]

    def captured_names(self, item: Decorated) -> list[str]:
        """Enclosing-function locals a step defined inside a function reads."""
        body = item.body
        if body is None or body.parent is None:
            return []
        own = set(body.bindings)
        free = body.loaded_names - own
        captured: list[str] = []
        scope = self.index.function(item.module, body.parent)
        while scope is not None:
            captured.extend(sorted(name for name in free & set(scope.bindings) if name not in captured))
            scope = self.index.function(item.module, scope.parent)
        return captured

    def falls_back_to_call_order(self, item: Decorated) -> bool:
        """Whether MAF keys this step by call order (always before 1.20)."""
        if not self.fingerprints:
            return True
        if item.has_replay_key:
            return False
        return bool(self.unfingerprintable_params(item) or self.captured_names(item) or self.mutable_defaults(item))

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
    return qualname.replace(".<locals>", "")


def _mutable_default(default: Expr) -> bool:
    if isinstance(default, Display):
        return default.kind in ("list", "dict", "set", "comprehension")
    return isinstance(default, CallExpr)
