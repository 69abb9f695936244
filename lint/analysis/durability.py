"""Are a step's defaults durable? MAF's test for wrapper state, done statically.

MAF (1.20 and newer, ``_get_step_wrapper_defaults_state``) hashes a step
function's defaults into the wrapper's identity and counts them as durable
only when each is None, bool, int, float, complex, str, bytes, or a tuple or
frozenset of those (``_is_immutable_wrapper_state``). Without a
``replay_key``, a step whose defaults are not durable gets no replay
identity: its calls fall back to the call-order key, a concurrent call raises
ValueError, and so does the first checkpoint of a run that called it.
(Closure cells are never durable, whatever they hold: see
``Analysis.captured_names``.)

Each judgement is DURABLE, NOT_DURABLE (with what the value is) or unknown.
Unknown stays silent: a rule fires only on a value known not to be durable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from steplint.analysis.fingerprint import KNOWN_EXTERNAL_BAD, KNOWN_EXTERNAL_OK, ImmutabilityJudge, is_enum
from steplint.analysis.index import ProjectIndex, Target
from steplint.analysis.values import (
    BoundMethod, ClassValue, ConstValue, ContainerValue, ExternalValue, FunctionValue, InstanceValue, PartialValue,
    StepValue, Value, Values,
)
from steplint.core.summary import display_qualname, Binding, CallExpr, Comprehension, Const, Display, Expr, FunctionSummary, LambdaForm, ModuleSummary, Ref

_MAX_DEPTH = 16


@dataclass(frozen=True, slots=True)
class State:
    durable: bool | None  # None: unknown
    what: str = ""  # for NOT_DURABLE: what the value is ("a list", "an instance of Client")

    @property
    def not_durable(self) -> bool:
        return self.durable is False


DURABLE = State(True)
UNKNOWN = State(None)


def not_durable(what: str) -> State:
    return State(False, what)


def combine(states: Iterable[State]) -> State:
    """Not durable if any part is not, durable if all are, else unknown."""
    result = DURABLE
    for state in states:
        if state.not_durable:
            return state
        if state.durable is None:
            result = UNKNOWN
    return result


# Builtins whose result is always one immutable value.
_IMMUTABLE_RESULTS = frozenset(
    f"builtins.{name}"
    for name in ("str", "int", "float", "complex", "bool", "bytes", "repr", "len", "hash", "ord", "chr", "hex", "oct",
                 "bin", "format", "round", "abs")
)
# Builtins that build an immutable container of their argument's items.
_IMMUTABLE_CONTAINERS = frozenset({"builtins.tuple", "builtins.frozenset"})
_MUTABLE_RESULTS = {
    "builtins.list": "a list", "builtins.dict": "a dict", "builtins.set": "a set",
    "builtins.bytearray": "a bytearray", "builtins.object": "an object", "builtins.memoryview": "a memoryview",
    "builtins.iter": "an iterator", "builtins.open": "a file object",
    "datetime.datetime.now": "a datetime", "datetime.datetime.utcnow": "a datetime",
    "datetime.datetime.today": "a datetime", "datetime.datetime.fromisoformat": "a datetime",
    "datetime.date.today": "a date", "datetime.date.fromisoformat": "a date",
    "uuid.uuid1": "a UUID", "uuid.uuid3": "a UUID", "uuid.uuid4": "a UUID", "uuid.uuid5": "a UUID",
    "pathlib.Path.cwd": "a Path", "pathlib.Path.home": "a Path", "re.compile": "a regex pattern",
    "logging.getLogger": "a Logger", "types.SimpleNamespace": "a namespace object",
}
_DISPLAYS = {
    "list": "a list", "dict": "a dict", "set": "a set", "comprehension": "a comprehension's value", "lambda": "a lambda",
}


class DurabilityJudge:
    def __init__(self, index: ProjectIndex):
        self.index = index
        self.types = ImmutabilityJudge(index)

    # --- expressions ---------------------------------------------------------------

    def value(self, module: ModuleSummary, scope: FunctionSummary | None, expr: Expr | None, depth: int = 0) -> State:
        """What an expression evaluated in ``scope`` holds."""
        if expr is None or depth > _MAX_DEPTH:
            return UNKNOWN
        if isinstance(expr, Const):
            if expr.value is None or type(expr.value) in (bool, int, float, complex, str, bytes):
                return DURABLE
            return not_durable("Ellipsis") if expr.value is Ellipsis else UNKNOWN
        if isinstance(expr, LambdaForm):
            return not_durable("a lambda")
        if isinstance(expr, Comprehension):
            return not_durable(_DISPLAYS.get(expr.kind, "a comprehension's value") if expr.kind != "generator" else "a generator")
        if isinstance(expr, Display):
            if expr.kind == "tuple":
                return combine(self.value(module, scope, item, depth + 1) for item in expr.items)
            return not_durable(_DISPLAYS[expr.kind]) if expr.kind in _DISPLAYS else UNKNOWN
        if isinstance(expr, CallExpr):
            return self._call(module, scope, expr, depth)
        if isinstance(expr, Ref):
            return self._ref(module, scope, expr, depth)
        return UNKNOWN

    def _ref(self, module: ModuleSummary, scope: FunctionSummary | None, expr: Ref, depth: int) -> State:
        if "." not in expr.dotted:
            found = self.index.find_binding(module, scope, expr.dotted)
            if found is not None:
                owner, bindings = found
                return self.bindings(module, owner, expr.dotted, bindings, depth + 1)
        target = self.index.resolve(module, scope, expr)
        if target is not None:
            return self.target(target, depth)
        owner, _, _ = expr.dotted.rpartition(".")
        if owner and is_enum(self.index, self.index.resolve(module, scope, Ref(owner))):
            return not_durable(f"an Enum member ({expr.dotted})")
        return UNKNOWN

    def target(self, target: Target, depth: int = 0) -> State:
        if target.kind == "function":
            return not_durable(f"a function ({_display(target.name)})")
        if target.kind == "class":
            return not_durable(f"a class ({_display(target.name)})")
        if target.kind == "module":
            return not_durable(f"a module ({target.name})")
        if target.kind == "assign" and target.binding is not None and target.module is not None:
            return self.value(target.module, target.scope, target.binding.value, depth + 1)
        return UNKNOWN

    def _call(self, module: ModuleSummary, scope: FunctionSummary | None, call: CallExpr, depth: int) -> State:
        callee = self.index.resolve(module, scope, call.func)
        if callee is None:
            return UNKNOWN
        if callee.kind == "class":
            name = _display(callee.name)
            return not_durable(f"an Enum member ({name})" if is_enum(self.index, callee) else f"an instance of {name}")
        if callee.kind == "function" and callee.function is not None and callee.module is not None:
            return self._returned(callee.module, callee.function)
        if callee.kind != "external":
            return UNKNOWN
        name = callee.name
        if name in _IMMUTABLE_RESULTS:
            return DURABLE
        if name in _IMMUTABLE_CONTAINERS:
            if not call.args:
                return DURABLE
            items = call.args[0]
            if isinstance(items, Display) and items.kind in ("list", "tuple", "set"):
                return combine(self.value(module, scope, item, depth + 1) for item in items.items)
            return UNKNOWN
        if name in _MUTABLE_RESULTS:
            return not_durable(_MUTABLE_RESULTS[name])
        if name in KNOWN_EXTERNAL_BAD:
            return not_durable(f"{KNOWN_EXTERNAL_BAD[name]} ({name})")
        if name in KNOWN_EXTERNAL_OK:
            return not_durable(f"a mutable mapping ({name})")
        return UNKNOWN

    def _returned(self, module: ModuleSummary, function: FunctionSummary) -> State:
        """What a call of a project function makes, by its return annotation (its values: ``value_state``)."""
        if function.returns is None or function.is_async:
            return UNKNOWN
        verdict = self.types.judge(module, self.index.function(module, function.parent), function.returns)
        if verdict.bad:
            return not_durable(f"what {_display(function.qualname)}() returns ({verdict.reason.removeprefix('is ')})")
        return UNKNOWN

    # --- names ---------------------------------------------------------------------

    def bindings(
        self, module: ModuleSummary, owner: FunctionSummary, name: str, bindings: list[Binding], depth: int = 0
    ) -> State:
        """What a name bound in function ``owner`` may hold (any of its bindings)."""
        return combine(self._binding(module, owner, name, binding, depth) for binding in bindings)

    def _binding(self, module: ModuleSummary, owner: FunctionSummary, name: str, binding: Binding, depth: int) -> State:
        if binding.kind == "param":
            return self._param(module, owner, name)
        if binding.kind in ("def", "class"):
            return not_durable(f"a {'function' if binding.kind == 'def' else 'class'} ({_display(binding.target)})")
        if binding.kind == "import":
            target = self.index.imported(binding.target, binding.imported_name, module.module)
            return self.target(target, depth) if target is not None else UNKNOWN
        if binding.kind == "assign" and binding.value is not None:
            return self.value(module, owner, binding.value, depth + 1)
        return UNKNOWN  # loop targets, unpacking, ``with ... as``, ``except ... as``

    def _param(self, module: ModuleSummary, owner: FunctionSummary, name: str) -> State:
        for param in owner.params:
            if param.name != name:
                continue
            if param.kind == "kwarg":
                return not_durable(f"the dict of keyword arguments '**{name}'")
            if param.annotation is None:
                return UNKNOWN
            # ``*args: str`` annotates the items of a tuple, which is immutable.
            verdict = self.types.judge(module, self.index.function(module, owner.parent), param.annotation)
            if verdict.status == "ok":
                return DURABLE
            return not_durable(f"a parameter that {verdict.reason}") if verdict.bad else UNKNOWN
        return UNKNOWN


def _display(qualname: str) -> str:
    return display_qualname(qualname)


def value_state(values: Values, read_items) -> State:  # noqa: ANN001 - how to read a tuple's items
    """Whether values the value-flow analysis found are durable as MAF judges defaults (unknown ones aside)."""
    return combine(_value_state(value, read_items, 0) for value in values) if values else UNKNOWN


def _value_state(value: Value, read_items, depth: int) -> State:  # noqa: ANN001
    if isinstance(value, ConstValue):
        return DURABLE
    if isinstance(value, ContainerValue):
        if value.kind == "tuple" and depth < 4:
            return combine(_value_state(item, read_items, depth + 1) for item in read_items(value))
        return not_durable(_CONTAINER_NAMES.get(value.kind, "a mutable container"))
    if isinstance(value, InstanceValue):
        return not_durable(f"an instance of {_display(value.cls.qualname)}")
    if isinstance(value, (FunctionValue, BoundMethod, PartialValue)):
        return not_durable("a function")
    if isinstance(value, ClassValue):
        return not_durable(f"a class ({_display(value.qualname)})")
    if isinstance(value, StepValue):
        return not_durable("a step")
    if isinstance(value, ExternalValue) and value.name.endswith("()"):
        name = value.name[:-2]
        if name in _MUTABLE_RESULTS:
            return not_durable(_MUTABLE_RESULTS[name])
        if name in KNOWN_EXTERNAL_BAD:
            return not_durable(f"{KNOWN_EXTERNAL_BAD[name]} ({name})")
    return UNKNOWN


_CONTAINER_NAMES = {"list": "a list", "dict": "a dict", "set": "a set", "iterator": "an iterator", "gathered": "a list"}
