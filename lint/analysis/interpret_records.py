"""Records in the value-flow interpreter: what ``@dataclass`` and ``enum.Enum`` generate for a class.

A dataclass' generated ``__init__`` stores each field's argument (``interpret_calls`` runs it from the
fields recorded here) and its ``__match_args__`` names the fields. An enum's members are instances of
the enum made when the class is, each holding its ``value`` and ``name``; ``Op["RUN"]`` reads one.
"""

from __future__ import annotations

from steplint.analysis.interpret_shared import Frame, SessionApi, container_key
from steplint.analysis.values import (
    RECORD_FIELDS,
    ENUM_ITERATION,
    ENUM_MEMBERS,
    BoundMethod,
    KEYED_MEMBER,
    ClassValue,
    ConstValue,
    ContainerValue,
    DescriptorValue,
    ExternalValue,
    FunctionValue,
    InstanceValue,
    Values,
    one,
)
from steplint.core.summary import AssignStmt, CallExpr, ClassSummary, Const, NameTarget, Ref, Subscript

_DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "dataclasses.dataclass()"})
NAMED_TUPLE_BASES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
_ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"})
_IDENTITY_ENUM_BASES = frozenset({"enum.Enum", "enum.Flag"})
#: What an enum class may define to make its members equal something else, or one another.
_VALUE_HOOKS = frozenset({"__eq__", "__hash__", "__new__", "_generate_next_value_"})
_AUTO = one(ExternalValue("enum.auto()"))


class Records:
    """Adds to a class what Python generates for a dataclass or an enum."""

    def __init__(self, session: SessionApi):
        self.session = session

    def class_decorated(self, cls: ClassValue, summary: ClassSummary, decorators: Values, frame: Frame) -> None:
        if any(isinstance(v, ExternalValue) and v.name in _DATACLASS_DECORATORS for v in decorators):
            self._dataclass_fields(cls, summary, frame)

    def _dataclass_fields(self, cls: ClassValue, summary: ClassSummary, frame: Frame) -> None:
        """What ``@dataclass`` generates from the annotated names: ``__init__``'s fields and ``__match_args__``."""
        session = self.session
        names = [name for name, annotation in summary.fields if not _is_class_var(annotation)]
        fields = ContainerValue("tuple", (frame.unit.module.path, "dataclass", summary.qualname), session.id, len(names))
        for position, name in enumerate(names):
            session.write_cell(fields, position, one(ConstValue("str", name)), frame, exact=True)
        session.write_cell(cls, RECORD_FIELDS, frozenset({fields}), frame, exact=True)
        if "__match_args__" not in summary.body_names:
            session.write_cell(cls, "__match_args__", frozenset({fields}), frame, exact=True)

    def class_made(self, cls: ClassValue, summary: ClassSummary, body: dict, frame: Frame) -> dict[str, Values]:
        """An enum's members, by name: each name its body binds to something other than a function or descriptor.

        A ``typing.NamedTuple`` class gets its fields as a dataclass does."""
        session = self.session
        members: dict[str, Values] = {}
        outside = {base.name for base in session.mro(cls) if isinstance(base, ExternalValue)}
        if outside & NAMED_TUPLE_BASES:
            self._dataclass_fields(cls, summary, frame)
        if not outside & _ENUM_BASES:
            return members
        session.write_cell(cls, ENUM_MEMBERS, one(ConstValue("bool", True)), frame)
        # ``enum.member(f)`` makes a member of what would be a method; ``enum.nonmember(x)`` keeps ``x`` an attribute
        marked = {name: frozenset(v.function for v in values if isinstance(v, DescriptorValue)) for name, values in body.items()
                  if _is_member_name(name, summary.name) and values
                  and all(isinstance(v, DescriptorValue) and v.kind == "enum.member" for v in values)}
        bound = {name: values for name, values in body.items() if _is_member_name(name, summary.name)
                 and not any(isinstance(v, (FunctionValue, DescriptorValue)) for v in values)} | marked
        keyed = self._members_are_identities(cls, outside, bound.values()) and _bound_once_plainly(summary, bound)
        tag = KEYED_MEMBER if keyed else "member"
        # The enum's own ``__init__`` runs for each member with the member's value as its arguments.
        initializers = [v for v in body.get("__init__", ()) if isinstance(v, FunctionValue)]
        by_value: dict[object, InstanceValue] = {}
        for name, values in bound.items():
            literal = _literal(values)
            alias = by_value.get(container_key(literal)) if literal is not None else None
            if alias is not None:  # a name bound to an earlier member's value is that member (an alias)
                members[name] = frozenset({alias})
                continue
            member = InstanceValue(cls, (frame.unit.module.path, tag, summary.qualname, name), session.id)
            session.write_cell(member, "value", values, frame, exact=True)
            session.write_cell(member, "name", one(ConstValue("str", name)), frame, exact=True)
            members[name] = frozenset({member})
            if initializers:  # ``LOUD = ("loud", inner)`` with ``__init__(self, label, runner)``: a tuple is spread
                tuples = [v for v in values if isinstance(v, ContainerValue) and v.kind == "tuple"]
                items = session.exact_items(frozenset(tuples)) if tuples and len(tuples) == len(values) else None
                arguments = items if items is not None else [values]
                session.call(frozenset(BoundMethod(f, member) for f in initializers), arguments, [], None, frame)
            if literal is not None:
                by_value[container_key(literal)] = member
        distinct = frozenset(member for name, values in members.items() for member in values
                             if member.site[-1] == name)  # type: ignore[attr-defined]
        session.write_cell(cls, ENUM_ITERATION, distinct, frame, exact=True)  # ``for member in Enum``
        return members

    def _members_are_identities(self, cls: ClassValue, outside: set, values: object) -> bool:
        """Whether each member equals only itself, as a dict key: a plain ``Enum``/``Flag`` (no ``str``/``int``
        mix-in, no ``__eq__``/``__hash__``/``__new__`` of its own) whose values are distinct literals or all
        ``auto()`` (a literal and an ``auto()`` may be one member: ``A = auto(); B = 1``)."""
        if not outside <= _IDENTITY_ENUM_BASES:
            return False
        engine = self.session.engine
        for base in self.session.mro(cls):
            summary = engine.classes.get((base.path, base.qualname)) if isinstance(base, ClassValue) else None
            if summary is None and isinstance(base, ClassValue) or summary is not None and _VALUE_HOOKS & set(summary.body_names):
                return False
        kinds = {"literal" if _literal(v) is not None else "auto" if v == _AUTO else "other" for v in values}  # type: ignore[attr-defined]
        return kinds in ({"literal"}, {"auto"})


