"""The abstract values of the value-flow analysis (``steplint.analysis.interpreter``).

A name, an attribute, a container item or a return holds a *set* of these.
Objects that have contents (instances, containers, partials) are identified by
the place that makes them (``Site``) and the session that made them
(``owner``): two instances of one class made at two places stay apart, and
their contents live in the heap of the session that owns them.

``UNKNOWN`` stands for anything the analysis does not follow; no finding is
ever drawn from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import FrozenSet, Union

#: Where an object is made: (module path, line, column), or a made-up place such as ("<self>", qualname).
Site = tuple


class _Unknown:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __reduce__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


@dataclass(frozen=True, slots=True)
class ConstValue:
    """A literal small enough to key a dict or index a list: None, bool, int, float, str, bytes."""

    kind: str  # the type's name: 1, 1.0 and True are equal in Python but not as keys here
    value: object


@dataclass(frozen=True, slots=True)
class KeyTuple:
    """A tuple of literal keys as a dict's key (``routes[("us", 1)]``, ``routes["us", 1]``): its items as
    ``container_key`` gives them, so ``(1, "a")`` and ``(True, "a")`` are one key, as in Python. A key only: the
    tuple read back from the dict's keys is not followed."""

    items: tuple


@dataclass(frozen=True, slots=True)
class FunctionValue:
    """A function (or lambda) of the analyzed code; ``frame`` is the unit whose frame it closes over (0: none)."""

    path: str
    qualname: str
    frame: int


@dataclass(frozen=True, slots=True)
class ClassValue:
    path: str
    qualname: str
    frame: int


@dataclass(frozen=True, slots=True)
class InstanceValue:
    cls: ClassValue
    site: Site
    owner: int


@dataclass(frozen=True, slots=True)
class ModuleValue:
    path: str
    name: str


@dataclass(frozen=True, slots=True)
class BoundMethod:
    """``obj.method``: calling it passes ``receiver`` first."""

    function: "Value"
    receiver: "Value"


@dataclass(frozen=True, slots=True)
class ContainerValue:
    """A list, tuple, set or dict (or an iterator over one); ``length`` is known for displays, else -1."""

    kind: str
    site: Site
    owner: int
    length: int = -1


@dataclass(frozen=True, slots=True)
class PartialValue:
    """``functools.partial(f, ...)``: the heap holds its function and arguments."""

    site: Site
    owner: int


@dataclass(frozen=True, slots=True)
class ExternalValue:
    """A name outside the analyzed code, by its dotted name; ``x()`` is a value that calling ``x`` made."""

    name: str


@dataclass(frozen=True, slots=True)
class StepOptions:
    """The options a call of MAF's ``step``/``workflow`` passed, as far as the value flow knows them."""

    name: str | None = None  # ``name=``, when it is one string
    replay_key: bool = False  # ``replay_key=`` may be given something other than None (``**options`` may pass it)
    #: ``replay_key=`` is surely passed, whatever its value (the keyword itself is what 1.19's ``step`` rejects).
    replay_key_given: bool = False
    #: Made by ``FunctionalWorkflow(fn, ...)``: the runnable workflow itself (``run()``), not a definition.
    built: bool = False


@dataclass(frozen=True, slots=True)
class StepValue:
    """What MAF's ``step`` (kind "step") or ``workflow`` made, at a definition site (path, line, column).

    ``options``: what the call of MAF passed (``name=``, ``replay_key=``), as the value flow saw it: for a
    step made through a wrapper or factory of the project, the only account of them."""

    kind: str
    site: Site
    function: "FunctionValue | None"
    options: StepOptions | None = None


@dataclass(frozen=True, slots=True)
class StepFactoryValue:
    """``step(name=..., replay_key=...)``: calling it with a function makes the step."""

    kind: str
    options: StepOptions | None = None


@dataclass(frozen=True, slots=True)
class CoroutineValue:
    """The coroutine a call of an async function (or a step) made; awaiting it gives the call's result."""

    callee: "Value"
    site: Site
    unit: int


@dataclass(frozen=True, slots=True)
class GeneratorValue:
    """A generator a call made: iterating it runs the call's unit and gives what it yields. ``made_in`` and
    ``made_at`` are the unit and the call site that made it, where an iteration with no site of its own (a
    comprehension) is reported."""

    unit: int
    made_in: int = 0
    made_at: tuple | None = None


@dataclass(frozen=True, slots=True)
class DescriptorValue:
    """``staticmethod(f)``, ``classmethod(f)`` or ``property(f)`` in a class body (a property's ``setter``: the
    function ``@prop.setter`` or ``property(fget, fset)`` gave it)."""

    kind: str
    function: "Value"
    setter: "Value | None" = None


@dataclass(frozen=True, slots=True)
class BuiltinMethod:
    """A method of a container or of a literal (``items.append``, ``d.get``)."""

    receiver: "Value"
    name: str


@dataclass(frozen=True, slots=True)
class SuperValue:
    """``super()`` in a method of ``cls``, bound to ``receiver``."""

    cls: ClassValue
    receiver: "Value"


@dataclass(frozen=True, slots=True)
class ContextManagerValue:
    """A call of a ``contextlib.(async)contextmanager`` function: entering it gives what the generator yields."""

    unit: int


Value = Union[
    _Unknown, ConstValue, FunctionValue, ClassValue, InstanceValue, ModuleValue, BoundMethod, ContainerValue,
    PartialValue, ExternalValue, StepValue, StepFactoryValue, CoroutineValue, GeneratorValue, DescriptorValue,
    BuiltinMethod, SuperValue, ContextManagerValue,
]
Values = FrozenSet[Value]

#: The key of a container's items whose index or key is not a literal (``items.append(x)``); internal keys are tuples.
ANY = ("#any",)

