"""Attribute and item lookup for the value-flow interpreter: modules, instances, classes (C3 order), ``super()``.

Reads go through the session's heap; a method read through an instance becomes
a bound method, a property read runs its getter. Stores into attributes and
items live here too, so that what ``x.a = v`` writes is where ``x.a`` looks.
"""

from __future__ import annotations

from typing import Callable

from steplint.analysis.builtin_models import is_container_method, record_field_names
from steplint.analysis.interpret_records import NAMED_TUPLE_BASES
from steplint.analysis.interpret_shared import (CONTAINER_BASES, EngineApi, Frame, SessionApi, as_containers, container_key, is_key,
                                                items_of, keyed, ordered, outside_base)
from steplint.analysis.values import (
    DEFAULT_FACTORY,
    ENUM_MEMBERS,
    ANY,
    EMPTY,
    ONLY_UNKNOWN,
    UNKNOWN,
    BoundMethod,
    BuiltinMethod,
    RECORD_FIELDS,
    ClassValue,
    ConstValue,
    ContainerValue,
    DescriptorValue,
    ExternalValue,
    FunctionValue,
    GeneratorValue,
    InstanceValue,
    ModuleValue,
    StepValue,
    SuperValue,
    Value,
    Values,
    bounded,
    const,
    one,
)
from steplint.core.summary import AssignStmt, AttrTarget, CallExpr, Const, Display, ModuleSummary, Ref

BUILTIN_NAMES = frozenset(dir(__builtins__) if isinstance(__builtins__, dict) is False else __builtins__) | {
    "None", "True", "False", "__name__", "__file__"}


