"""Does a ``FileCheckpointStorage`` checkpoint give a step's result back as it was, judged by its annotation?

MAF's checkpoint encoding stores a plain ``dict`` as a JSON object and a plain
``list`` as a JSON array, recursing into their values; everything else is
pickled whole. A JSON object's keys are strings, so every key comes back as
``str(key)``: ``{1: "a"}`` is restored as ``{"1": "a"}`` on every release
(1.20+ pickles a mapping only when two keys would collide as strings, or a key
is one of the encoding's markers). Before 1.20 the test is ``isinstance``, so a
``Counter``, ``defaultdict``, ``OrderedDict`` or a class of yours deriving
from ``dict``/``list`` is stored the same way and comes back a plain
``dict``/``list``; from 1.20 only the exact types are (``type(value) is
dict``) and a subclass is pickled with its class.

An annotation is judged only where it says what the value is: ``dict[K, V]``
and ``list[X]`` (``typing``'s spellings too), through ``Optional``/``Union``/
``Annotated``. A key type is judged only when it is known not to be ``str``
(``int``, ``float``, ``bool``, ``bytes``, ``None``, a ``tuple``, a ``datetime``,
``uuid.UUID``, ``decimal.Decimal``, a non-``str`` ``Literal``, an Enum of the
analyzed code that is not a ``StrEnum``, a class of the analyzed code with no
base from outside it); ``Mapping``, a ``TypeVar`` or anything
else unknown is no verdict.
"""

from __future__ import annotations

from steplint.analysis.checkpoint_json import EXACT, CheckpointJudge
from steplint.analysis.fingerprint import is_enum, parse_annotation, typing_name
from steplint.analysis.index import Target
from steplint.core.summary import Const, Expr, FunctionSummary, ModuleSummary, Ref, Subscript, UnionExpr

_PASS_THROUGH = {"Optional", "Union", "Annotated"}
_DICTS = {"dict", "Dict"}
_LISTS = {"list", "List"}
#: Key types whose ``str()`` is not the key: a JSON object gives them back as other values.
_NOT_STR_KEYS = {
    "builtins.int", "builtins.float", "builtins.bool", "builtins.bytes", "builtins.complex", "builtins.tuple",
    "builtins.frozenset", "types.NoneType", "datetime.datetime", "datetime.date", "datetime.time",
    "datetime.timedelta", "uuid.UUID", "decimal.Decimal", "typing.Tuple", "typing.FrozenSet",
}
_STR_ENUM = "enum.StrEnum"
#: ``changed`` says ``keys:int`` for keys that come back as strings, else the plain class the value becomes.
KEYS_PREFIX = "keys:"
_MAX_DEPTH = 16


class CheckpointShapeJudge(CheckpointJudge):
    """What a file checkpoint changes in a value of an annotated type (None: nothing known to change)."""

    def changed(self, module: ModuleSummary, scope: FunctionSummary | None, expr: Expr | None,
                depth: int = 0) -> str | None:
        """How the value comes back: ``"keys:int"`` (its int keys as strings) or ``"a plain dict (not a Counter)"``."""
        if expr is None or depth > _MAX_DEPTH:
            return None
        if isinstance(expr, Const) and isinstance(expr.value, str):
            parsed = parse_annotation(expr.value)
            return self.changed(module, scope, parsed, depth + 1) if parsed is not None else None
        if isinstance(expr, UnionExpr):
            return self._first(module, scope, expr.items, depth)
        if isinstance(expr, Ref):
            return self._subclass(self.index.resolve(module, scope, expr))
        if not isinstance(expr, Subscript) or not isinstance(expr.base, Ref):
            return None
        base = self.index.resolve(module, scope, expr.base)
        name = typing_name(base)
        if name in _PASS_THROUGH:
            return self._first(module, scope, expr.items[:1] if name == "Annotated" else expr.items, depth)
        if name in _LISTS and len(expr.items) == 1:
            return self.changed(module, scope, expr.items[0], depth + 1)
        subclass = self._subclass(base)
        if name not in _DICTS and subclass is None:
            return None
        if len(expr.items) == 2:
            key = self._key_type(module, scope, expr.items[0])
            if key is not None:
                return f"{KEYS_PREFIX}{key}"
            value = self.changed(module, scope, expr.items[1], depth + 1)
            if value is not None:
                return value
        return subclass

    def _first(self, module: ModuleSummary, scope: FunctionSummary | None, items, depth: int) -> str | None:  # noqa: ANN001
        for item in items:
            found = self.changed(module, scope, item, depth + 1)
            if found is not None:
                return found
        return None

    def _subclass(self, target: Target | None) -> str | None:
        """``"a plain dict (not a Counter)"`` for a dict or list subclass a release before 1.20 stores as JSON."""
        plain = self.plain_class(target)
        if plain is None or target is None or target.kind == "external" and target.name in EXACT:
            return None
        name = target.cls.name if target.cls is not None else target.name.rsplit(".", 1)[-1]
        return f"a plain {plain} (not a {name})"

    def _key_type(self, module: ModuleSummary, scope: FunctionSummary | None, expr: Expr) -> str | None:
        """The name of a key type known not to be ``str`` (None: ``str``, or not known)."""
        if isinstance(expr, Const):
            if expr.value is None:
                return "None"
            if isinstance(expr.value, str):
                parsed = parse_annotation(expr.value)
                return self._key_type(module, scope, parsed) if parsed is not None else None
            return None
        if isinstance(expr, Subscript) and isinstance(expr.base, Ref):
            base = self.index.resolve(module, scope, expr.base)
            if typing_name(base) == "Literal":
                return _literal_kind(expr.items)
            return self._key_type(module, scope, expr.base)
        if not isinstance(expr, Ref):
            return None
        target = self.index.resolve(module, scope, expr)
        if target is None:
            return None
        if target.kind == "external" and target.name in _NOT_STR_KEYS:
            return target.name.rsplit(".", 1)[-1]
        if is_enum(self.index, target) and not self._str_enum(target):
            return target.cls.name if target.cls is not None else "Enum"
        if target.kind == "class" and target.cls is not None and target.module is not None and not any(
                base.kind != "class" for base in self.index.base_targets(target.module, target.cls)):
            return target.cls.name  # a class of the analyzed code with no outside base: never a str
        return None

    def _str_enum(self, target: Target) -> bool:
        """A ``StrEnum`` member's ``str()`` is its value, and the plain string equals the member as a key."""
        if target.kind != "class" or target.cls is None or target.module is None:
            return True  # a functional Enum(...) of unknown mixins: no verdict
        return any(base.kind == "external" and base.name == _STR_ENUM
                   for base in self.index.base_targets(target.module, target.cls))


def _literal_kind(items: tuple[Expr, ...]) -> str | None:
    """``int`` for ``Literal[1, 2]``; None when a value is a string, or not a literal this can read."""
    kinds = {type(item.value).__name__ if isinstance(item, Const) else "?" for item in items}
    return kinds.pop() if len(kinds) == 1 and not kinds & {"str", "?"} else None
