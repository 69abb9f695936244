"""Can MAF fingerprint a value of this annotated type?

MAF (>= 1.20) hashes step arguments whose *exact* runtime types are None,
bool, int, finite float, complex, str, bytes, list, tuple, frozenset, or a
Mapping with str keys, nested. Anything else makes the step fall back to its
call-order cache key. This module judges annotations statically, resolving
names through the project index; RULES.md ("STP010") is the contract.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from steplint.analysis.index import ProjectIndex, Target
from steplint.analysis.values import ANY, ContainerValue, ExternalValue, InstanceValue, KeyTuple
from steplint.summaries.builder import to_expr
from steplint.core.summary import (
    CallExpr,
    ClassSummary,
    Const,
    Display,
    Expr,
    FunctionSummary,
    ModuleSummary,
    Ref,
    Subscript,
    UnionExpr,
)

OK = "ok"
BAD = "bad"
UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Verdict:
    status: str
    reason: str = ""
    #: Unknown because the annotation admits any value: missing, ``Any``, ``object``, a TypeVar
    #: (directly or through ``Optional``/``Union``/``Annotated``/aliases, not inside containers).
    open: bool = False

    @property
    def bad(self) -> bool:
        return self.status == BAD


FINGERPRINTABLE = Verdict(OK)

_TYPING_MODULES = ("typing", "typing_extensions", "collections.abc", "builtins", "types")

# Exact types MAF canonicalizes, by their last name in the typing-ish modules.
_PLAIN_OK = {"None", "NoneType", "bool", "int", "float", "complex", "str", "bytes", "Text", "LiteralString"}
_SEQUENCE_OK = {"list", "List", "tuple", "Tuple", "frozenset", "FrozenSet"}
_MUTABLE_SEQUENCES = {"list", "List"}
_OPEN_TYPING = {"Any", "object"}
_MAPPINGS = {"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "DefaultDict", "defaultdict", "ChainMap", "Counter"}
_UNION = {"Union"}
_OPTIONAL = {"Optional"}
_PASS_THROUGH = {"Annotated", "Final", "Required", "NotRequired", "ReadOnly", "ClassVar", "InitVar"}
_UNKNOWN_TYPING = {"Any", "object", "Sequence", "MutableSequence", "Iterable", "Collection", "Container",
                   "Hashable", "Sized", "Reversible", "Protocol", "Self", "AnyStr", "Never", "NoReturn"}
_BAD_TYPING = {
    "set": "a set", "Set": "a set", "AbstractSet": "a set", "MutableSet": "a set",
    "bytearray": "a bytearray", "memoryview": "a memoryview", "range": "a range", "slice": "a slice",
    "Callable": "a callable", "Iterator": "an iterator", "AsyncIterator": "an async iterator",
    "Generator": "a generator", "AsyncGenerator": "an async generator",
    "Awaitable": "an awaitable", "Coroutine": "a coroutine", "Type": "a class object", "type": "a class object",
    "Pattern": "a regex pattern", "Match": "a regex match", "IO": "a file object", "TextIO": "a file object",
    "BinaryIO": "a file object", "Deque": "a deque", "deque": "a deque", "KeysView": "a view",
    "ValuesView": "a view", "ItemsView": "a view", "MappingView": "a view",
}

# Well-known classes outside the analyzed code (module-qualified), with what they are.
KNOWN_EXTERNAL_BAD = {
    "datetime.datetime": "a datetime", "datetime.date": "a date", "datetime.time": "a time",
    "datetime.timedelta": "a timedelta", "datetime.timezone": "a timezone", "datetime.tzinfo": "a tzinfo",
    "decimal.Decimal": "a Decimal", "fractions.Fraction": "a Fraction", "uuid.UUID": "a UUID",
    "pathlib.Path": "a Path", "pathlib.PurePath": "a Path", "pathlib.PosixPath": "a Path",
    "pathlib.WindowsPath": "a Path", "pathlib.PurePosixPath": "a Path", "pathlib.PureWindowsPath": "a Path",
    "os.PathLike": "a path-like object", "enum.Enum": "an Enum", "enum.IntEnum": "an Enum",
    "enum.StrEnum": "an Enum", "enum.Flag": "an Enum", "enum.IntFlag": "an Enum",
    "ipaddress.IPv4Address": "an IP address", "ipaddress.IPv6Address": "an IP address",
    "re.Pattern": "a regex pattern", "re.Match": "a regex match", "logging.Logger": "a Logger",
    "asyncio.Queue": "an asyncio queue", "asyncio.Event": "an asyncio event", "asyncio.Lock": "a lock",
    "asyncio.Semaphore": "a semaphore", "asyncio.Task": "a task", "asyncio.Future": "a future",
    "threading.Lock": "a lock", "threading.Event": "an event", "io.BytesIO": "a file object",
    "io.StringIO": "a file object", "io.TextIOWrapper": "a file object", "array.array": "an array",
    "collections.deque": "a deque", "typing.NamedTuple": "a NamedTuple", "collections.namedtuple": "a NamedTuple",
    "pydantic.BaseModel": "a pydantic model", "pydantic.main.BaseModel": "a pydantic model",
    "pydantic.RootModel": "a pydantic model", "pydantic.v1.BaseModel": "a pydantic model",
    "pydantic_settings.BaseSettings": "a pydantic model", "sqlmodel.SQLModel": "a pydantic model",
    "numpy.ndarray": "a numpy array", "pandas.DataFrame": "a DataFrame", "pandas.Series": "a Series",
    "httpx.AsyncClient": "an HTTP client", "httpx.Client": "an HTTP client",
    "aiohttp.ClientSession": "an HTTP client", "requests.Session": "an HTTP session",
    "msgspec.Struct": "a msgspec struct", "attr.AttrsInstance": "an attrs class",
}
KNOWN_EXTERNAL_OK = {
    "collections.OrderedDict": "mapping", "collections.defaultdict": "mapping", "collections.ChainMap": "mapping",
    "collections.Counter": "mapping", "types.MappingProxyType": "mapping", "collections.UserDict": "mapping",
    "frozendict.frozendict": "mapping", "immutabledict.immutabledict": "mapping", "multidict.MultiDict": "mapping",
    "multidict.CIMultiDict": "mapping", "multidict.MultiDictProxy": "mapping", "multidict.CIMultiDictProxy": "mapping",
}
# Outside names that are exact builtin scalars at run time (pydantic's ``Annotated`` aliases of them).
KNOWN_EXTERNAL_SCALARS = frozenset(
    f"pydantic.{name}"
    for name in (
        "StrictStr", "StrictInt", "StrictFloat", "StrictBool", "StrictBytes", "PositiveInt", "NegativeInt",
        "NonNegativeInt", "NonPositiveInt", "PositiveFloat", "NegativeFloat", "NonNegativeFloat", "NonPositiveFloat",
        "FiniteFloat", "EmailStr",
    )
)
# Abstract collections that a fingerprintable value (a frozenset, a tuple) can satisfy, or not.
_ABSTRACT_OPEN = {"collections.abc.Set": "an abstract set", "typing.AbstractSet": "an abstract set"}
_DATACLASS_DECORATORS = {
    "dataclasses.dataclass": "a dataclass", "pydantic.dataclasses.dataclass": "a pydantic dataclass",
    "attr.s": "an attrs class", "attr.attrs": "an attrs class", "attr.define": "an attrs class",
    "attr.frozen": "an attrs class", "attr.mutable": "an attrs class", "attr.dataclass": "an attrs class",
    "attrs.define": "an attrs class", "attrs.frozen": "an attrs class", "attrs.mutable": "an attrs class",
}
_TYPEDDICT = {"TypedDict"}
_NAMEDTUPLE_FACTORIES = {"typing.NamedTuple", "typing_extensions.NamedTuple", "collections.namedtuple"}
_ENUM_FACTORIES = {"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"}
_TYPEVAR_FACTORIES = {"TypeVar", "ParamSpec", "TypeVarTuple"}
_MAX_DEPTH = 32


def typing_name(target: Target | None) -> str | None:
    """``Optional`` for ``typing.Optional``, ``int`` for ``builtins.int``, else None."""
    if target is None or target.kind != "external" or "()" in target.name:
        return None
    module, _, name = target.name.rpartition(".")
    return name if module in _TYPING_MODULES else None


class FingerprintJudge:
    def __init__(self, index: ProjectIndex):
        self.index = index
        self._class_cache: dict[str, Verdict] = {}

    def container(self, name: str) -> Verdict | None:
        """The verdict for a list, tuple, frozenset or mapping type itself (None: judge its items).

        MAF fingerprints all of them; ``ImmutabilityJudge`` rejects the mutable ones.
        """
        return None

    def judge(self, module: ModuleSummary, scope: FunctionSummary | None, expr: Expr | None, depth: int = 0) -> Verdict:
        if expr is None:
            return Verdict(UNKNOWN, "has no annotation", open=True)
        if depth > _MAX_DEPTH:
            return Verdict(UNKNOWN, "is too deeply nested to judge")
        if isinstance(expr, Const):
            return self._const(module, scope, expr, depth)
        if isinstance(expr, UnionExpr):
            return combine(self.judge(module, scope, item, depth + 1) for item in expr.items)
        if isinstance(expr, Subscript):
            return self._subscript(module, scope, expr, depth)
        if isinstance(expr, Ref):
            return self.target(self.index.resolve(module, scope, expr), depth)
        return Verdict(UNKNOWN, "is not a type the linter can read")

    def _const(self, module: ModuleSummary, scope: FunctionSummary | None, expr: Const, depth: int) -> Verdict:
        if expr.value is None:
            return FINGERPRINTABLE
        if isinstance(expr.value, str):
            parsed = parse_annotation(expr.value)
            if parsed is None:
                return Verdict(UNKNOWN, "is a string annotation the linter cannot read")
            return self.judge(module, scope, parsed, depth + 1)
        return Verdict(UNKNOWN, "is not a type")

    def target(self, target: Target | None, depth: int = 0) -> Verdict:
        if target is None:
            return Verdict(UNKNOWN, "cannot be resolved")
        if target.kind == "class":
            return self.judge_class(target, depth)
        if target.kind == "assign":
            return self._alias(target, depth)
        if target.kind != "external":
            return Verdict(UNKNOWN, f"resolves to a {target.kind}, not a type")
        if "()" in target.name:
            return Verdict(UNKNOWN, f"is {target.name}, a value, not a type")
        if target.name in _ABSTRACT_OPEN:
            return Verdict(UNKNOWN, f"is {_ABSTRACT_OPEN[target.name]}")
        if target.name in KNOWN_EXTERNAL_SCALARS:
            return FINGERPRINTABLE
        name = typing_name(target)
        if name is not None:
            if name in _PLAIN_OK:
                return FINGERPRINTABLE
            if name in _SEQUENCE_OK or name in _MAPPINGS or name in _TYPEDDICT:
                return self.container(name) or FINGERPRINTABLE
            if name in _BAD_TYPING:
                return Verdict(BAD, f"is {_BAD_TYPING[name]}")
            # Any, object, Sequence, Protocol...: the runtime type is open.
            return Verdict(UNKNOWN, f"is {name}", open=name in _OPEN_TYPING)
        if target.name in KNOWN_EXTERNAL_OK:
            return self.container(target.name) or FINGERPRINTABLE
        if target.name in KNOWN_EXTERNAL_BAD:
            return Verdict(BAD, f"is {KNOWN_EXTERNAL_BAD[target.name]} ({target.name})")
        if target.name.startswith("agent_framework.") and target.name.rsplit(".", 1)[-1] == "RunContext":
            return Verdict(UNKNOWN, "is the run context")
        return Verdict(BAD, f"is {target.name}, a class from outside the analyzed code that is not a Mapping")

    def judge_class(self, target: Target, depth: int = 0) -> Verdict:
        cached = self._class_cache.get(target.key)
        if cached is not None:
            return cached
        self._class_cache[target.key] = Verdict(UNKNOWN, "is defined recursively")
        verdict = self._judge_class(target, depth)
        self._class_cache[target.key] = verdict
        return verdict

    def _judge_class(self, target: Target, depth: int) -> Verdict:
        module, cls = target.module, target.cls
        assert module is not None and cls is not None
        for owner_module, owner in self.index.mro(module, cls):
            scope = self.index.function(owner_module, owner.parent)
            for decorator in owner.decorators:
                callee = decorator.func if isinstance(decorator, CallExpr) else decorator
                resolved = self.index.resolve(owner_module, scope, callee)
                if resolved is not None and resolved.kind == "external" and resolved.name in _DATACLASS_DECORATORS:
                    return Verdict(BAD, f"is {_DATACLASS_DECORATORS[resolved.name]} ({cls.name})")
        for base in self.index.base_targets(module, cls):
            name = typing_name(base)
            if name in _TYPEDDICT:
                return self.container(f"TypedDict ({cls.name})") or self._typed_dict_fields(module, cls, depth)
            if name in _MAPPINGS or (base.kind == "external" and base.name in KNOWN_EXTERNAL_OK):
                return self.container(f"mapping ({cls.name})") or FINGERPRINTABLE
            if name == "NamedTuple" or base.name in _NAMEDTUPLE_FACTORIES:
                return Verdict(BAD, f"is a NamedTuple ({cls.name})")
            if name == "Protocol":
                return Verdict(UNKNOWN, f"is a Protocol ({cls.name})")
            if base.kind == "external" and base.name in KNOWN_EXTERNAL_BAD:
                return Verdict(BAD, f"is {KNOWN_EXTERNAL_BAD[base.name]} ({cls.name})")
            if base.kind == "external" and name is None and base.name != "builtins.object":
                return Verdict(BAD, f"is {cls.name}, a subclass of {base.name}, which is not a Mapping")
        return Verdict(BAD, f"is {cls.name}, a plain class")

    def _typed_dict_fields(self, module: ModuleSummary, cls: ClassSummary, depth: int) -> Verdict:
        """A TypedDict is fingerprintable when each of its fields is (its own and its TypedDict bases')."""
        for owner_module, owner in self.index.mro(module, cls):
            scope = self.index.function(owner_module, owner.parent)
            for field_name, annotation in owner.fields:
                verdict = self.judge(owner_module, scope, annotation, depth + 1)
                if verdict.bad:
                    return Verdict(BAD, f"is {cls.name}, a TypedDict whose field '{field_name}' {verdict.reason}")
        return FINGERPRINTABLE

    def _functional_fields(self, module: ModuleSummary, scope, call: CallExpr, name: str, depth: int) -> Verdict:  # noqa: ANN001
        """``TypedDict("X", {"a": Job})`` (or ``a=Job``): judged by its fields too."""
        fields: list[tuple[str, Expr]] = []
        if len(call.args) >= 2 and isinstance(call.args[1], Display) and call.args[1].kind == "dict":
            for key, value in zip(call.args[1].keys, call.args[1].items):
                if isinstance(key, Const) and isinstance(key.value, str):
                    fields.append((key.value, value))
        fields.extend((key, value) for key, value in call.kwargs if key not in ("**", "total"))
        for field_name, annotation in fields:
            verdict = self.judge(module, scope, annotation, depth + 1)
            if verdict.bad:
                return Verdict(BAD, f"is {name}, a TypedDict whose field '{field_name}' {verdict.reason}")
        return FINGERPRINTABLE

    def _alias(self, target: Target, depth: int) -> Verdict:
        binding, module = target.binding, target.module
        assert binding is not None and module is not None
        value = binding.value
        scope = target.scope
        if isinstance(value, CallExpr):
            factory = self.index.resolve(module, scope, value.func)
            factory_name = factory.name if factory is not None and factory.kind == "external" else ""
            last = factory_name.rsplit(".", 1)[-1]
            if last == "NewType" and len(value.args) >= 2:
                return self.judge(module, scope, value.args[1], depth + 1)
            if last in _TYPEVAR_FACTORIES and typing_name(factory) is not None:
                return Verdict(UNKNOWN, "is a TypeVar", open=True)
            if last == "TypeAliasType" and len(value.args) >= 2:
                return self.judge(module, scope, value.args[1], depth + 1)
            if last == "TypedDict" and typing_name(factory) is not None:
                return self.container(f"TypedDict ({target.name})") or self._functional_fields(
                    module, scope, value, target.name, depth)
            if factory_name in _NAMEDTUPLE_FACTORIES:
                return Verdict(BAD, f"is a NamedTuple ({target.name})")
            if factory_name in _ENUM_FACTORIES:
                return Verdict(BAD, f"is an Enum ({target.name})")
            return Verdict(UNKNOWN, f"is {target.name}, a computed value")
        return self.judge(module, scope, value, depth + 1)

    def _subscript(self, module: ModuleSummary, scope: FunctionSummary | None, expr: Subscript, depth: int) -> Verdict:
        base = self.index.resolve(module, scope, expr.base) if isinstance(expr.base, Ref) else None
        name = typing_name(base)
        items = expr.items
        if name in _OPTIONAL or name in _UNION:
            return combine(self.judge(module, scope, item, depth + 1) for item in items)
        if name in _PASS_THROUGH:
            return self.judge(module, scope, items[0], depth + 1) if items else Verdict(UNKNOWN, f"is a bare {name}")
        if name == "Literal":
            return combine(self._literal(module, scope, item) for item in items)
        if name in _SEQUENCE_OK:
            return self.container(name) or contained(
                self.judge(module, scope, item, depth + 1)
                for item in items
                if not (isinstance(item, Const) and item.value is Ellipsis)
            )
        if name in _MAPPINGS:
            return self.container(name) or self._mapping(module, scope, name, items, depth)
        if name in _UNKNOWN_TYPING:
            inner = combine(self.judge(module, scope, item, depth + 1) for item in items)
            return inner if inner.bad else Verdict(UNKNOWN, f"is a {name}")
        if base is not None and base.kind == "external" and base.name in KNOWN_EXTERNAL_OK:
            return self.container(base.name) or self._mapping(module, scope, base.name, items, depth)
        # A generic class (``Box[int]``, ``set[str]``) is judged by the class itself.
        return self.judge(module, scope, expr.base, depth + 1)

    def _mapping(self, module, scope, name, items, depth) -> Verdict:  # noqa: ANN001
        if name == "Counter":
            items = (*items, Ref("int"))
        if len(items) < 2:
            return FINGERPRINTABLE if not items else self.judge(module, scope, items[-1], depth + 1)
        key = self._key(module, scope, items[0], depth)
        if key.bad:
            return key
        return contained((key, self.judge(module, scope, items[1], depth + 1)))

    def _key(self, module, scope, expr, depth) -> Verdict:  # noqa: ANN001
        """Mapping keys must be exactly str."""
        resolved = self.index.resolve(module, scope, expr) if isinstance(expr, Ref) else None
        if typing_name(resolved) in ("str", "Text", "LiteralString"):
            return FINGERPRINTABLE
        if isinstance(expr, Subscript):
            base = self.index.resolve(module, scope, expr.base) if isinstance(expr.base, Ref) else None
            if typing_name(base) == "Literal":
                if all(isinstance(item, Const) and isinstance(item.value, str) for item in expr.items):
                    return FINGERPRINTABLE
                return Verdict(BAD, "has non-str keys")
        verdict = self.judge(module, scope, expr, depth + 1)
        if resolved is not None and resolved.kind == "assign":
            return verdict  # NewType("Key", str) and aliases of str
        if verdict.status == OK:
            return Verdict(BAD, "has non-str keys")
        return verdict if verdict.bad else Verdict(UNKNOWN, "has keys of an unknown type")

    def _literal(self, module: ModuleSummary, scope: FunctionSummary | None, item: Expr) -> Verdict:
        if isinstance(item, Const):
            if item.value is None or type(item.value) in (bool, int, float, complex, str, bytes):
                return FINGERPRINTABLE
            return Verdict(UNKNOWN, "is a Literal of an unusual value")
        if isinstance(item, Ref):
            target = self.index.resolve(module, scope, item)
            if target is not None and target.kind == "attribute":
                return Verdict(UNKNOWN, "is a Literal of an attribute")
            owner = self.index.resolve(module, scope, Ref(item.dotted.rpartition(".")[0])) if "." in item.dotted else None
            if owner is not None and owner.kind == "class":
                owner_verdict = self.judge_class(owner)
                if owner_verdict.bad:
                    return Verdict(BAD, f"is a Literal of an Enum member ({item.dotted})")
            return Verdict(UNKNOWN, "is a Literal of a name")
        if isinstance(item, Subscript):
            return self.judge(module, scope, item)
        return Verdict(UNKNOWN, "is a Literal the linter cannot read")


def combine(verdicts) -> Verdict:  # noqa: ANN001 - any iterable of verdicts
    """Bad if any part is bad, else unknown if any is unknown (open ones first), else fingerprintable."""
    unknown: Verdict | None = None
    for verdict in verdicts:
        if verdict.bad:
            return verdict
        if verdict.status == UNKNOWN and (unknown is None or (verdict.open and not unknown.open)):
            unknown = verdict
    return unknown or FINGERPRINTABLE


def contained(verdicts) -> Verdict:  # noqa: ANN001 - any iterable of verdicts
    """``combine`` for a container's items: ``list[Any]`` is unknown, but not open itself."""
    verdict = combine(verdicts)
    if verdict.open:
        return Verdict(UNKNOWN, "holds items of an unknown type")
    return verdict


class ImmutabilityJudge(FingerprintJudge):
    """Is every value of this annotated type immutable, as MAF's durable wrapper state needs?

    MAF (1.20+) treats a step's defaults and closure cells as durable identity
    only when they are None, bool, int, float, complex, str, bytes, or tuples
    and frozensets of those: the fingerprintable types minus lists and mappings.
    """

    def container(self, name: str) -> Verdict | None:
        if name in _SEQUENCE_OK and name not in _MUTABLE_SEQUENCES:
            return None
        return Verdict(BAD, f"is a {name.rsplit('.', 1)[-1]}, which is mutable")


def parse_annotation(text: str) -> Expr | None:
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return to_expr(node)


def is_enum(index: ProjectIndex, target: Target | None) -> bool:
    """Whether ``target`` is an Enum class of the analyzed code (class statement or functional form)."""
    if target is None or target.module is None:
        return False
    if target.kind == "class" and target.cls is not None:
        return any(
            base.kind == "external" and (base.name in _ENUM_FACTORIES or KNOWN_EXTERNAL_BAD.get(base.name) == "an Enum")
            for base in index.base_targets(target.module, target.cls)
        )
    if target.kind == "assign" and target.binding is not None and isinstance(target.binding.value, CallExpr):
        factory = index.resolve(target.module, target.scope, target.binding.value.func)
        return factory is not None and factory.kind == "external" and factory.name in _ENUM_FACTORIES
    return False


def fingerprinted_literal(expr: object) -> bool:
    """A literal MAF's step identity takes (``_canonicalize_step_identity_value``): None, a bool, an int, a finite
    float, a str or bytes, and lists, tuples and str-keyed dicts of them (a set is not; a frozenset or complex
    value is no literal here)."""
    if isinstance(expr, Const):
        value = expr.value
        return value is None or type(value) in (bool, int, str, bytes) or (
            type(value) is float and value == value and value not in (float("inf"), float("-inf")))
    if isinstance(expr, Display) and expr.kind in ("list", "tuple"):
        return all(fingerprinted_literal(item) for item in expr.items)
    if isinstance(expr, Display) and expr.kind == "dict":
        return all(isinstance(key, Const) and type(key.value) is str for key in expr.keys) and all(
            fingerprinted_literal(item) for item in expr.items)
    return False


#: Outside bases a class of the analyzed code may have while its instances stay surely outside MAF's step identity,
#: which takes a value only of exactly ``None``, ``bool``, ``int``, ``float``, ``complex``, ``str``, ``bytes``,
#: ``list``, ``tuple`` or ``frozenset`` (``type(value) is str``: a subclass is refused), or any ``Mapping``. A class
#: with any other outside base might be a Mapping, so its instances are not judged.
_NEVER_MAPPING_BASES = frozenset({
    "builtins.object", "builtins.str", "builtins.int", "builtins.float", "builtins.bytes", "builtins.tuple",
    "builtins.list", "enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag", "typing.NamedTuple",
    "pydantic.BaseModel", "pydantic.main.BaseModel",
})


#: What builtins make that MAF's step identity never takes, whatever the parameter's annotation says (it checks the
#: value's exact type: ``range(3)`` passed as a ``list`` is refused).
_MADE_UNFINGERPRINTABLE = {
    "builtins.range()": "a range", "builtins.bytearray()": "a bytearray", "builtins.memoryview()": "a memoryview",
    "builtins.object()": "an object",
}


def unfingerprintable_values(session, values, depth: int = 2) -> str | None:  # noqa: ANN001 - a value-flow session
    """What ``values`` (every value one parameter of a call may be bound to) surely are, where MAF cannot fingerprint
    any of them: instances of classes of the analyzed code (a dataclass, an enum member, a ``str`` subclass, a
    NamedTuple), or lists, tuples and dicts whose every item is such; None where any value may be fingerprinted or is not
    known."""
    if not values:
        return None
    described: set[str] = set()
    for value in values:
        if isinstance(value, InstanceValue):
            bases = [owner for owner in session.mro(value.cls) if isinstance(owner, ExternalValue)]
            if any(base.name not in _NEVER_MAPPING_BASES for base in bases):
                return None
            described.add(f"a {value.cls.qualname.replace('.<locals>', '')}")
        elif isinstance(value, ExternalValue) and value.name in _MADE_UNFINGERPRINTABLE:
            described.add(_MADE_UNFINGERPRINTABLE[value.name])
        elif isinstance(value, ContainerValue) and value.kind == "dict" and (key := _key_not_str(session, value)):
            described.add(f"a dict keyed by {key}")  # MAF fingerprints a mapping only where every key is a str
        elif isinstance(value, ContainerValue) and value.kind in ("list", "tuple", "dict") and depth > 0:
            inner = unfingerprintable_values(session, session.read_all_cells(value), depth - 1)
            if inner is None:
                return None
            described.add(f"a {value.kind} of {inner}")
        else:
            return None
    return " or ".join(sorted(described))


def _key_not_str(session, container: ContainerValue) -> str | None:  # noqa: ANN001 - a value-flow session
    """A key written into the dict that is a literal other than a str (``{1: "a"}``), as a person reads it."""
    for key in sorted(session.container_keys(container), key=repr):
        if key is ANY or isinstance(key, (str, tuple)):  # a str, or one of the heap's own cells
            continue
        if key is None or isinstance(key, (bool, int, float, bytes)):
            return repr(key)
        if isinstance(key, KeyTuple):
            return "a tuple"
    return None