class AttributeLookup:
    """What ``value.name`` and ``value[key]`` read, and where ``value.name = ...`` and ``value[key] = ...`` write."""

    def __init__(self, session: SessionApi):
        self.session = session
        self.mro_cache: dict = {}  # bases are cells: a pass may add to them, so the driver clears it every pass

    def attribute(self, values: Values, name: str, frame: Frame) -> Values:
        found: set = set()
        for value in ordered(values):
            found.update(self.attribute_of(value, name, frame))
        return bounded(found) if found else EMPTY

    def attribute_of(self, value: Value, name: str, frame: Frame) -> Values:
        read = _READERS.get(type(value))
        return read(self, value, name, frame) if read is not None else ONLY_UNKNOWN

    def _of_module(self, value: ModuleValue, name: str, frame: Frame) -> Values:
        module = self.session.engine.modules_by_path.get(value.path)
        return self.module_attribute(module, name, frame) if module is not None else ONLY_UNKNOWN

    def _of_external(self, value: ExternalValue, name: str, frame: Frame) -> Values:
        return one(ExternalValue(f"{value.name}.{name}"))

    def _of_class(self, value: ClassValue, name: str, frame: Frame) -> Values:
        if name == "__name__":  # type's own data descriptor: a ``__name__`` in the class body does not hide it
            # An assignment (``Cls.__name__ = ...``, or a body's own ``__name__``, which Python ignores here) may hold.
            return self.session.read_cell(value, "__name__") | const(value.qualname.rpartition(".")[2])
        # read through the class: a classmethod is bound to it, not to the base that defines it
        return self.class_attribute(value, name, value, frame)

    def _of_step(self, value: StepValue, name: str, frame: Frame) -> Values:
        if name == "__wrapped__" and value.function is not None:
            return frozenset({value.function})
        if name == "__name__" and value.function is not None:  # the function's, whatever ``name=`` says
            function = value.function
            summary = self.session.engine.functions.get((function.path, function.qualname))
            if summary is not None and summary.decorators and _makes_the_step(summary.decorators[-1]):
                # ``@step`` right on the ``def``: no decorator renamed it first (``step.__name__ = ...`` may have since)
                return self.session.read_cell(value, "__name__") | const(summary.name)
        return ONLY_UNKNOWN

    def _of_function(self, value: FunctionValue, name: str, frame: Frame) -> Values:
        stored = self.session.read_cell(value, name)
        if stored:
            return stored
        if name == "__name__":  # what its ``def`` named it, unless ``functools.wraps`` renamed it
            summary = self.session.engine.functions.get((value.path, value.qualname))
            if summary is not None and not any(_decorator_name(d) in _RENAMING for d in summary.decorators):
                return const(summary.name)
        return ONLY_UNKNOWN

    def _of_builtin(self, value: Value, name: str, frame: Frame) -> Values:
        return frozenset({BuiltinMethod(value, name)})

    def _of_descriptor(self, value: DescriptorValue, name: str, frame: Frame) -> Values:
        if name in ("setter", "getter", "deleter") or (name == "register" and value.kind == "singledispatchmethod"):
            return frozenset({BuiltinMethod(value, name)})
        if name == "__func__":
            return frozenset({value.function})
        return ONLY_UNKNOWN

    def _of_bound_method(self, value: BoundMethod, name: str, frame: Frame) -> Values:
        if name == "__func__":
            return frozenset({value.function})
        if name == "__self__":
            return frozenset({value.receiver})
        return ONLY_UNKNOWN

    def instance_attribute(self, instance: InstanceValue, name: str, frame: Frame) -> Values:
        own = self.session.read_cell(instance, name)
        if name == "data" and not own and self._user_container(instance.cls):  # ``UserDict``'s own dict: its items
            return frozenset(as_containers(self.session, frozenset({instance})))
        if own and name in self._generated_fields(instance.cls):
            return own  # the generated ``__init__`` stored it on every instance: the class's default is hidden
        order = self.mro(instance.cls)
        from_class = self._through(order, name, instance, frame)
        if own:
            return own | (from_class - ONLY_UNKNOWN)
        if not _is_special(name) and self._missing(order, name):
            # Found neither on the instance nor in the class order: Python calls ``type(obj).__getattr__(obj, name)``.
            fallback = [v for v in self._through(order, "__getattr__", instance, frame) if isinstance(v, BoundMethod)]
            if fallback:
                site = frame.site if frame is not None else None
                return self.session.call(frozenset(fallback), [const(name)], [], site, frame)
        return from_class

    def _generated_fields(self, cls: ClassValue) -> list[str]:
        """The attributes ``__init__`` stores on every instance it makes: the fields of a record class's generated
        ``__init__`` (a dataclass, a ``NamedTuple``), or what the class's own ``__init__`` assigns first
        (``_assigned_first``); the first class of the order with an ``__init__`` or record fields decides, as
        construction finds it."""
        for owner in self.mro(cls):
            if not isinstance(owner, ClassValue):
                return []
            init = self.session.read_cell(owner, "__init__")
            if init:
                return _assigned_first(self.session.engine, init)
            if self.session.read_cell(owner, RECORD_FIELDS):
                return record_field_names(self.session, cls)  # type: ignore[arg-type]
        return []

    def special_method(self, instance: InstanceValue, name: str, frame: Frame) -> Values:
        """``type(obj).name`` bound to ``obj``: Python looks a protocol method up on the class only, never on the
        instance nor through ``__getattr__``."""
        return self.class_attribute(instance.cls, name, instance, frame)

    def _missing(self, order: list, name: str) -> bool:
        """``name`` is in none of the classes of ``order`` (an outside class other than ``object`` may have it)."""
        for owner in order:
            if isinstance(owner, ExternalValue):
                return owner.name == "builtins.object"
            if self.session.read_cell(owner, name):
                return False
        return True

    def class_attribute(self, cls: ClassValue, name: str, receiver: Value | None, frame: Frame) -> Values:
        """``name`` looked up through the MRO of ``cls``."""
        return self._through(self.mro(cls), name, receiver, frame)

    def _through(self, order: list, name: str, receiver: Value | None, frame: Frame) -> Values:
        """``name`` in the first of the classes ``order`` that has it; an outside class ends the search."""
        for owner in order:
            if isinstance(owner, ExternalValue):
                kind = CONTAINER_BASES.get(owner.name)
                if kind is not None and isinstance(receiver, InstanceValue):
                    # a subclass of ``dict`` (a registry): the base's methods work on the instance's items
                    if name == "__init__":
                        return frozenset({BuiltinMethod(items_of(receiver, kind), f"#init {owner.name}")})
                    if is_container_method(name):
                        return frozenset({BuiltinMethod(items_of(receiver, kind), name)})
                if name == "_make" and owner.name in NAMED_TUPLE_BASES:  # ``Stage._make(items)``: ``Stage(*items)``
                    cls = receiver.cls if isinstance(receiver, InstanceValue) else receiver
                    if isinstance(cls, ClassValue):
                        return frozenset({BuiltinMethod(cls, "#make")})
                return one(ExternalValue(f"{owner.name}.{name}"))
            stored = self.session.read_cell(owner, name)
            if not stored:
                continue
            found: set = set()
            for value in stored:
                found.update(self.bind_to(value, receiver, owner, frame))
            return bounded(found)
        return ONLY_UNKNOWN

    def super_attribute(self, value: SuperValue, name: str, frame: Frame) -> Values:
        """``super().name``: looked up in the receiver's class order, after the class the method is defined in."""
        receiver = value.receiver
        cls = receiver.cls if isinstance(receiver, InstanceValue) else receiver if isinstance(receiver, ClassValue) else value.cls
        order = self.mro(cls)
        position = next((i for i, c in enumerate(order) if isinstance(c, ClassValue) and c.path == value.cls.path
                         and c.qualname == value.cls.qualname), None)
        if position is None:
            order, position = self.mro(value.cls), 0
        return self._through(order[position + 1:], name, receiver, frame)

    def bind_to(self, value: Value, receiver: Value | None, owner: ClassValue, frame: Frame) -> Values:
        """A class attribute as read through an instance (a bound method) or through the class."""
        if isinstance(value, DescriptorValue):
            if value.kind in ("staticmethod", "enum.member", "enum.nonmember"):  # (an enum's members are made apart)
                return frozenset({value.function})
            if value.kind == "classmethod":
                cls = receiver.cls if isinstance(receiver, InstanceValue) else receiver if isinstance(receiver, ClassValue) else owner
                return frozenset({BoundMethod(value.function, cls)})
            if value.kind == "singledispatchmethod":  # bound to the instance, or to the class read through
                bound_to = receiver if isinstance(receiver, (InstanceValue, ClassValue)) else owner
                return frozenset({BoundMethod(value, bound_to)})
            if value.kind == "partialmethod":  # through the class, the first argument of the call is the instance
                return frozenset({BoundMethod(value, receiver) if isinstance(receiver, InstanceValue) else value})
            if value.kind == "property" and isinstance(receiver, InstanceValue):  # the getter runs where it is read
                site = frame.site if frame is not None else None
                return self.session.call(frozenset({BoundMethod(value.function, receiver)}), [], [], site, frame)
            return ONLY_UNKNOWN
        if isinstance(value, FunctionValue) and isinstance(receiver, InstanceValue):
            return frozenset({BoundMethod(value, receiver)})
        if isinstance(value, BuiltinMethod) and value.name == "#contextmanager" and isinstance(receiver, InstanceValue):
            # a ``@contextmanager`` method: the instance is its ``self``, as for a plain method
            return frozenset({BoundMethod(value, receiver)})
        if isinstance(value, InstanceValue):
            # An object whose class defines ``__get__`` (a descriptor): the read is what
            # ``type(value).__get__(value, instance or None, owner)`` returns, run where it is read.
            getters = [v for v in self.special_method(value, "__get__", frame) if isinstance(v, BoundMethod)]
            if getters:
                instance = frozenset({receiver}) if isinstance(receiver, InstanceValue) else const(None)
                owner_class = receiver.cls if isinstance(receiver, InstanceValue) else receiver if isinstance(receiver, ClassValue) else owner
                site = frame.site if frame is not None else None
                return self.session.call(frozenset(getters), [instance, frozenset({owner_class})], [], site, frame)
        return frozenset({value})

    # --- the class order ------------------------------------------------------------------

    def bases(self, cls: ClassValue) -> list:
        """The values of ``cls``'s bases, in the order written (a base that may be several values gives each)."""
        summary = self.session.engine.classes.get((cls.path, cls.qualname))
        found: list = []
        for position in range(len(summary.bases) if summary is not None else 0):
            values = self.session.read_cell(cls, ("#base", position))
            found.extend(ordered(frozenset(v for v in values if isinstance(v, (ClassValue, ExternalValue)))))
        return found

    def mro(self, cls: ClassValue, depth: int = 0) -> list:
        """C3 linearization over the analyzed classes; an outside base ends its branch (kept for a pass)."""
        found = self.mro_cache.get(cls)
        if found is None:
            found = self.mro_cache[cls] = self._linearize(cls, depth)
        return found

    def _linearize(self, cls: ClassValue, depth: int) -> list:
        if depth > 32:
            return [cls]
        bases = self.bases(cls)
        sequences = [self.mro(b, depth + 1) if isinstance(b, ClassValue) else [b] for b in bases] + [list(bases)]
        order = [cls]
        while True:
            sequences = [s for s in sequences if s]
            if not sequences:
                return order
            for sequence in sequences:
                head = sequence[0]
                if not any(head in other[1:] for other in sequences):
                    break
            else:  # no consistent order (Python would refuse the class): the rest depth first
                for sequence in sequences:
                    order.extend(v for v in sequence if v not in order)
                return order
            order.append(head)
            sequences = [s[1:] if s[0] == head else s for s in sequences]

    # --- module names -----------------------------------------------------------------------

    def module_attribute(self, module: ModuleSummary, name: str, frame: Frame | None, from_inside: bool = False) -> Values:
        session = self.session
        engine = session.engine
        found = engine.module_env(module).get(name)
        written = session.heap.global_writes.get((module.path, name))
        session.observed.add(("global", (module.path, name)))
        importer = engine.module_units.get(module.path)
        if importer is not None and importer.session is not session:
            during_import = importer.session.heap.global_writes.get((module.path, name))
            if during_import:
                written = during_import | written if written else during_import
        if found is not None:
            return found | written if written else found
        if written:
            return written
        if not from_inside:
            return unset_module_attribute(engine, module, name)
        return _submodule(engine, module, name) or self.global_fallback(module, name)

    def global_fallback(self, module: ModuleSummary, name: str) -> Values:
        """A name the module does not bind: from an outside module's ``*``, a builtin, or unknown."""
        if name == "__name__":
            return self._module_dunder_name(module)
        if name == "__package__" and module.module and module.module.rpartition(".")[2] != "__main__":
            # The package it is imported as; a function may run in a script, where it is None.
            package = const(module.module if module.is_package else module.module.rpartition(".")[0])
            session = self.session
            importing = session.kind == "import" and session.module is not None and session.module.path == module.path
            return package if importing else package | const(None)
        return unbound_module_name(self.session.engine, module, name)

    def _module_dunder_name(self, module: ModuleSummary) -> Values:
        """``__name__`` while ``module`` is being imported is its dotted name, so an ``if __name__ ==
        "__main__":`` block is skipped exactly as Python skips it on import (a script's ``main()`` and all it
        calls never run in the import of the module). Elsewhere (a function may run in a script) unknown."""
        session = self.session
        importing = session.kind == "import" and session.module is not None and session.module.path == module.path
        if importing and module.module and module.module.rpartition(".")[2] != "__main__":
            return const(module.module)
        return ONLY_UNKNOWN

    # --- stores and items -------------------------------------------------------------------

    def store_attribute(self, owner: Value, name: str, values: Values, frame: Frame) -> None:
        kind = type(owner)
        session = self.session
        if kind is InstanceValue and self._set_through_property(owner, name, values, frame):  # type: ignore[arg-type]
            return
        if kind is InstanceValue or kind is ClassValue or kind is FunctionValue:
            exact = owner in frame.fresh and frame.conditional == 0
            session.write_cell(owner, name, values, frame, exact=exact)
        elif kind is ModuleValue:
            if session.kind == "import" and session.module is not None and owner.path == session.module.path:
                session.write_global(session.module, name, values)
            elif session.kind == "runtime":
                module = session.engine.modules_by_path.get(owner.path)
                if module is not None:
                    session.write_global(module, name, values)

    def _set_through_property(self, owner: InstanceValue, name: str, values: Values, frame: Frame) -> bool:
        """``obj.name = v`` where the class order gives ``name`` a property with a setter: Python runs the setter
        (a data descriptor comes before the instance's own attributes), and stores nothing under ``name``."""
        for cls in self.mro(owner.cls):
            if isinstance(cls, ExternalValue):
                return False
            stored = self.session.read_cell(cls, name)
            if not stored:
                continue
            setters = [v.setter for v in stored if isinstance(v, DescriptorValue) and v.kind == "property"
                       and v.setter is not None]
            if not setters or len(setters) != len(stored):
                return False
            site = frame.site if frame is not None else None
            self.session.call(frozenset(BoundMethod(setter, owner) for setter in setters), [values], [], site, frame)
            return True
        return False

    def store_item(self, base: Value, keys: Values, values: Values, frame: Frame, exact: bool = False) -> None:
        if isinstance(base, ContainerValue):
            keys = keyed(self.session, keys) if base.kind == "dict" else keys
            exact = exact and base in frame.fresh and frame.conditional == 0 and len(keys) == 1
            for key in keys:
                if is_key(key) and (base.kind == "dict" or isinstance(key, ConstValue) and base.kind in ("list", "tuple")):
                    self.session.write_cell(base, container_key(key), values, frame, exact=exact)
                else:
                    self.session.write_cell(base, ANY, values, frame)
        elif isinstance(base, InstanceValue):
            setter = self.instance_attribute(base, "__setitem__", frame)
            self.session.call(setter, [keys, values], [], None, frame)

    def item(self, bases: Values, keys: Values, frame: Frame, by_getitem: bool = False) -> Values:
        """What ``base[key]`` reads (``by_getitem``: through ``__getitem__``, which a defaultdict answers for a key
        it lacks with its factory's value; ``get``, ``pop`` and mapping patterns never call the factory)."""
        found: set = set()
        if not keys:
            return EMPTY  # an index that never has a value (a parameter no call gave)
        for base in bases:
            if isinstance(base, ContainerValue):
                factory = self.session.read_cell(base, DEFAULT_FACTORY) if by_getitem and base.kind == "dict" else EMPTY
                if factory:  # a defaultdict: a key it lacks reads what its factory makes, stored under the key
                    made = self.session.call(factory, [], [], frame.site, frame)
                    found.update(made)
                    if made - ONLY_UNKNOWN:
                        self.store_item(base, keys, made - ONLY_UNKNOWN, frame)
                read = keyed(self.session, keys) if base.kind == "dict" else keys
                known = [k for k in read if is_key(k)]
                if known and len(known) == len(read):
                    for key in known:
                        found.update(self.session.read_cell_here(base, _index(base, key), frame))
                else:
                    found.update(self.session.read_all_cells(base))
            elif isinstance(base, InstanceValue):
                getter = self.instance_attribute(base, "__getitem__", frame)
                found.update(self.session.call(getter, [keys], [], None, frame))
                items = [g.receiver for g in getter if isinstance(g, BuiltinMethod)]
                if by_getitem and items and not self._surely_held(items, keys):
                    # a dict subclass's ``__getitem__`` is dict's, which calls ``__missing__`` for a key it lacks
                    missing = [v for v in self._through(self.mro(base.cls), "__missing__", base, frame)
                               if isinstance(v, BoundMethod)]
                    if missing:
                        found.update(self.session.call(frozenset(missing), [keys], [], None, frame))
            elif isinstance(base, ClassValue) and self.session.read_cell(base, ENUM_MEMBERS):
                for key in keys:  # ``Op["RUN"]``: the member named RUN
                    named = isinstance(key, ConstValue) and isinstance(key.value, str)
                    found.update(self.class_attribute(base, key.value, None, frame) if named else ONLY_UNKNOWN)
            elif isinstance(base, ClassValue) and (hooks := self._class_getitem(base)):
                # ``Codec["json"]``: ``__class_getitem__``, a classmethod unless written as a staticmethod
                found.update(self.session.call(frozenset(hooks), [keys], [], frame.site, frame))
            elif isinstance(base, (ClassValue, ExternalValue)):
                found.add(base if isinstance(base, ClassValue) else UNKNOWN)  # ``Box[int]``: a generic alias
            else:
                found.add(UNKNOWN)
        return bounded(found)

    def _surely_held(self, containers: list, keys: Values) -> bool:
        """Whether every key is a literal each container holds a value under (as ``[]`` reads them: a deletion is
        not followed), so that ``__missing__`` is not called."""
        return all(is_key(key) for key in keys) and all(
            self.session.read_cell(container, container_key(key)) for container in containers for key in keys)

    def _user_container(self, cls: ClassValue) -> bool:
        """Whether ``collections.UserDict`` or ``UserList`` is the outside class ``cls``'s order reaches."""
        return outside_base(self.session, cls) in ("collections.UserDict", "collections.UserList")

    def _class_getitem(self, cls: ClassValue) -> list:
        """What ``cls[key]`` calls: the ``__class_getitem__`` of the first class of ``cls``'s order that defines one,
        bound to ``cls`` (implicitly a classmethod), or as it is where it is a staticmethod."""
        for owner in self.mro(cls):
            if not isinstance(owner, ClassValue):
                return []
            stored = self.session.read_cell(owner, "__class_getitem__")
            if stored:
                found: list = []
                for value in stored:
                    if isinstance(value, DescriptorValue) and value.kind == "staticmethod":
                        found.append(value.function)
                    elif isinstance(value, DescriptorValue) and value.kind == "classmethod":
                        found.append(BoundMethod(value.function, cls))
                    elif isinstance(value, FunctionValue):
                        found.append(BoundMethod(value, cls))
                return found
        return []