def _is_member_name(name: str, class_name: str) -> bool:
    """What ``enum`` makes a member of, by name: not a ``__dunder__``, a ``_sunder_`` or a private
    (``_Class__name``) name (a single leading underscore is a member: ``_A = 1``)."""
    if len(name) > 4 and name.startswith("__") and name.endswith("__"):
        return False
    if len(name) > 2 and name[0] == name[-1] == "_" and name[1] != "_" and name[-2] != "_":
        return False
    return not name.startswith(f"_{class_name.lstrip('_')}__")


def _bound_once_plainly(summary: ClassSummary, names: dict) -> bool:
    """Each member bound once, by an assignment of a literal or of a call (``auto()``): a member bound to another
    name (``PREMIUM = GOLD``: an alias) or twice is not known to be a member of its own."""
    counts: dict[str, int] = {}
    for statement in summary.body:
        if isinstance(statement, AssignStmt):
            for target in statement.targets:
                if isinstance(target, NameTarget) and target.name in names:
                    if not isinstance(statement.value, (Const, CallExpr)) or len(statement.targets) > 1:
                        return False
                    counts[target.name] = counts.get(target.name, 0) + 1
    return all(counts.get(name) == 1 for name in names)


def _literal(values: Values) -> ConstValue | None:
    (value,) = values if len(values) == 1 else (None,)
    return value if isinstance(value, ConstValue) else None


def _is_class_var(annotation: object) -> bool:
    return isinstance(annotation, Ref) and annotation.dotted.rsplit(".", 1)[-1] == "ClassVar" or (
        isinstance(annotation, Subscript) and _is_class_var(annotation.base))
