"""Can a ``FileCheckpointStorage`` checkpoint restore a value of this annotated type?

MAF pickles checkpoint state and unpickles it through an allowlist: Python's
builtin value types, ``datetime``, ``uuid.UUID``, ``decimal.Decimal``, a few
``collections`` types, anything from ``agent_framework`` or ``openai.types``,
plus the classes an application registers (``register_checkpoint_type``) or
passes as the storage's ``allowed_checkpoint_types``. Any other class in a
step's result blocks the load, unless MAF stores it as JSON (``checkpoint_json``:
a dict's keys, and before 1.20 a dict or list subclass). This module
judges annotations statically: "blocked" only for a class known to be outside
the allowlist.
"""

from __future__ import annotations

from steplint.analysis.checkpoint_json import KEYS_ONLY, CheckpointJudge
from steplint.analysis.fingerprint import parse_annotation, typing_name
from steplint.analysis.index import Target
from steplint.core.summary import Compare, Const, Expr, FunctionSummary, IfStmt, ModuleSummary, Ref, Subscript, UnionExpr

#: MAF's ``_BUILTIN_ALLOWED_TYPE_KEYS`` (1.18-1.26), by dotted name, with ``collections.Counter``: allowlisted
#: from 1.20, and stored as a plain dict before (never refused). 1.26 resolves ``builtins.type`` to ``type(value)``
#: of a non-class only, which still restores a class by its own name (``type[X]`` is judged by ``X``).
ALLOWED = frozenset({
    "builtins.object", "builtins.complex", "builtins.range", "builtins.slice", "builtins.int", "builtins.float",
    "builtins.str", "builtins.bytes", "builtins.bytearray", "builtins.bool", "builtins.set", "builtins.frozenset",
    "builtins.list", "builtins.dict", "builtins.tuple", "builtins.type", "datetime.datetime", "datetime.date",
    "datetime.time", "datetime.timedelta", "datetime.timezone", "uuid.UUID", "decimal.Decimal",
    "collections.OrderedDict", "collections.defaultdict", "collections.deque", "collections.Counter",
})
_ALWAYS = ("agent_framework.", "openai.types.")
_PASS_THROUGH = {"Optional", "Union", "Annotated", "Final", "ClassVar", "Required", "NotRequired", "ReadOnly"}
_CONTAINERS = {"list", "List", "tuple", "Tuple", "set", "Set", "frozenset", "FrozenSet", "dict", "Dict", "Mapping",
               "Sequence", "Iterable", "Collection", "MutableMapping", "MutableSequence", "deque", "Deque",
               "DefaultDict", "OrderedDict", "Awaitable", "Coroutine"}
_MAX_DEPTH = 16


class CheckpointTypeJudge(CheckpointJudge):
    """Which class of an annotation a restricted checkpoint load blocks (None: none known to be blocked)."""

    def __init__(self, analysis):  # noqa: ANN001 - an Analysis
        super().__init__(analysis)
        #: The class of the analyzed code the last ``blocked`` answered with, as the storage's
        #: ``allowed_checkpoint_types`` names it (``"module:qualname"``, MAF's key for a class), imported and, for
        #: a module with an ``if __name__ == "__main__":`` block, run as a script (``"__main__:qualname"``).
        self.allowed_name: tuple[str, str | None] | None = None

    def blocked(self, module: ModuleSummary, scope: FunctionSummary | None, expr: Expr | None, depth: int = 0) -> str | None:
        if depth == 0:
            self.allowed_name = None
        if expr is None or depth > _MAX_DEPTH:
            return None
        if isinstance(expr, Const) and isinstance(expr.value, str):
            parsed = parse_annotation(expr.value)
            return self.blocked(module, scope, parsed, depth + 1) if parsed is not None else None
        if isinstance(expr, UnionExpr):
            return self._first(module, scope, expr.items, depth)
        if isinstance(expr, Subscript):
            base = self.index.resolve(module, scope, expr.base) if isinstance(expr.base, Ref) else None
            name = typing_name(base)
            if name in _PASS_THROUGH:
                items = expr.items[:1] if name == "Annotated" else expr.items
                return self._first(module, scope, items, depth)
            if name in _CONTAINERS or (base is not None and base.kind == "external" and base.name in ALLOWED):
                if name in ("dict", "Dict") or self.plain_class(base) == "dict":  # keys: their str(), never pickled
                    if base is not None and base.name in KEYS_ONLY:
                        return None
                    if len(expr.items) == 2:
                        return self._first(module, scope, expr.items[1:], depth)
                return self._first(module, scope, expr.items, depth)
            return self.blocked(module, scope, expr.base, depth + 1)
        if isinstance(expr, Ref):
            return self._target(self.index.resolve(module, scope, expr))
        return None

    def _first(self, module: ModuleSummary, scope: FunctionSummary | None, items, depth: int) -> str | None:  # noqa: ANN001
        for item in items:
            found = self.blocked(module, scope, item, depth + 1)
            if found is not None:
                return found
        return None

    def _target(self, target: Target | None) -> str | None:
        if target is None:
            return None
        if target.kind == "class" and target.cls is not None:
            if self._is_typed_dict(target):
                return None  # a dict at run time
            if self.plain_class(target) is not None:
                return None  # stored as a plain dict or list
            if target.module is not None:
                self.allowed_name = allowed_entries(target.module, target.cls.qualname)
            return target.cls.name
        if target.kind != "external" or "()" in target.name:
            return None
        name = target.name
        if name in ALLOWED or name.startswith(_ALWAYS) or typing_name(target) is not None or name == "None":
            return None
        return None if name.startswith(("typing", "collections.abc")) else name

    def _is_typed_dict(self, target: Target) -> bool:
        assert target.module is not None and target.cls is not None
        return any(typing_name(base) == "TypedDict" for base in self.index.base_targets(target.module, target.cls))


def allowed_entries(module: ModuleSummary, qualname: str) -> tuple[str, str | None]:
    """How ``allowed_checkpoint_types`` names a class of the analyzed code: imported (MAF's ``module:qualname``),
    and run as a script where the module can be one (``__main__:qualname``)."""
    return f"{module.module}:{qualname}", f"__main__:{qualname}" if has_main_guard(module) else None


def has_main_guard(module: ModuleSummary) -> bool:
    """Whether the module's top level has ``if __name__ == "__main__":``: the file may run as a script, where its
    classes are ``__main__``'s."""
    top = module.functions[0].body if module.functions else ()
    return any(isinstance(statement, IfStmt) and isinstance(statement.test, Compare)
               and {_text(statement.test.left), _text(statement.test.right)} == {"__name__", "'__main__'"}
               for statement in top)


def _text(expr: object) -> str:
    if isinstance(expr, Ref):
        return expr.dotted
    return repr(expr.value) if isinstance(expr, Const) else ""