#: Decorators that give the function they decorate another function's ``__name__``.
_RENAMING = frozenset({"wraps", "update_wrapper"})


def _decorator_name(decorator: object) -> str:
    """The last name of a decorator as spelled (``step`` for ``@af.step(name=...)``), else ""."""
    if isinstance(decorator, CallExpr):
        decorator = decorator.func
    return decorator.dotted.rpartition(".")[2] if isinstance(decorator, Ref) else ""


def _makes_the_step(decorator: object) -> bool:
    """Whether a ``def``'s innermost decorator is spelled as MAF's ``step`` (``@step``, ``@step(name=...)``,
    ``@af.step``): then the step wraps the function the ``def`` made. Any other spelling may be a decorator that
    returns another function, whose ``__name__`` is not known."""
    return _decorator_name(decorator) == "step"


def unset_module_attribute(engine: EngineApi, module: ModuleSummary, name: str) -> Values:
    """``module.name`` read from elsewhere where the module's import left no such name: its submodule, else what
    an outside module's ``*`` gives it, else unknown."""
    return _submodule(engine, module, name) or frozenset(
        {ExternalValue(f"{star}.{name}") for star in module.star_imports if engine.load(star, module) is None}
    ) or ONLY_UNKNOWN


def unbound_module_name(engine: EngineApi, module: ModuleSummary, name: str) -> Values:
    """A name no statement of ``module`` binds, read inside it (``__name__`` aside): from the first outside
    module its ``*`` imports, a builtin, or unknown."""
    for star in module.star_imports:
        if engine.load(star, module) is None:
            return one(ExternalValue(f"{star}.{name}"))
    return one(ExternalValue(f"builtins.{name}")) if name in BUILTIN_NAMES else ONLY_UNKNOWN