#: A record class' cell (dataclass, namedtuple) holding the tuple of its ``__init__`` fields' names, in order.
RECORD_FIELDS = ("#record_fields",)
#: A ``collections.defaultdict``'s cell holding its factory: reading a key it lacks calls the factory.
DEFAULT_FACTORY = ("#default_factory",)
#: An enum's cell that marks it as one: ``Enum["NAME"]`` reads the member ``NAME``.
ENUM_MEMBERS = ("#enum_members",)
#: A lambda's cell (with a name) holding what a variable of the comprehension that made it holds once that has run.
LATE_BINDING = "#late"
#: An enum's cell holding its members (not their aliases): what iterating the class gives.
ENUM_ITERATION = ("#enum_iteration",)
#: The site tag of an enum member that equals only itself (a plain ``Enum``/``Flag`` whose members' values are
#: distinct literals or all ``auto()``): a dict keeps such a member's item apart from every other key.
KEYED_MEMBER = "keyed member"

EMPTY: Values = frozenset()
ONLY_UNKNOWN: Values = frozenset({UNKNOWN})
#: A set past this size keeps UNKNOWN and the first values in a stable order: precision is gone anyway.
MAX_VALUES = 32
_CONST_TYPES = (type(None), bool, int, float, str, bytes)


def const(value: object) -> Values:
    if type(value) in _CONST_TYPES and (not isinstance(value, (str, bytes)) or len(value) <= 200):
        return one(ConstValue(type(value).__name__, value))
    return ONLY_UNKNOWN


class SharedTable(dict):
    """Equal immutable sets made in many places, kept once (by a key that is cheap to look up before making one).

    Bounded: past ``limit`` entries it starts over from ``seed``, so a long-lived editor session does not grow it
    without end (sharing is lost for a while, never a result).
    """

    def __init__(self, limit: int, seed: dict | None = None):
        super().__init__(seed or {})
        self.limit = limit
        self.seed = dict(seed or {})

    def keep(self, key: object, made: frozenset) -> frozenset:
        """The set kept for ``key``: ``made``, unless an equal one is kept already."""
        if len(self) >= self.limit:
            self.clear()
            self.update(self.seed)
        return self.setdefault(key, made)


#: One set per value held alone: every module that reads "id" or imports ``json.dumps`` holds the same set (most
#: sets the analysis keeps hold one value, and a frozenset of one costs 216 bytes).
_ONE = SharedTable(1 << 15, {UNKNOWN: ONLY_UNKNOWN})


def one(value: "Value") -> Values:
    """``frozenset({value})``, shared between equal values (never for a float: 0.0 == -0.0, and nan != nan)."""
    found = _ONE.get(value)
    if found is None:
        found = frozenset({value})
        if type(value) is ConstValue and type(value.value) is float:
            return found
        return _ONE.keep(value, found)
    return found


#: The values many places hold alone; a function, a class or a step is held by few, so its set is not shared.
_SHARED_KINDS = frozenset({ConstValue, ExternalValue, ContainerValue, ModuleValue, _Unknown})


def kept(values: Values) -> Values:
    """``values`` as a place keeps them: a set of one literal, outside name, container or module is the shared one."""
    if len(values) != 1:
        return values
    for value in values:
        if type(value) in _SHARED_KINDS:
            return one(value)
    return values


def bounded(values: set | frozenset) -> Values:
    if len(values) <= MAX_VALUES:
        return frozenset(values)
    first = sorted(values, key=stable_key)[: MAX_VALUES - 1]
    return frozenset([*first, UNKNOWN])


# Small: the cache holds its values (and their texts) alive; 4,096 keep the hits of one module's sorts, and 65,536
# cost 18 MB on a 2,000-file run for 0.1% fewer instructions.
@lru_cache(maxsize=1 << 12)
def stable_key(value: "Value") -> str:
    """An order for values that does not depend on the order the analysis ran in (unit numbers are left out)."""
    return repr(_stable(value))


def _stable(value: "Value") -> tuple:
    kind = type(value).__name__
    if isinstance(value, (FunctionValue, ClassValue)):
        return (kind, value.path, value.qualname)
    if isinstance(value, InstanceValue):
        return (kind, _stable(value.cls), value.site)
    if isinstance(value, ContainerValue):
        return (kind, value.kind, value.site, value.length)
    if isinstance(value, StepValue):
        return (kind, value.kind, value.site, repr(value.options))  # one definition may be made with two sets of options
    if isinstance(value, PartialValue):
        return (kind, "", value.site)
    if isinstance(value, ExternalValue):
        return (kind, value.name)
    if isinstance(value, ConstValue):
        return (kind, value.kind, repr(value.value))
    if isinstance(value, ModuleValue):
        return (kind, value.path)
    if isinstance(value, BoundMethod):
        return (kind, _stable(value.function), _stable(value.receiver))
    if isinstance(value, CoroutineValue):
        return (kind, _stable(value.callee), value.site)
    if isinstance(value, DescriptorValue):
        return (kind, value.kind, _stable(value.function))
    if isinstance(value, BuiltinMethod):
        return (kind, _stable(value.receiver), value.name)
    if isinstance(value, SuperValue):
        return (kind, _stable(value.cls), _stable(value.receiver))
    if isinstance(value, StepFactoryValue):
        return (kind, value.kind)
    if isinstance(value, KeyTuple):
        return (kind, repr(value.items))
    return (kind,)


def holder_path(value: Value) -> str | None:
    """The module file that defines a function, class or step value."""
    if isinstance(value, (FunctionValue, ClassValue)):
        return value.path
    if isinstance(value, StepValue):
        return value.site[0]
    return None