def _submodule(engine: EngineApi, module: ModuleSummary, name: str) -> Values:
    submodule = engine.load(f"{module.module}.{name}", module) if module.is_package else None
    return frozenset({ModuleValue(submodule.path, submodule.module)}) if submodule is not None else EMPTY


def _is_special(name: str) -> bool:
    """A dunder name: Python's protocols look these up on the class, so ``__getattr__`` never answers them here."""
    return name.startswith("__") and name.endswith("__")


def _index(base: ContainerValue, key: ConstValue | InstanceValue) -> object:
    index = container_key(key)
    if isinstance(index, int) and index < 0 and base.length >= 0 and base.kind in ("list", "tuple"):
        return base.length + index
    return index


#: How ``value.name`` reads, by the kind of value (any other kind: unknown).
_READERS: dict[type, Callable[[AttributeLookup, Value, str, Frame], Values]] = {
    ModuleValue: AttributeLookup._of_module,
    ExternalValue: AttributeLookup._of_external,
    InstanceValue: AttributeLookup.instance_attribute,
    ClassValue: AttributeLookup._of_class,
    StepValue: AttributeLookup._of_step,
    FunctionValue: AttributeLookup._of_function,
    SuperValue: AttributeLookup.super_attribute,
    ContainerValue: AttributeLookup._of_builtin,
    GeneratorValue: AttributeLookup._of_builtin,
    ConstValue: AttributeLookup._of_builtin,
    DescriptorValue: AttributeLookup._of_descriptor,
    BoundMethod: AttributeLookup._of_bound_method,
}


def _assigned_first(engine: EngineApi, init: Values) -> list[str]:
    """The attributes an ``__init__`` surely assigns on its instance before anything can read them: its leading
    ``self.name = value`` statements (a value that calls or reads ``self`` ends them: a method could read the
    class's attribute before the instance has its own)."""
    if len(init) != 1:
        return []
    (function,) = init
    summary = engine.functions.get((function.path, function.qualname)) if isinstance(function, FunctionValue) else None
    if summary is None or not summary.params:
        return []
    receiver = summary.params[0].name
    names: list[str] = []
    for statement in summary.body:
        if type(statement) is not AssignStmt or len(statement.targets) != 1:
            break
        (target,) = statement.targets
        if type(target) is not AttrTarget or target.base != Ref(receiver) or _may_run_code(statement.value, receiver):
            break
        names.append(target.attr)
    return names


def _may_run_code(value: object, receiver: str) -> bool:
    """Whether evaluating ``value`` may call something or read the instance."""
    stack = [value]
    while stack:
        node = stack.pop()
        if type(node) is Ref:
            if node.dotted.split(".", 1)[0] == receiver:
                return True
        elif type(node) is not Const:
            if type(node) is not Display:
                return True
            stack.extend(node.items)
            stack.extend(key for key in node.keys or () if key is not None)
    return False

