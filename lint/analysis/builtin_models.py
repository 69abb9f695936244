"""What the standard library's callables do with the values they are given, for the value-flow analysis.

Only what moves values or calls them is modeled: ``functools.partial`` keeps
its function, ``map`` and ``sorted(key=)`` call theirs, ``list(x)`` copies
items, ``asyncio.gather`` and ``create_task`` run coroutines (in other tasks),
``staticmethod``/``classmethod``/``property`` wrap methods, container methods
store and read items. Any other outside callable returns a value of its own
(``x()``) and calls nothing it is given: the analysis never guesses that an
outside function calls back.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import replace
from typing import Callable, Protocol

from steplint.analysis.interpret_shared import (DictMerge, EngineApi, Frame, Unit, as_containers, context_tag, iterated_pairs,
                                                key_values)
from steplint.analysis.values import (
    ANY,
    DEFAULT_FACTORY,
    RECORD_FIELDS,
    EMPTY,
    BoundMethod,
    ClassValue,
    ONLY_UNKNOWN,
    UNKNOWN,
    BuiltinMethod,
    ConstValue,
    ContainerValue,
    ContextManagerValue,
    DescriptorValue,
    ExternalValue,
    FunctionValue,
    GeneratorValue,
    InstanceValue,
    ModuleValue,
    PartialValue,
    StepValue,
    SuperValue,
    Value,
    Values,
    bounded,
    const,
    one,
)

from steplint.core.summary import ModuleSummary, Span


class ModelSession(Protocol):
    """What the models ask of the interpreter's session (``steplint.analysis.interpreter.Session``)."""

    id: int
    engine: EngineApi

    def note_imported(self, module: ModuleSummary) -> None: ...

    def call_one(self, callee: Value, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values: ...
    def unit_for(self, function: FunctionValue, receiver: Value | None, args: list, kwargs: list,
                 frame: Frame) -> Unit | None: ...
    def iterate(self, values: Values, frame: Frame, span: Span | None = None, is_async: bool = False) -> Values: ...
    def awaited(self, values: Values, frame: Frame | None = None, span: Span | None = None) -> Values: ...
    def enter(self, values: Values, frame: Frame, is_async: bool, span: Span | None = None) -> Values: ...
    def exit(self, values: Values, frame: Frame, is_async: bool, span: Span | None = None) -> None: ...
    def attribute(self, values: Values, name: str, frame: Frame) -> Values: ...
    def item(self, bases: Values, keys: Values, frame: Frame, by_getitem: bool = False) -> Values: ...
    def read_cell(self, value: Value, key: object) -> Values: ...
    def read_all_cells(self, value: Value) -> Values: ...
    def write_cell(self, value: Value, key: object, values: Values, frame: Frame | None, exact: bool = False) -> None: ...
    def store_attribute(self, owner: Value, name: str, values: Values, frame: Frame) -> None: ...
    def store_item(self, base: Value, keys: Values, values: Values, frame: Frame, exact: bool = False) -> None: ...
    def container_keys(self, container: ContainerValue) -> set: ...
    def exact_items(self, values: Values) -> list[Values] | None: ...
    def expr(self, node: object, frame: Frame) -> Values: ...
    def mro(self, cls: ClassValue) -> list: ...
    def parameters(self, function: FunctionValue) -> tuple | None: ...


#: A model of one outside callable: (session, positional arguments, keyword arguments, call span, frame) -> values.
Model = Callable[[ModelSession, list, list, "Span | None", Frame], Values]


#: Callables that run a coroutine in another task than the caller's, by full name (``X()`` is a value X made).
SPAWNERS = frozenset({
    "asyncio.gather", "asyncio.create_task", "asyncio.ensure_future", "asyncio.Task", "asyncio.shield", "asyncio.as_completed",
    "asyncio.wait", "asyncio.TaskGroup().create_task", "asyncio.get_running_loop().create_task",
    "asyncio.get_event_loop().create_task", "asyncio.AbstractEventLoop().create_task",
    "asyncio.BaseEventLoop().create_task",
})


def spawners_for(target_python: tuple[int, int]) -> frozenset[str]:
    """What runs a coroutine in another task; ``asyncio.wait_for`` did until Python 3.12."""
    return SPAWNERS | ({"asyncio.wait_for"} if target_python < (3, 12) else frozenset())


_PRIVATE_ASYNCIO = ("asyncio.tasks.", "asyncio.taskgroups.", "asyncio.events.", "asyncio.base_events.")


def public_asyncio_name(name: str) -> str:
    """``asyncio.gather`` for any spelling of it (``asyncio.tasks.gather``)."""
    for private in _PRIVATE_ASYNCIO:
        if name.startswith(private):
            return "asyncio." + name[len(private):]
    return name


def _args(args: list) -> list[Values]:
    """Positional argument values; a ``*items`` argument stands for every item of ``items`` (as one value set)."""
    return [value[1] if isinstance(value, tuple) else value for value in args]


def _site(span: Span | None, frame: Frame, *extra: object) -> tuple:
    """Where a modeled call makes its object, and in which run of the function (``context_tag``)."""
    if span is None:
        return (frame.unit.module.path, "builtin", *extra, *context_tag(frame.unit))
    return (frame.unit.module.path, span.line, span.col, *extra, *context_tag(frame.unit))


def _new(session: ModelSession, kind: str, span: Span | None, frame: Frame, items: Values, *extra: object) -> Values:
    container = ContainerValue(kind, _site(span, frame, *extra), session.id)
    session.write_cell(container, ANY, items, frame)
    return frozenset({container})


def is_modeled(name: str) -> bool:
    """Whether ``call`` answers for the outside callable ``name``."""
    return public_asyncio_name(name) in _HANDLERS


def decorator_returns_argument(name: str) -> bool:
    """Whether the model of ``name`` returns the function or class it is given (``functools.cache``,
    ``@dataclass``, the decorator ``dataclass(frozen=True)`` makes)."""
    handler = _HANDLERS.get(public_asyncio_name(name))
    return handler is _identity or handler in _CLASS_DECORATORS


def decorator_wraps_function(name: str) -> bool:
    """Whether the model of ``name``, given a function, returns a value of its own around it whatever the function
    is (``@contextmanager``: a ``BuiltinMethod``), never a module, an outside name or a step."""
    return _HANDLERS.get(public_asyncio_name(name)) is _context_manager


def class_decorator_made(name: str) -> str | None:
    """The decorator a class decorator's model makes when called without the class (``dataclass(frozen=True)``:
    ``dataclasses.dataclass()``); None for any other callable."""
    return _CLASS_DECORATORS.get(_HANDLERS.get(public_asyncio_name(name)))  # type: ignore[arg-type]


def call(session: ModelSession, name: str, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values | None:
    """The result of calling the outside callable ``name``, or None when it is not modeled."""
    name = public_asyncio_name(name)
    handler = _HANDLERS.get(name)
    if handler is None:
        return None
    return handler(session, args, kwargs, span, frame)


def _partial(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    positional = _args(args)
    if not positional:
        return ONLY_UNKNOWN
    partial = PartialValue(_site(span, frame), session.id)
    session.write_cell(partial, ("#function",), positional[0], frame)
    for index, values in enumerate(positional[1:]):
        session.write_cell(partial, ("arg", index), values, frame)
    session.write_cell(partial, ("#count",), const(len(positional) - 1), frame)
    for key, values in kwargs:
        if key != "**":
            session.write_cell(partial, ("kwarg", key), values, frame)
            session.write_cell(partial, ("#keys",), const(key), frame)
    return frozenset({partial})


def stored_arguments(session: ModelSession, holder: Value) -> tuple[Values, list, list]:
    """What a ``functools.partial`` (or a value made the same way) holds: its function, then the positional and
    keyword arguments it passes before the call's own."""
    read_cell = session.read_cell
    counts = [v.value for v in read_cell(holder, ("#count",)) if isinstance(v, ConstValue) and isinstance(v.value, int)]
    keys = sorted(v.value for v in read_cell(holder, ("#keys",)) if isinstance(v, ConstValue) and isinstance(v.value, str))
    stored_args = [read_cell(holder, ("arg", i)) for i in range(max(counts) if counts else 0)]
    return read_cell(holder, ("#function",)), stored_args, [(k, read_cell(holder, ("kwarg", k))) for k in keys]


def _partialmethod(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``functools.partialmethod(f, *args)`` in a class body: read through an instance, ``f(instance, *args, ...)``."""
    return frozenset(DescriptorValue("partialmethod", made) if made is not UNKNOWN else made
                     for made in _partial(session, args, kwargs, span, frame))


def _methodcaller(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``operator.methodcaller(name, *args)``: a callable that calls its argument's method ``name`` with ``args``."""
    return frozenset(BuiltinMethod(made, "#methodcaller") if made is not UNKNOWN else made
                     for made in _partial(session, args, kwargs, span, frame))


def _call_methodcaller(session: ModelSession, caller: Value, args: list, kwargs: list, span: Span | None,
                       frame: Frame) -> Values:
    names, stored_args, stored_kwargs = stored_arguments(session, caller)
    positional = _args(args)
    if not positional or isinstance(args[0], tuple):
        return ONLY_UNKNOWN
    results: set = set()
    for name in names:
        if not (isinstance(name, ConstValue) and isinstance(name.value, str)):
            results.add(UNKNOWN)
            continue
        for method in session.attribute(positional[0], name.value, frame):
            results.update(session.call_one(method, [*stored_args, *args[1:]], [*stored_kwargs, *kwargs], span, frame))
    return bounded(results) if results else ONLY_UNKNOWN


def _defaultdict(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``defaultdict(factory, mapping, **items)``: a dict whose missing keys read ``factory()``."""
    made = _dict(session, args[1:], kwargs, span, frame)
    positional = _args(args)
    for container in made:
        session.write_cell(container, DEFAULT_FACTORY, positional[0] if positional else ONLY_UNKNOWN, frame)
    return made


def _namespace(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``types.SimpleNamespace(a=f, **d)``: an object whose attributes are its keyword arguments."""
    if args or any(name == "**" for name, _ in kwargs):
        return ONLY_UNKNOWN
    cls = ClassValue("types", "SimpleNamespace", 0)
    instance = InstanceValue(cls, _site(span, frame, "namespace"), session.id)
    for name, values in kwargs:
        session.store_attribute(instance, name, values, frame)
    return frozenset({instance})


def _method_type(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``types.MethodType(f, obj)``: ``f`` bound to ``obj``, which a call passes first."""
    positional = _args(args)
    if len(positional) != 2 or kwargs:
        return ONLY_UNKNOWN
    return frozenset(BoundMethod(function, receiver) for function in positional[0] if isinstance(function, FunctionValue)
                     for receiver in positional[1]) or ONLY_UNKNOWN


def _first(args: list) -> Values:
    positional = _args(args)
    return positional[0] if positional else EMPTY


def _identity(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """A decorator that returns the function it is given (``functools.lru_cache``, ``functools.wraps(f)``...)."""
    return _first(args) or ONLY_UNKNOWN


def _wrapped_by(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``functools.wraps(f)(wrapper)`` returns ``wrapper`` with ``f``'s ``__name__``, which is not kept here: the
    wrapper's name becomes unknown (however ``wraps`` was imported or applied)."""
    for function in _first(args):
        if isinstance(function, FunctionValue):
            session.write_cell(function, "__name__", ONLY_UNKNOWN, frame)
    return _first(args) or ONLY_UNKNOWN


def _update_wrapper(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``functools.update_wrapper(wrapper, wrapped)`` returns ``wrapper``, which now has ``wrapped``'s ``__name__``."""
    given = dict(kwargs)
    positional = _args(args)
    wrapper = positional[0] if positional else given.get("wrapper", EMPTY)
    wrapped = positional[1] if len(positional) > 1 else given.get("wrapped", EMPTY)
    if wrapped and not any(isinstance(value, tuple) for value in args):
        for function in wrapper:
            if isinstance(function, FunctionValue):
                session.write_cell(function, "__name__", session.attribute(wrapped, "__name__", frame), frame)
    return wrapper or ONLY_UNKNOWN


def _cast(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``typing.cast(T, value)`` returns ``value`` itself: a cast changes only what a type checker believes."""
    if any(isinstance(value, tuple) for value in args):  # ``cast(*pair)``: which item is the value is not known
        return ONLY_UNKNOWN
    given = dict(kwargs)
    positional = _args(args)
    return (positional[1] if len(positional) > 1 else given.get("val", EMPTY)) or ONLY_UNKNOWN


def _class_decorator(made: str) -> Model:
    """``@dataclass`` returns the class it is given; ``@dataclass(frozen=True)`` first makes the decorator ``made``."""
    def model(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        return _first(args) or one(ExternalValue(made))
    _CLASS_DECORATORS[model] = made
    return model


#: The models of class decorators, with the decorator each makes when called without the class.
_CLASS_DECORATORS: dict[Model, str] = {}


def _namedtuple(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``namedtuple("Route", "name handler")``: a class whose ``__init__`` stores each field, as a dataclass' does."""
    positional = _args(args) + [values for name, values in kwargs if name in ("typename", "field_names")]
    typename = _only_const(positional[0]) if positional else None
    names = _field_names(session, positional[1]) if len(positional) > 1 else None
    if not isinstance(typename, str) or names is None:
        return ONLY_UNKNOWN
    cls = ClassValue(frame.unit.module.path, typename, frame.closure_unit())
    fields = ContainerValue("tuple", _site(span, frame, "fields"), session.id, len(names))
    for position, name in enumerate(names):
        session.write_cell(fields, position, one(ConstValue("str", name)), frame, exact=True)
    session.write_cell(cls, RECORD_FIELDS, frozenset({fields}), frame, exact=True)
    session.write_cell(cls, "__match_args__", frozenset({fields}), frame, exact=True)
    session.write_cell(cls, ("#base", 0), one(ExternalValue("builtins.tuple")), frame, exact=True)
    return frozenset({cls})


def _only_const(values: Values) -> object:
    (only,) = values if len(values) == 1 else (None,)
    return only.value if isinstance(only, ConstValue) else None


def _field_names(session: ModelSession, values: Values) -> list[str] | None:
    """``"a b"``, ``"a, b"`` or a list of strings, as ``namedtuple`` reads its field names."""
    text = _only_const(values)
    if isinstance(text, str):
        return text.replace(",", " ").split()
    names = [_only_const(item) for item in session.exact_items(values) or [ONLY_UNKNOWN]]
    return names if all(isinstance(name, str) for name in names) else None  # type: ignore[return-value]


#: The class of what ``dataclasses.field(...)`` makes: the class body binds it to the field's name, and the
#: ``__init__`` ``@dataclass`` generates reads its cells ``default`` and ``default_factory`` (``interpret_calls``).
FIELD_CLASS = ClassValue("dataclasses", "Field", 0)


def _field(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``dataclasses.field(default=x)``, ``field(default_factory=f)``: the field's description, keyword-only."""
    if args or any(name == "**" for name, _ in kwargs):
        return ONLY_UNKNOWN
    made = InstanceValue(FIELD_CLASS, _site(span, frame, "field"), session.id)
    for name, values in kwargs:
        if name in ("default", "default_factory"):
            session.write_cell(made, name, values, frame)
    return frozenset({made})


def record_field_names(session: ModelSession, cls: ClassValue) -> list[str]:
    """The ``__init__`` fields of a record class (dataclass, namedtuple), the bases' first, in order."""
    names: list[str] = []
    for owner in reversed(session.mro(cls)):
        for fields in session.read_cell(owner, RECORD_FIELDS) if isinstance(owner, ClassValue) else ():
            for item in session.exact_items(frozenset({fields})) or ():
                name = next(iter(item)) if len(item) == 1 else None
                if isinstance(name, ConstValue) and name.value not in names:
                    names.append(name.value)
    return names


def _replace(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``dataclasses.replace(obj, **changes)``: ``type(obj)(**fields)``, each field the change given, else what
    ``obj`` holds (so its ``__init__`` and ``__post_init__`` run again)."""
    positional = _args(args)
    if len(positional) != 1 or isinstance(args[0], tuple):
        return ONLY_UNKNOWN
    given = {name: values for name, values in kwargs if name != "**"}
    # ``**changes``: a key the dict holds may replace its field (the dict may have lost it); an unknown key any field
    spread = DictMerge(session)  # type: ignore[arg-type]
    for name, values in kwargs:
        if name == "**":
            spread.spread(values)
            if any(not (isinstance(v, ContainerValue) and v.kind == "dict") for v in values):
                spread.anywhere.add(UNKNOWN)
    made: set = set()
    for value in positional[0]:
        names = record_field_names(session, value.cls) if isinstance(value, InstanceValue) else []
        if not names:
            made.add(UNKNOWN)
            continue
        fields = [(name, given[name] if name in given else session.attribute(frozenset({value}), name, frame)
                   | spread.known.get(name, EMPTY) | frozenset(spread.anywhere)) for name in names]
        made.update(session.call_one(value.cls, [], fields, span, frame))
    return bounded(made) if made else ONLY_UNKNOWN


#: What ``copy.copy`` and ``copy.deepcopy`` return as they are given: functions, classes, literals, steps.
_COPIED_AS_IS = (FunctionValue, ClassValue, ConstValue, StepValue, BoundMethod, PartialValue)


def _copy(hook: str) -> Model:
    """``copy.copy(x)`` (*hook* ``__copy__``) and ``copy.deepcopy(x)`` (``__deepcopy__``): the class's hook where it
    has one, else a new object of ``x``'s kind holding what ``x`` holds (for ``deepcopy`` the items are not copied
    in turn: a copy's item is the original's, which reads the same values)."""
    def model(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        positional = _args(args)
        if not positional or isinstance(args[0], tuple):
            return ONLY_UNKNOWN
        made: set = set()
        for value in positional[0]:
            if isinstance(value, InstanceValue):
                made.update(_copied_instance(session, value, hook, span, frame))
            elif isinstance(value, ContainerValue):
                made.add(_copied_container(session, value, span, frame))
            elif isinstance(value, _COPIED_AS_IS):
                made.add(value)
            else:
                made.add(UNKNOWN)
        return bounded(made) if made else ONLY_UNKNOWN

    return model


def _copied_instance(session: ModelSession, value: InstanceValue, hook: str, span: Span | None,
                     frame: Frame) -> Values:
    for owner in session.mro(value.cls):
        if not isinstance(owner, ClassValue):
            break  # an outside base's own copying is not known
        if session.read_cell(owner, hook):
            memo = [ONLY_UNKNOWN] if hook == "__deepcopy__" else []
            results: set = set()
            for method in session.attribute(frozenset({value}), hook, frame):
                results.update(session.call_one(method, memo, [], span, frame))
            return frozenset(results) or ONLY_UNKNOWN
    made = InstanceValue(value.cls, _site(span, frame, "copy"), session.id)
    frame.mark_fresh(made)  # a write into the copy replaces what it copied
    for key in session.container_keys(value):  # type: ignore[arg-type] - an instance's attributes, by name
        session.write_cell(made, key, session.read_cell(value, key), frame)
    return frozenset({made})


def _copied_container(session: ModelSession, value: ContainerValue, span: Span | None, frame: Frame) -> Value:
    made = ContainerValue(value.kind, _site(span, frame, "copy"), session.id, value.length)
    frame.mark_fresh(made)
    for key in {*session.container_keys(value), ANY, DEFAULT_FACTORY}:
        values = session.read_cell(value, key)
        if values:
            session.write_cell(made, key, values, frame)
    return made


def _decorator_factory(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``functools.wraps(f)``, ``functools.lru_cache(maxsize=...)``: a decorator that keeps what it decorates."""
    return one(ExternalValue("functools.wraps()"))


def _lru_cache(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``@functools.lru_cache`` keeps the function; ``functools.lru_cache(maxsize=...)`` makes such a decorator."""
    return _identity(session, args, kwargs, span, frame) if _args(args) else one(ExternalValue("functools.wraps()"))


def _descriptor(kind: str) -> Model:
    def make(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        positional = _args(args)
        setters = positional[1] if kind == "property" and len(positional) > 1 else dict(kwargs).get("fset", EMPTY)
        setter = next(iter(setters)) if len(setters) == 1 else None  # ``property(fget, fset)``
        return frozenset(DescriptorValue(kind, v, setter) for v in _first(args)) or ONLY_UNKNOWN

    return make


def _calls_each(session: ModelSession, function_values: Values, item_values: Values, span: Span | None,
                frame: Frame) -> Values:
    results: set = set()
    for function in function_values:
        results.update(session.call_one(function, [item_values], [], span, frame))
    return frozenset(results)


def _map(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    positional = _args(args)
    if not positional:
        return ONLY_UNKNOWN
    functions, iterables = positional[0], positional[1:]
    items = frozenset().union(*(session.iterate(values, frame, span) for values in iterables)) if iterables else EMPTY
    # ``map(items, f)`` is a mistake Python raises on; a function given in either place is still called.
    if not any(isinstance(v, (FunctionValue,)) for v in functions):
        for values in iterables:
            if any(isinstance(v, FunctionValue) for v in values):
                functions, items = values, session.iterate(positional[0], frame, span)
                break
    results = _calls_each(session, functions, items or ONLY_UNKNOWN, span, frame)
    return _new(session, "list", span, frame, results or ONLY_UNKNOWN)


def _reduce(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``functools.reduce(f, items, initial)``: ``f(accumulated, item)`` for each item, its result accumulated."""
    positional = _args(args)
    if len(positional) < 2:
        return ONLY_UNKNOWN
    items = session.iterate(positional[1], frame, span) or ONLY_UNKNOWN
    exact = session.exact_items(positional[1])
    if len(positional) > 2:  # ``initial`` first, every item passed; with no item it is the result
        start, passed, start_returned = positional[2], items, not exact
    elif exact is not None:  # the first item first, the others passed; a single item is the result
        start, passed, start_returned = exact[0] if exact else ONLY_UNKNOWN, frozenset().union(*exact[1:]), len(exact) < 2
    else:
        start, passed, start_returned = items, items, True
    if not passed:
        return start
    accumulated, made = start, set()
    for _ in range(3):  # each round passes the results back in, as the loop does
        for function in positional[0]:
            made.update(session.call_one(function, [accumulated, passed], [], span, frame))
        if made <= accumulated:
            break
        accumulated = bounded(accumulated | made)
    else:
        made.add(UNKNOWN)  # still growing: what later rounds give is not known
    if any(not isinstance(f, (FunctionValue, BoundMethod)) for f in positional[0]):
        made.update(start | passed)  # ``reduce(operator.add, lists)``: the operands' items, as ``+`` gives them
    return bounded(made | start) if start_returned else bounded(made) or ONLY_UNKNOWN


def _starmap(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``itertools.starmap(f, rows)``: ``f(*row)`` for each row, its items spread as positional arguments."""
    positional = _args(args)
    if len(positional) < 2:
        return ONLY_UNKNOWN
    results: set = set()
    for row in session.iterate(positional[1], frame, span) or ONLY_UNKNOWN:
        exact = session.exact_items(frozenset({row}))
        row_args = exact if exact is not None else [("*", session.iterate(frozenset({row}), frame, span))]
        for function in positional[0]:
            results.update(session.call_one(function, row_args, [], span, frame))
    return _new(session, "list", span, frame, bounded(results) or ONLY_UNKNOWN)


def _operator_call(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``operator.call(f, *args, **kwargs)`` is ``f(*args, **kwargs)``."""
    if not args or isinstance(args[0], tuple):
        return ONLY_UNKNOWN
    results: set = set()
    for function in args[0]:
        results.update(session.call_one(function, args[1:], kwargs, span, frame))
    return bounded(results) if results else ONLY_UNKNOWN


def _getter(kind: str) -> Model:
    """``operator.itemgetter(k)``, ``operator.attrgetter(name)``: a callable that reads its argument at the keys given."""
    def model(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        keys = ContainerValue("tuple", _site(span, frame, kind), session.id, len(args))
        for position, values in enumerate(_args(args)):
            session.write_cell(keys, position, values, frame, exact=True)
        return frozenset({BuiltinMethod(keys, kind)})
    return model


def _filter(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    positional = _args(args)
    if len(positional) < 2:
        return ONLY_UNKNOWN
    items = session.iterate(positional[1], frame, span)
    _calls_each(session, positional[0], items or ONLY_UNKNOWN, span, frame)
    return _new(session, "list", span, frame, items)


def _keyed(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``sorted``, ``min``, ``max``: ``key=`` is called with the items; the result holds the items."""
    positional = _args(args)
    items = session.iterate(positional[0], frame, span) if positional else EMPTY
    for key, values in kwargs:
        if key == "key":
            _calls_each(session, values, items or ONLY_UNKNOWN, span, frame)
    return items


def _sorted(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    return _new(session, "list", span, frame, _keyed(session, args, kwargs, span, frame))


def _min_max(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    positional = _args(args)
    if len(positional) > 1:
        found = frozenset().union(*positional)
        for key, values in kwargs:
            if key == "key":
                _calls_each(session, values, found, span, frame)
        return found
    return _keyed(session, args, kwargs, span, frame) or ONLY_UNKNOWN


def _copy_of(kind: str) -> Model:
    def copy(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        positional = _args(args)
        items = session.iterate(positional[0], frame, span) if positional else EMPTY
        return _new(session, kind, span, frame, items)

    return copy


def _dict(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``dict(mapping, k=v, **other)``: the mapping's keys, then each keyword's, a later one replacing (as Python)."""
    container = ContainerValue("dict", _site(span, frame), session.id)
    _write_dict_arguments(session, container, _args(args), kwargs, span, frame)
    return frozenset({container})


def _write_dict_arguments(session: ModelSession, container: ContainerValue, positional: list[Values], kwargs: list,
                          span: Span | None, frame: Frame) -> None:
    """What ``dict(mapping, k=v, **other)`` writes into ``container``: the mapping's keys, then each keyword's."""
    merged = DictMerge(session)  # type: ignore[arg-type]
    for values in positional:
        merged.spread(values)
        merged.pairs(values, frame, span)  # ``dict(pairs)``, ``dict(zip(keys, values))``
    for key, values in kwargs:
        if key == "**":
            merged.spread(values)
        else:
            merged.put(const(key), values)  # a keyword surely replaces what the mapping gave that key
    merged.write(container, frame)


def _fromkeys(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``dict.fromkeys(keys, value=None)``: every key holds the one value."""
    positional = _args(args)
    if not positional:
        return ONLY_UNKNOWN
    value = positional[1] if len(positional) > 1 else const(None)
    container = ContainerValue("dict", _site(span, frame), session.id)
    merged = DictMerge(session)  # type: ignore[arg-type]
    exact = session.exact_items(positional[0])
    if exact is not None:
        for keys in exact:
            merged.put(keys, value)
    else:
        merged.add(session.iterate(positional[0], frame, span) or ONLY_UNKNOWN, value)
    merged.write(container, frame)
    return frozenset({container})


def _iter(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    given = _first(args)
    if given and all(isinstance(v, GeneratorValue) for v in given):
        return given  # ``iter(gen) is gen``: it runs where it is iterated
    return _new(session, "iterator", span, frame, session.iterate(given, frame, span))


def _type(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``type(x)``: the class of ``x`` where the analysis knows it (``type(name, bases, ns)`` makes a class: unknown)."""
    positional = _args(args)
    if len(positional) != 1 or kwargs:
        return ONLY_UNKNOWN
    return frozenset(v.cls if isinstance(v, InstanceValue) else ExternalValue(f"builtins.{v.kind}")
                     if isinstance(v, ConstValue) else UNKNOWN for v in positional[0]) or ONLY_UNKNOWN


def _next(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    positional = _args(args)
    found = set(session.iterate(positional[0], frame, span)) if positional else set()
    if len(positional) > 1:
        found.update(positional[1])
    return bounded(found) if found else ONLY_UNKNOWN


def _enumerate(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    items = session.iterate(_first(args), frame, span)
    pair = ContainerValue("tuple", _site(span, frame, "pair"), session.id, 2)
    session.write_cell(pair, 0, ONLY_UNKNOWN, frame)
    session.write_cell(pair, 1, items, frame)
    return _new(session, "iterator", span, frame, frozenset({pair}))


def _zip(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``zip(a, b)``: rows whose n-th item is an item of the n-th iterable; with ``*columns`` the number of iterables
    is not known, so a row is any number of items of any of them."""
    if any(isinstance(arg, tuple) for arg in args):
        found: set = set()
        for arg in args:  # ``*columns``: the columns are the items of what is spread, the rows' items theirs
            columns = session.iterate(arg[1], frame, span) if isinstance(arg, tuple) else arg
            found.update(session.iterate(columns, frame, span))
        row = ContainerValue("tuple", _site(span, frame, "row"), session.id)
        session.write_cell(row, ANY, bounded(found) or ONLY_UNKNOWN, frame)
        return _new(session, "iterator", span, frame, frozenset({row}))
    positional = _args(args)
    row = ContainerValue("tuple", _site(span, frame, "row"), session.id, len(positional))
    for index, values in enumerate(positional):
        session.write_cell(row, index, session.iterate(values, frame, span), frame)
    return _new(session, "iterator", span, frame, frozenset({row}))


def _getattr(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    positional = _args(args)
    if len(positional) < 2:
        return ONLY_UNKNOWN
    names = [v.value for v in positional[1] if isinstance(v, ConstValue) and isinstance(v.value, str)]
    if len(names) != len(positional[1]):
        return ONLY_UNKNOWN
    found: set = set()
    for attribute in names:
        found.update(session.attribute(positional[0], attribute, frame))
    if len(positional) > 2:
        found.update(positional[2])
    return bounded(found) if found else ONLY_UNKNOWN


def _setattr(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    positional = _args(args)
    if len(positional) >= 3:
        for name in positional[1]:
            if isinstance(name, ConstValue) and isinstance(name.value, str):
                for owner in positional[0]:
                    session.store_attribute(owner, name.value, positional[2], frame)
    return one(ConstValue("NoneType", None))


def fill_items(session: ModelSession, items: ContainerValue, base: str, args: list, kwargs: list,
               span: Span | None, frame: Frame) -> None:
    """``Registry(mapping, k=v)``: the base's constructor writes its arguments' items into the instance's."""
    # ``super().__init__(*args, **kwargs)`` forwards what the subclass was given: a spread's items are its arguments
    given = [session.iterate(arg[1], frame, span) if isinstance(arg, tuple) else arg for arg in args]
    if items.kind == "dict":
        if base == "collections.defaultdict" and not any(isinstance(arg, tuple) for arg in args):
            session.write_cell(items, DEFAULT_FACTORY, given[0] if given else ONLY_UNKNOWN, frame)
            given = given[1:]
        _write_dict_arguments(session, items, given, kwargs, span, frame)
    elif given:
        session.write_cell(items, ANY, session.iterate(frozenset().union(*given), frame, span), frame)


def _json_loads(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``json.loads(text)`` of a string the analysis knows: the dicts, lists and literals Python makes of it (any
    other text, or a hook given, is unknown)."""
    texts = _first(args)
    if kwargs or len(texts) != 1 or not isinstance(text := next(iter(texts)), ConstValue) \
            or not isinstance(text.value, (str, bytes)):
        return ONLY_UNKNOWN
    try:
        parsed = json.loads(text.value)
    except (ValueError, RecursionError):
        return ONLY_UNKNOWN
    return _json_value(session, parsed, span, frame, ())


def _json_value(session: ModelSession, value: object, span: Span | None, frame: Frame, path: tuple) -> Values:
    if not isinstance(value, (dict, list)):
        return const(value)
    is_dict = isinstance(value, dict)
    container = ContainerValue("dict" if is_dict else "list", _site(span, frame, "json", *path), session.id,
                               -1 if is_dict else len(value))
    for key, item in value.items() if is_dict else enumerate(value):
        session.write_cell(container, key, _json_value(session, item, span, frame, (*path, key)), frame, exact=True)
    return frozenset({container})


def _bound(args: list, kwargs: list, names: tuple[str, ...]) -> dict[str, Values] | None:
    """The arguments of a call of an outside function whose parameters are ``names`` (positional or keyword), by
    name; None where a ``*spread`` or ``**spread`` hides which parameter gets what."""
    if any(isinstance(arg, tuple) for arg in args) or any(name == "**" for name, _ in kwargs):
        return None
    bound = dict(zip(names, args))
    bound.update((name, values) for name, values in kwargs if name in names)
    return bound


def _items_of_all(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """Every item of every argument given (a ``*spread``: the items of its items): what a call whose arguments are
    not bound to its parameters may iterate."""
    found: set = set()
    for arg in args:
        iterables = session.iterate(arg[1], frame, span) if isinstance(arg, tuple) else arg
        found.update(session.iterate(iterables, frame, span))
    for name, values in kwargs:
        found.update(session.iterate(session.iterate(values, frame, span) if name == "**" else values, frame, span))
    return bounded(found) if found else EMPTY


def _iterator_over(names: tuple[str, ...], source: str, predicate: str | None = None, nested: bool = False) -> Model:
    """An ``itertools`` function (parameters ``names``, in order) whose iterator gives the items of its parameter
    ``source`` (``*``: of every argument), calling the ``predicate`` parameter with each; ``nested``: the items of
    those items (``chain.from_iterable``)."""
    def model(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        bound = _bound(args, kwargs, names) if source != "*" else None
        if bound is None:
            items = _items_of_all(session, args, [], span, frame)
        else:
            items = session.iterate(bound.get(source, EMPTY), frame, span)
        if nested:
            items = session.iterate(items, frame, span)
        if bound is not None and predicate in bound:
            _calls_each(session, bound[predicate], items or ONLY_UNKNOWN, span, frame)
        return _new(session, "iterator", span, frame, items)
    return model


def _combined_rows(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``product``, ``permutations``, ``combinations``, ``pairwise``, ``zip_longest``: tuples of the items of the
    iterables (and of ``fillvalue=``), at positions the analysis does not follow."""
    iterables = [(name, values) for name, values in kwargs if name not in ("r", "repeat", "fillvalue")]
    found = set(_items_of_all(session, args, iterables, span, frame))
    found.update(*(values for name, values in kwargs if name == "fillvalue"))
    row = ContainerValue("tuple", _site(span, frame, "row"), session.id)
    session.write_cell(row, ANY, bounded(frozenset(found)) or ONLY_UNKNOWN, frame)
    return _new(session, "iterator", span, frame, frozenset({row}))


def _repeat(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``itertools.repeat(x, n)``: ``x``, again and again."""
    bound = _bound(args, kwargs, ("object", "times"))
    return _new(session, "iterator", span, frame, bound.get("object", EMPTY) if bound is not None else ONLY_UNKNOWN)


def _accumulate(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``itertools.accumulate(items, f, initial=x)``: the first item (or ``x``), then ``f(total, item)`` with each
    result the next total (followed for a few rounds, as ``functools.reduce`` is)."""
    bound = _bound(args, kwargs, ("iterable", "func", "initial"))
    if bound is None:
        return _new(session, "iterator", span, frame, ONLY_UNKNOWN)
    items = session.iterate(bound.get("iterable", EMPTY), frame, span)
    functions = bound.get("func", EMPTY)
    found = items | bound.get("initial", EMPTY)
    for _ in range(3):
        made: set = set()
        for function in functions:
            made.update(session.call_one(function, [found or ONLY_UNKNOWN, items or ONLY_UNKNOWN], [], span, frame))
        if made <= found:
            break
        found = bounded(found | made)
    return _new(session, "iterator", span, frame, found)


def _tee(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``itertools.tee(items, n)``: a tuple of iterators over the items."""
    bound = _bound(args, kwargs, ("iterable", "n"))
    items = session.iterate(bound.get("iterable", EMPTY), frame, span) if bound is not None else ONLY_UNKNOWN
    iterator = _new(session, "iterator", span, frame, items)
    copies = ContainerValue("tuple", _site(span, frame, "tee"), session.id)
    session.write_cell(copies, ANY, iterator, frame)
    return frozenset({copies})


#: What ``inspect.Parameter.empty`` reads as: the default of a parameter that has none.
_NO_DEFAULT = one(ExternalValue("inspect.Parameter.empty"))


def _signature(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``inspect.signature(f)``: an object whose ``parameters`` maps each parameter's name, in order, to an object
    with its ``name`` and its ``default`` (the value the ``def`` evaluated, else ``inspect.Parameter.empty``), as a
    dependency resolver reads them; the ``self`` of a bound method is left out."""
    made: set = set()
    for value in _first(args):
        function, skipped = value, 0
        if isinstance(value, BoundMethod):
            function, skipped = value.function, 1
        elif isinstance(value, StepValue):
            function = value.function
        params = session.parameters(function) if isinstance(function, FunctionValue) else None
        if params is None:
            made.add(UNKNOWN)
            continue
        where = ("signature", function.path, function.qualname)
        signature = InstanceValue(ClassValue("inspect", "Signature", 0), _site(span, frame, *where), session.id)
        table = ContainerValue("dict", _site(span, frame, *where, "parameters"), session.id)
        for param in params[skipped:]:
            parameter = InstanceValue(ClassValue("inspect", "Parameter", 0), _site(span, frame, *where, param.name),
                                      session.id)
            session.store_attribute(parameter, "name", const(param.name), frame)
            default = session.read_cell(function, ("#default", param.name)) or ONLY_UNKNOWN \
                if param.default is not None else _NO_DEFAULT
            session.store_attribute(parameter, "default", default, frame)
            session.write_cell(table, param.name, frozenset({parameter}), frame, exact=True)
        session.store_attribute(signature, "parameters", frozenset({table}), frame)
        made.add(signature)
    return bounded(made) if made else ONLY_UNKNOWN


def _base_method(name: str) -> Model:
    """``dict.__setitem__(self, key, value)`` and friends, called on the class with the instance first: on an
    instance of a container subclass they work on its items."""
    def call(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        if not args or isinstance(args[0], tuple):
            return ONLY_UNKNOWN
        found: set = set()
        for receiver in as_containers(session, args[0]):
            if isinstance(receiver, ContainerValue):
                found.update(container_method(session, BuiltinMethod(receiver, name), args[1:], kwargs, span, frame))
            else:
                found.add(UNKNOWN)
        return bounded(frozenset(found)) if found else ONLY_UNKNOWN
    return call


def _chain_map(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``collections.ChainMap(first, *rest)``: a key reads from the first mapping that has it. Made as a dict of the
    mappings' items as they are now, the first's over the others' (what is written into them later is not seen)."""
    if kwargs:
        return ONLY_UNKNOWN
    container = ContainerValue("dict", _site(span, frame, "chain"), session.id)
    merged = DictMerge(session)  # type: ignore[arg-type]
    for arg in reversed(args):  # ``ChainMap(*overrides, DEFAULTS)``: every mapping spread there counts
        merged.spread(session.iterate(arg[1], frame, span) if isinstance(arg, tuple) else arg)
    merged.write(container, frame)
    return frozenset({container})


def _heap_push(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``heapq.heappush(heap, item)``: the heap (a list) holds the item, at a position the analysis does not follow."""
    bound = _bound(args, kwargs, ("heap", "item"))
    if bound is None or len(bound) != 2:
        return ONLY_UNKNOWN
    _reorder_heaps(session, bound["heap"], frame)
    for heap in bound["heap"]:
        if isinstance(heap, ContainerValue):
            session.write_cell(heap, ANY, bound["item"], frame)
    return _NONE


def _reorder_heaps(session: ModelSession, heaps: Values, frame: Frame) -> None:
    """A heap operation moves the list's items: none stays at a known position."""
    for heap in heaps:
        if isinstance(heap, ContainerValue):
            _reordered(session, heap, frame)


def _heap_exchange(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``heappushpop(heap, item)``, ``heapreplace``: the item goes in, and an item of the heap (maybe it) comes out."""
    _heap_push(session, args, kwargs, span, frame)
    return _heap_pop(session, args[:1], [(k, v) for k, v in kwargs if k == "heap"], span, frame)


def _heap_pop(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``heapq.heappop(heap)``: the smallest item, which the analysis does not order: any item of the heap, and the
    others move."""
    bound = _bound(args, kwargs, ("heap",))
    heaps = bound.get("heap", EMPTY) if bound is not None else EMPTY
    _reorder_heaps(session, heaps, frame)
    return session.iterate(heaps, frame, span) or ONLY_UNKNOWN


def _heapify(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``heapq.heapify(items)`` reorders the list in place: it holds the same items, at positions not followed."""
    bound = _bound(args, kwargs, ("x",))
    _reorder_heaps(session, bound.get("x", EMPTY) if bound is not None else EMPTY, frame)
    return _NONE


def _heap_select(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``heapq.nsmallest(n, items, key=f)``, ``nlargest``: a list of items, ``key`` called with each."""
    bound = _bound(args, kwargs, ("n", "iterable", "key"))
    if bound is None:
        return _new(session, "list", span, frame, _items_of_all(session, args, kwargs, span, frame))
    keys = [("key", bound["key"])] if "key" in bound else []
    return _sorted(session, [bound.get("iterable", EMPTY)], keys, span, frame)


def _heap_merge(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``heapq.merge(*iterables, key=f)``: an iterator over every iterable's items, ``key`` called with each."""
    items = _items_of_all(session, args, [], span, frame)
    for name, values in kwargs:
        if name == "key":
            _calls_each(session, values, items or ONLY_UNKNOWN, span, frame)
    return _new(session, "iterator", span, frame, items)


def _groupby(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``itertools.groupby(items, key=f)``: (``f(item)``, an iterator over items) pairs; without ``key``, the item
    itself is the group's key."""
    bound = _bound(args, kwargs, ("iterable", "key"))
    if bound is None:
        return _new(session, "iterator", span, frame, ONLY_UNKNOWN)
    items = session.iterate(bound.get("iterable", EMPTY), frame, span)
    functions = bound.get("key")
    keys = items if functions is None or functions == const(None) else \
        _calls_each(session, functions, items or ONLY_UNKNOWN, span, frame)
    pair = ContainerValue("tuple", _site(span, frame, "group"), session.id, 2)
    session.write_cell(pair, 0, keys or ONLY_UNKNOWN, frame)
    session.write_cell(pair, 1, _new(session, "iterator", span, frame, items, "members"), frame)
    return _new(session, "iterator", span, frame, frozenset({pair}))


def _import_module(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``importlib.import_module(name, package)``: the module ``name`` means (a relative name under ``package``),
    imported as an import statement imports it, its packages first; unknown where a name is no string constant."""
    positional = _args(args)
    given = dict(kwargs)
    names = positional[0] if positional else given.get("name")
    packages = positional[1] if len(positional) > 1 else given.get("package", _NONE)
    if not names:
        return ONLY_UNKNOWN
    found: set = set()
    for name in names:
        if not isinstance(name, ConstValue) or not isinstance(name.value, str) or not name.value:
            return ONLY_UNKNOWN
        relative = name.value.startswith(".")
        for package in packages if relative else _NONE:
            if relative and not isinstance(package, ConstValue):
                return ONLY_UNKNOWN  # a relative name under an unknown package
            if relative and not (isinstance(package.value, str) and package.value):  # type: ignore[union-attr]
                continue  # ``package=None`` (a script's ``__package__``): Python raises, no module is imported
            try:
                absolute = importlib.util.resolve_name(name.value, package.value)  # type: ignore[union-attr]
            except (ImportError, ValueError):
                continue  # Python raises: no module is imported
            loaded = import_chain(session, absolute, frame.unit.module)
            found.add(ModuleValue(loaded.path, loaded.module) if loaded is not None else ExternalValue(absolute))
    return frozenset(found) if found else ONLY_UNKNOWN


def import_chain(session: ModelSession, name: str, origin: ModuleSummary) -> ModuleSummary | None:
    """Import ``name`` as Python does, its packages first (``a.b.c`` imports a, a.b and a.b.c), each run in its
    own session and seen by this one; the analyzed module ``name`` is, if any."""
    engine = session.engine
    parts = name.split(".")
    loaded = None
    for cut in range(1, len(parts) + 1):
        loaded = engine.load(".".join(parts[:cut]), origin)
        if loaded is not None:
            engine.module_unit(loaded)
            session.note_imported(loaded)
    return loaded


#: Queues the analysis holds as containers of what was put into them (``asyncio.Queue``; ``queue.Queue``): a step
#: handed from a producer to a consumer task through one is followed.
QUEUE = "queue"
SYNC_QUEUE = "sync queue"
#: ``asyncio.Queue().get()``: awaiting it gives an item (``interpret_calls.awaited``).
AWAITED_ITEM = "awaited item"
_QUEUE_PUTS = frozenset({"put", "put_nowait"})


def _queue(kind: str) -> Model:
    def made(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        return _new(session, kind, span, frame, EMPTY)
    return made


def _queue_method(session: ModelSession, receiver: ContainerValue, name: str, args: list, span: Span | None,
                  frame: Frame) -> Values:
    """``put``/``put_nowait`` add their item; ``get_nowait`` gives one, and so does ``get`` (awaited, for an
    ``asyncio`` queue); anything else is unknown."""
    if name in _QUEUE_PUTS:
        items = _first(args)
        if items:
            session.write_cell(receiver, ANY, items, frame)
        return _NONE if name == "put_nowait" or receiver.kind == SYNC_QUEUE else ONLY_UNKNOWN
    if name in ("get", "get_nowait"):
        items = session.read_all_cells(receiver) or ONLY_UNKNOWN
        if name == "get" and receiver.kind == QUEUE:
            return _new(session, AWAITED_ITEM, span, frame, items)
        return items
    return ONLY_UNKNOWN


def _super(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``super()`` in a method: the class the method is defined in, and the method's first argument;
    ``super(Class, obj)``: ``Class`` and ``obj`` (the lookup starts after ``Class`` in the MRO of ``obj``'s class)."""
    positional = _args(args)
    if positional or kwargs:
        if len(positional) != 2 or kwargs or not positional[0] or \
                not all(isinstance(v, ClassValue) for v in positional[0]):
            return ONLY_UNKNOWN
        return frozenset(SuperValue(cls, receiver) for cls in positional[0] for receiver in positional[1]
                         if receiver is not UNKNOWN) or ONLY_UNKNOWN
    unit = frame.unit
    summary = unit.summary
    if summary.class_qualname is None or not unit.params:
        return ONLY_UNKNOWN
    defining = ClassValue(summary_path(unit), summary.class_qualname, _class_frame(session, unit))
    return frozenset(SuperValue(defining, receiver) for receiver in unit.params[0] if receiver is not UNKNOWN) or ONLY_UNKNOWN


def summary_path(unit: Unit) -> str:
    return unit.module.path


def _class_frame(session: ModelSession, unit: Unit) -> int:
    """The frame a method's class was made in: the method's own closure frame."""
    function = unit.function
    return function.frame if isinstance(function, FunctionValue) else 0


def _gather(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``asyncio.gather(*aws)``: every coroutine runs in a task of its own; awaiting gives their results."""
    results: set = set()
    for values in _args(args):
        for value in values:
            results.update(session.awaited(frozenset({value})))
        for value in values:
            if isinstance(value, ContainerValue):
                results.update(session.awaited(session.read_all_cells(value)))
    return _new(session, "gathered", span, frame, bounded(results) if results else ONLY_UNKNOWN)


def _task(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``create_task(coro)`` and friends: awaiting the task gives the coroutine's result."""
    return _first(args) or ONLY_UNKNOWN


def _run_callable(position: int) -> Model:
    """``asyncio.to_thread(f, *args)``, ``loop.run_in_executor(None, f, *args)``: ``f`` is called."""

    def run(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        positional = _args(args)
        if len(positional) <= position:
            return ONLY_UNKNOWN
        results: set = set()
        for function in positional[position]:
            results.update(session.call_one(function, list(args[position + 1:]), kwargs, span, frame))
        return bounded(results) if results else ONLY_UNKNOWN

    return run


def _context_manager(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``@contextmanager``: calling the function makes a context manager whose value is what it yields."""
    return one(ExternalValue("contextlib.contextmanager()")) if not _first(args) else frozenset(
        {BuiltinMethod(v, "#contextmanager") for v in _first(args)})


# --- functools.singledispatch -----------------------------------------------------------------

#: The kind of container a ``singledispatch`` function is: its cells hold the implementations by class.
DISPATCHER = "singledispatch"
_DEFAULT = ("#dispatch_default",)
_CLASSES = ("#dispatch_classes",)


def _singledispatch(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    """``@singledispatch def f``: a callable that runs the implementation registered for its first argument's class
    (``@f.register``), else ``f``; ``singledispatchmethod`` the same, on the argument after ``self``."""
    functions = _first(args)
    if not functions:
        return ONLY_UNKNOWN
    # a decorator is applied with no call site of its own: the function it decorates names the dispatcher
    named = sorted(f"{v.path}:{v.qualname}" for v in functions if isinstance(v, FunctionValue))
    dispatcher = ContainerValue(DISPATCHER, _site(span, frame, "dispatch", *named), session.id)
    session.write_cell(dispatcher, _DEFAULT, functions, frame)
    session.write_cell(dispatcher, _CLASSES, EMPTY, frame)
    return frozenset({dispatcher})


def _singledispatchmethod(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    return frozenset(DescriptorValue("singledispatchmethod", made) if made is not UNKNOWN else made
                     for made in _singledispatch(session, args, kwargs, span, frame))


def _implementations(values: Values) -> bool:
    """``f.register(impl)``: what is given is a function (or a class- or staticmethod), not a class."""
    return bool(values) and all(isinstance(v, FunctionValue) or (isinstance(v, DescriptorValue) and
                                isinstance(v.function, FunctionValue)) for v in values)


def _register(session: ModelSession, dispatcher: ContainerValue, args: list, kwargs: list, span: Span | None,
              frame: Frame, is_method: bool) -> Values:
    """``f.register(cls, impl)``, ``@f.register(cls)`` or ``@f.register`` (the class is the annotation of the
    implementation's first dispatched parameter: after ``self`` or ``cls`` in a ``singledispatchmethod``)."""
    positional = _args(args)
    if not positional:
        return ONLY_UNKNOWN
    if not _implementations(positional[0]):  # a class, or an expression the analysis does not know as one
        if len(positional) > 1:
            _store_implementation(session, dispatcher, positional[0], positional[1], frame)
            return positional[1]
        registrar = ContainerValue("tuple", _site(span, frame, "register"), session.id, 2)
        session.write_cell(registrar, 0, frozenset({dispatcher}), frame, exact=True)
        session.write_cell(registrar, 1, positional[0], frame, exact=True)
        return frozenset({BuiltinMethod(registrar, "#register_for")})
    for implementation in positional[0]:
        function = implementation.function if isinstance(implementation, DescriptorValue) else implementation
        skip = 1 if is_method and not (isinstance(implementation, DescriptorValue) and implementation.kind == "staticmethod") else 0
        params = session.parameters(function) if isinstance(function, FunctionValue) else None
        annotation = params[skip].annotation if params is not None and len(params) > skip else None
        classes = session.expr(annotation, frame) if annotation is not None else ONLY_UNKNOWN
        _store_implementation(session, dispatcher, classes, frozenset({implementation}), frame)
    return positional[0]


def _register_for(session: ModelSession, registrar: ContainerValue, args: list, kwargs: list, span: Span | None,
                  frame: Frame) -> Values:
    functions = _first(args)
    for dispatcher in session.read_cell(registrar, 0):
        _store_implementation(session, dispatcher, session.read_cell(registrar, 1), functions, frame)  # type: ignore[arg-type]
    return functions or ONLY_UNKNOWN


def _store_implementation(session: ModelSession, dispatcher: ContainerValue, classes: Values, functions: Values,
                          frame: Frame) -> None:
    # a class the analysis cannot name (a string annotation, ``int | str``, ``type(None)``) matches any argument
    keys = frozenset(c if isinstance(c, ClassValue) or (isinstance(c, ExternalValue) and not c.name.endswith(")"))
                     else UNKNOWN for c in classes) or ONLY_UNKNOWN
    session.write_cell(dispatcher, _CLASSES, keys, frame)
    for key in keys:
        session.write_cell(dispatcher, ("#dispatch_for", key), functions, frame)


def dispatch(session: ModelSession, dispatcher: ContainerValue, args: list, kwargs: list, span: Span | None,
             frame: Frame, receiver: Values | None = None) -> Values:
    """Calling a ``singledispatch`` function (``receiver``: a ``singledispatchmethod`` read through an instance or
    a class): the implementation for the class of each value of the first argument, first in that class' order;
    an argument the analysis does not know may run any of them."""
    registered = session.read_cell(dispatcher, _CLASSES)
    chosen: set = set()
    dispatched = _args(args)[0] if args and not isinstance(args[0], tuple) else ONLY_UNKNOWN
    for value in dispatched:
        order = _class_order(session, value)
        if order is None:
            chosen.update(("#dispatch_for", key) for key in registered)
            chosen.add(_DEFAULT)
            continue
        found = next((key for key in order if key in registered), None)
        chosen.add(("#dispatch_for", found) if found is not None else _DEFAULT)
        # a class the analysis cannot name, or an outside class not in the order (an ABC may claim any class)
        chosen.update(("#dispatch_for", key) for key in registered if key is UNKNOWN or (
            isinstance(key, ExternalValue) and not key.name.startswith("builtins.") and key not in order))
    results: set = set()
    for cell in sorted(chosen, key=repr):
        for implementation in session.read_cell(dispatcher, cell):
            function, bound = _bound_implementation(implementation, receiver)
            results.update(session.call_one(function, [*bound, *args], kwargs, span, frame))
    return bounded(results) if results else ONLY_UNKNOWN


def _bound_implementation(implementation: Value, receiver: Values | None) -> tuple[Value, list]:
    """What ``singledispatchmethod`` calls: the implementation bound as its ``__get__`` binds it (a function to the
    instance, a classmethod to the class, a staticmethod to nothing)."""
    if isinstance(implementation, DescriptorValue):
        if implementation.kind == "classmethod" and receiver is not None:
            classes = frozenset(v.cls if isinstance(v, InstanceValue) else v for v in receiver)
            return implementation.function, [classes]
        return implementation.function, []
    if receiver is not None and all(isinstance(v, InstanceValue) for v in receiver):
        return implementation, [receiver]
    return implementation, []  # read through the class: the plain function


def _class_order(session: ModelSession, value: Value) -> list | None:
    """The classes a value is an instance of, most derived first (None: not known). An outside base ends the
    order the analysis knows (its own bases are not known)."""
    if isinstance(value, ConstValue):
        kinds = {"bool": ["bool", "int"]}.get(value.kind, [value.kind])
        return [ExternalValue(f"builtins.{kind}") for kind in kinds] + [ExternalValue("builtins.object")]
    if isinstance(value, ContainerValue) and value.kind in ("list", "tuple", "dict", "set"):
        return [ExternalValue(f"builtins.{value.kind}"), ExternalValue("builtins.object")]
    if isinstance(value, InstanceValue):
        return [*session.mro(value.cls), ExternalValue("builtins.object")]
    return None


# --- contextlib's exit stacks ------------------------------------------------------------------

#: The kind of container an ``ExitStack()``/``AsyncExitStack()`` is: its cells hold what runs when it unwinds.
EXIT_STACK = "exit_stack"

#: What each method of an exit stack does, as data: ("enter", async) enters its argument now and exits it when
#: the stack unwinds; ("callback", async) calls ``f(*args, **kwargs)`` then; ("exit", async) calls ``f(*exc)``
#: (or an object's ``__exit__``/``__aexit__``) then; ("unwind", async) unwinds the stack now (``close``/``aclose``).
#: The stack unwinds where its ``with`` block ends: the calls are reported at the ``with`` statement.
EXIT_STACK_METHODS: dict[str, tuple[str, bool]] = {
    "enter_context": ("enter", False),
    "enter_async_context": ("enter", True),
    "callback": ("callback", False),
    "push_async_callback": ("callback", True),
    "push": ("exit", False),
    "push_async_exit": ("exit", True),
    "close": ("unwind", False),
    "aclose": ("unwind", True),
}


def _exit_stack(session: ModelSession, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
    return frozenset({ContainerValue(EXIT_STACK, _site(span, frame), session.id)})


def _exit_stack_method(session: ModelSession, stack: ContainerValue, name: str, args: list, kwargs: list,
                       span: Span | None, frame: Frame) -> Values:
    action, is_async = EXIT_STACK_METHODS[name]
    if action == "unwind":
        unwind(session, stack, span, frame, only_async=None if is_async else False)
        return ONLY_UNKNOWN
    first = _first(args)
    if action == "enter":
        entered = session.enter(first, frame, is_async, span)
        session.write_cell(stack, ("#managers", is_async), first, frame)
        return ONLY_UNKNOWN if is_async else entered  # ``await stack.enter_async_context(cm)``: not followed
    if action == "callback":
        session.write_cell(stack, ("#callbacks", is_async), _partial(session, args, kwargs, span, frame), frame)
    else:
        session.write_cell(stack, ("#exits", is_async), first, frame)
    return first or ONLY_UNKNOWN


def unwind(session: ModelSession, stack: ContainerValue, span: Span | None, frame: Frame,
           only_async: bool | None = None) -> None:
    """What an exit stack runs when it unwinds (``only_async=False``: a sync ``close()``, which runs no coroutine)."""
    for is_async in (False, True):
        if only_async is False and is_async:
            continue
        session.exit(session.read_cell(stack, ("#managers", is_async)), frame, is_async, span)
        for callback in session.read_cell(stack, ("#callbacks", is_async)):
            made = session.call_one(callback, [], [], span, frame)
            if is_async:
                session.awaited(made, frame, span)
        for handler in session.read_cell(stack, ("#exits", is_async)):
            if isinstance(handler, InstanceValue):  # ``push(cm)``: its ``__exit__``
                session.exit(frozenset({handler}), frame, is_async, span)
            else:
                made = session.call_one(handler, [ONLY_UNKNOWN] * 3, [], span, frame)
                if is_async:
                    session.awaited(made, frame, span)


_HANDLERS: dict[str, Model] = {
    "functools.partial": _partial,
    "functools.partialmethod": _partialmethod,
    "functools.singledispatch": _singledispatch,
    "functools.singledispatchmethod": _singledispatchmethod,
    "operator.methodcaller": _methodcaller,
    "collections.defaultdict": _defaultdict,
    "functools.wraps": _decorator_factory,
    "functools.wraps()": _wrapped_by,
    "functools.lru_cache": _lru_cache,
    "functools.cache": _identity,
    "functools.reduce": _reduce,
    "collections.namedtuple": _namedtuple,
    "itertools.starmap": _starmap,
    "operator.call": _operator_call,
    "operator.itemgetter": _getter("#itemgetter"),
    "types.SimpleNamespace": _namespace,
    "types.MethodType": _method_type,
    "operator.attrgetter": _getter("#attrgetter"),
    "dataclasses.dataclass": _class_decorator("dataclasses.dataclass()"),
    "dataclasses.dataclass()": _identity,
    "dataclasses.field": _field,
    "dataclasses.replace": _replace,
    "copy.copy": _copy("__copy__"),
    "copy.deepcopy": _copy("__deepcopy__"),
    "functools.cached_property": _descriptor("property"),
    "functools.update_wrapper": _update_wrapper,
    "builtins.staticmethod": _descriptor("staticmethod"),
    "enum.member": _descriptor("enum.member"),
    "enum.nonmember": _descriptor("enum.nonmember"),
    "builtins.classmethod": _descriptor("classmethod"),
    "builtins.property": _descriptor("property"),
    "builtins.map": _map,
    "builtins.filter": _filter,
    "builtins.sorted": _sorted,
    "builtins.min": _min_max,
    "builtins.max": _min_max,
    "builtins.list": _copy_of("list"),
    "builtins.tuple": _copy_of("tuple"),
    "builtins.set": _copy_of("set"),
    "builtins.frozenset": _copy_of("set"),
    "builtins.reversed": _copy_of("iterator"),
    "builtins.dict": _dict,
    "builtins.dict.fromkeys": _fromkeys,
    "builtins.iter": _iter,
    "builtins.type": _type,
    "typing.cast": _cast,
    "typing_extensions.cast": _cast,
    "typing.assert_type": _identity,
    "typing_extensions.assert_type": _identity,
    "contextlib.closing": _identity,
    "contextlib.aclosing": _identity,
    "builtins.next": _next,
    "builtins.enumerate": _enumerate,
    "builtins.zip": _zip,
    "builtins.getattr": _getattr,
    "builtins.setattr": _setattr,
    "builtins.object.__setattr__": _setattr,
    "builtins.super": _super,
    "importlib.import_module": _import_module,
    "collections.ChainMap": _chain_map,
    **{f"{base}.{method}": _base_method(method) for base in ("builtins.dict", "collections.OrderedDict", "builtins.list")
       for method in ("__setitem__", "__getitem__", "get", "setdefault", "update", "append", "extend")},
    "json.loads": _json_loads,
    "inspect.signature": _signature,
    "collections.OrderedDict": _dict,
    "types.MappingProxyType": _identity,
    "heapq.heappush": _heap_push,
    "heapq.heappushpop": _heap_exchange,
    "heapq.heapreplace": _heap_exchange,
    "heapq.heappop": _heap_pop,
    "heapq.heapify": _heapify,
    "heapq.nsmallest": _heap_select,
    "heapq.nlargest": _heap_select,
    "heapq.merge": _heap_merge,
    "itertools.groupby": _groupby,
    "itertools.cycle": _iterator_over(("iterable",), "iterable"),
    "itertools.islice": _iterator_over(("iterable", "start", "stop", "step"), "iterable"),
    "itertools.chain": _iterator_over((), "*"),
    "itertools.chain.from_iterable": _iterator_over(("iterable",), "iterable", nested=True),
    "itertools.takewhile": _iterator_over(("predicate", "iterable"), "iterable", predicate="predicate"),
    "itertools.dropwhile": _iterator_over(("predicate", "iterable"), "iterable", predicate="predicate"),
    "itertools.filterfalse": _iterator_over(("function", "iterable"), "iterable", predicate="function"),
    "itertools.compress": _iterator_over(("data", "selectors"), "data"),
    "itertools.repeat": _repeat,
    "itertools.accumulate": _accumulate,
    "itertools.tee": _tee,
    "itertools.product": _combined_rows,
    "itertools.permutations": _combined_rows,
    "itertools.combinations": _combined_rows,
    "itertools.combinations_with_replacement": _combined_rows,
    "itertools.pairwise": _combined_rows,
    "itertools.zip_longest": _combined_rows,
    "asyncio.Queue": _queue(QUEUE),
    "asyncio.LifoQueue": _queue(QUEUE),
    "asyncio.PriorityQueue": _queue(QUEUE),
    "queue.Queue": _queue(SYNC_QUEUE),
    "queue.LifoQueue": _queue(SYNC_QUEUE),
    "queue.SimpleQueue": _queue(SYNC_QUEUE),
    "asyncio.gather": _gather,
    "asyncio.create_task": _task,
    "asyncio.Task": _task,
    "asyncio.ensure_future": _task,
    "asyncio.shield": _task,
    "asyncio.wait_for": _task,
    "asyncio.TaskGroup().create_task": _task,
    "asyncio.get_running_loop().create_task": _task,
    "asyncio.get_event_loop().create_task": _task,
    "asyncio.to_thread": _run_callable(0),
    "asyncio.get_running_loop().run_in_executor": _run_callable(1),
    "asyncio.get_event_loop().run_in_executor": _run_callable(1),
    "contextlib.contextmanager": _context_manager,
    "contextlib.asynccontextmanager": _context_manager,
    "contextlib.ExitStack": _exit_stack,
    "contextlib.AsyncExitStack": _exit_stack,
}


# --- methods of containers and literals ------------------------------------------------------


def container_method(session: ModelSession, method: BuiltinMethod, args: list, kwargs: list, span: Span | None,
                     frame: Frame) -> Values:
    receiver, name = method.receiver, method.name
    if isinstance(receiver, GeneratorValue):  # ``gen.send(x)``, ``await agen.__anext__()``: runs it to its next yield
        if name not in _GENERATOR_STEPS:
            return ONLY_UNKNOWN
        yielded = session.iterate(frozenset({receiver}), frame, span)
        return ONLY_UNKNOWN if name in _ASYNC_GENERATOR_STEPS else yielded
    if name == "#methodcaller":
        return _call_methodcaller(session, receiver, args, kwargs, span, frame)
    if isinstance(receiver, ConstValue) and (name in _PURE_STR_METHODS or name in _SPLITTING_STR_METHODS):
        return _str_method(session, receiver, name, args, kwargs, span, frame)
    if name.startswith("#init ") and isinstance(receiver, ContainerValue):  # ``super().__init__(items)``
        fill_items(session, receiver, name[len("#init "):], args, kwargs, span, frame)
        return _NONE
    if isinstance(receiver, ContainerValue) and receiver.kind in (QUEUE, SYNC_QUEUE):
        return _queue_method(session, receiver, name, args, span, frame)
    if name == "#make" and isinstance(receiver, ClassValue):  # a NamedTuple's ``_make(iterable)``
        items = session.exact_items(_first(args)) if len(args) == 1 and not kwargs else None
        return session.call_one(receiver, items, [], span, frame) if items is not None else ONLY_UNKNOWN
    if name == "#register_for" and isinstance(receiver, ContainerValue):
        return _register_for(session, receiver, args, kwargs, span, frame)
    if isinstance(receiver, ContainerValue) and receiver.kind == DISPATCHER:
        return _register(session, receiver, args, kwargs, span, frame, False) if name == "register" else ONLY_UNKNOWN
    if isinstance(receiver, DescriptorValue) and receiver.kind == "singledispatchmethod":
        if name != "register" or not isinstance(receiver.function, ContainerValue):
            return ONLY_UNKNOWN
        return _register(session, receiver.function, args, kwargs, span, frame, True)
    if name == "#contextmanager":  # a ``@contextmanager`` function, called
        units = [session.unit_for(receiver, None, args, kwargs, frame)] if isinstance(receiver, FunctionValue) else []
        return frozenset(ContextManagerValue(u.id) for u in units if u is not None) or ONLY_UNKNOWN
    if name in _GETTERS and isinstance(receiver, ContainerValue):
        return _GETTERS[name](session, receiver, _args(args), frame)
    if isinstance(receiver, DescriptorValue):
        # ``@prop.setter``: the property stays (its getter is what reads see), with the setter a write runs
        setters = _first(args) if name == "setter" and receiver.kind == "property" else EMPTY
        if len(setters) == 1:
            return frozenset({replace(receiver, setter=next(iter(setters)))})
        return frozenset({receiver})
    if isinstance(receiver, ContainerValue) and receiver.kind == EXIT_STACK:
        if name not in EXIT_STACK_METHODS:
            return ONLY_UNKNOWN
        return _exit_stack_method(session, receiver, name, args, kwargs, span, frame)
    model = _CONTAINER_METHODS.get(name)
    if not isinstance(receiver, ContainerValue) or model is None:
        return ONLY_UNKNOWN
    found = model(session, receiver, _args(args), kwargs, span, frame)
    return ONLY_UNKNOWN if found is None else found


#: Methods of ``str`` that compute a string, a bool or an int from the string and their arguments alone: on
#: constants the analysis runs them as Python does (``func.__name__.replace("_", "-")``, a registry's key).
_PURE_STR_METHODS = frozenset({
    "replace", "lower", "upper", "strip", "lstrip", "rstrip", "title", "capitalize", "casefold", "swapcase",
    "removeprefix", "removesuffix", "zfill", "center", "ljust", "rjust", "startswith", "endswith", "count", "find",
    "rfind", "isdigit", "isalpha", "isalnum", "isidentifier", "islower", "isupper", "isspace", "isdecimal",
    "isnumeric", "istitle"})
#: Those that give a list or tuple of strings (``"pkg.mod:attr".partition(":")``): made as a list or tuple display.
_SPLITTING_STR_METHODS = frozenset({"split", "rsplit", "partition", "rpartition", "splitlines"})
_STR_ARGUMENT_TYPES = (str, int)


def _str_method(session: ModelSession, receiver: ConstValue, name: str, args: list, kwargs: list, span: Span | None,
                frame: Frame) -> Values:
    """``"a_b".replace("_", "-")`` with every argument a known constant."""
    if not isinstance(receiver.value, str) or kwargs or any(isinstance(arg, tuple) for arg in args):
        return ONLY_UNKNOWN
    given = []
    for values in args:
        if len(values) != 1 or not isinstance(value := next(iter(values)), ConstValue) \
                or not isinstance(value.value, _STR_ARGUMENT_TYPES) or isinstance(value.value, bool) \
                or isinstance(value.value, int) and abs(value.value) > 4096:  # ``"a".center(10**9)``: not made here
            return ONLY_UNKNOWN
        given.append(value.value)
    try:
        result = getattr(receiver.value, name)(*given)
    except (TypeError, ValueError, OverflowError, MemoryError):
        return ONLY_UNKNOWN
    if isinstance(result, (list, tuple)):
        if len(result) > 32:
            return ONLY_UNKNOWN
        parts = ContainerValue(type(result).__name__, _site(span, frame, "parts"), session.id, len(result))
        for index, part in enumerate(result):
            session.write_cell(parts, index, const(part), frame, exact=True)
        return frozenset({parts})
    return const(result)


#: Methods of builtin values that iterate what they are given without the analysis modeling their result
#: (``"|".join(gen)`` runs the generator there); ``append`` and the like keep it for later.
CONSUMING_METHODS = frozenset({"join", "writelines"})

_ASYNC_GENERATOR_STEPS = frozenset({"asend", "__anext__", "athrow"})
_GENERATOR_STEPS = frozenset({"send", "__next__", "throw"}) | _ASYNC_GENERATOR_STEPS


def _got(read: Callable[[ModelSession, Values, Value, Frame], Values]) -> Callable:
    """What an ``itemgetter``/``attrgetter`` made of ``keys`` gives for its argument: one key's value, else a tuple."""
    def model(session: ModelSession, keys: ContainerValue, positional: list[Values], frame: Frame) -> Values:
        if not positional:
            return ONLY_UNKNOWN
        per_key = [bounded(set().union(*(read(session, positional[0], key, frame) for key in values)))
                   for values in session.exact_items(frozenset({keys})) or ()]
        if len(per_key) == 1:
            return per_key[0] or ONLY_UNKNOWN
        made = ContainerValue("tuple", (*keys.site, "got"), session.id, len(per_key))
        for position, values in enumerate(per_key):
            session.write_cell(made, position, values, frame, exact=True)
        return frozenset({made})
    return model


def _read_item(session: ModelSession, bases: Values, key: Value, frame: Frame) -> Values:
    return session.item(bases, frozenset({key}), frame, by_getitem=True)


def _read_attribute(session: ModelSession, bases: Values, key: Value, frame: Frame) -> Values:
    """``attrgetter("a")``, ``attrgetter("a.b")`` (each name in turn, as the getter reads them)."""
    if not (isinstance(key, ConstValue) and isinstance(key.value, str)):
        return ONLY_UNKNOWN
    for name in key.value.split("."):
        bases = session.attribute(bases, name, frame)
    return bases


_GETTERS = {"#itemgetter": _got(_read_item), "#attrgetter": _got(_read_attribute)}

_NONE = one(ConstValue("NoneType", None))


def _add(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list, span: Span | None,
         frame: Frame) -> Values | None:
    """``items.append(x)``, ``items.add(x)``."""
    if not positional:
        return None
    session.write_cell(receiver, ANY, positional[0], frame)
    return _NONE


def _insert(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
            span: Span | None, frame: Frame) -> Values | None:
    if len(positional) < 2:
        return None
    session.write_cell(receiver, ANY, positional[1], frame)
    return _NONE


def _extend(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
            span: Span | None, frame: Frame) -> Values | None:
    """``items.extend(other)``, ``mapping.update(other, key=value)``: a dict's known keys stay known."""
    for values in positional:
        if receiver.kind == "dict":  # ``mapping.update(pairs)``: each item a (key, value) pair, in order where known
            for key, value, ordered in iterated_pairs(session, values, frame, span):  # type: ignore[arg-type]
                session.store_item(receiver, key, value, frame, exact=ordered)
        for other in values:
            if isinstance(other, ContainerValue) and other.kind == "dict" and receiver.kind == "dict":
                # a key replaces what the receiver held only where ``other`` is the one dict it may be
                for key in session.container_keys(other):
                    session.store_item(receiver, key_values(key) if not isinstance(key, tuple) else frozenset({UNKNOWN}),
                                       session.read_cell(other, key), frame, exact=len(values) == 1)
            elif receiver.kind != "dict":
                session.write_cell(receiver, ANY, session.iterate(frozenset({other}), frame, span), frame)
    for key, values in kwargs:
        if key != "**":
            session.store_item(receiver, const(key), values, frame, exact=True)
    return _NONE


def _extend_with_items(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
                       span: Span | None, frame: Frame) -> Values | None:
    return _extend(session, receiver, positional, kwargs, span, frame) if positional else None


def _get(session: ModelSession, receiver: ContainerValue, positional: list[Values], name: str,
         frame: Frame) -> Values:
    """``mapping.get(key, default)``, ``.pop``, ``.setdefault`` (which stores its default)."""
    found = set(session.item(frozenset({receiver}), positional[0], frame)) if positional else set()
    if len(positional) > 1:
        found.update(positional[1])
        if name == "setdefault":
            session.store_item(receiver, positional[0], positional[1], frame)
    return bounded(found) if found else ONLY_UNKNOWN


def _keyed_read(name: str) -> Callable:
    def read(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
             span: Span | None, frame: Frame) -> Values | None:
        if receiver.kind == "dict":
            return _get(session, receiver, positional, name, frame)
        if name == "pop" and receiver.kind in ("list", "set"):
            _reordered(session, receiver, frame)
            return session.read_all_cells(receiver)
        return None

    return read


def _reordered(session: ModelSession, receiver: ContainerValue, frame: Frame) -> None:
    """``items.pop()``, ``remove``, ``clear``, ``reverse``, ``sort``: its items may have moved, so none is at a known
    position any more (``exact_items`` answers None): they are all held anywhere."""
    if receiver.kind == "list":
        session.write_cell(receiver, ANY, session.read_all_cells(receiver) or ONLY_UNKNOWN, frame)


def _reorder(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
             span: Span | None, frame: Frame) -> Values | None:
    _reordered(session, receiver, frame)
    return _NONE


def _copy(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
          span: Span | None, frame: Frame) -> Values | None:
    if receiver.kind in ("list", "set"):
        return _new(session, receiver.kind, span, frame, session.read_all_cells(receiver))
    if receiver.kind == "dict":
        return _dict(session, [frozenset({receiver})], [], span, frame)
    return None


def _values(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
            span: Span | None, frame: Frame) -> Values | None:
    return _new(session, "iterator", span, frame, session.read_all_cells(receiver))


def _keys(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
          span: Span | None, frame: Frame) -> Values | None:
    keys = frozenset().union(*(key_values(k) for k in session.container_keys(receiver) if not isinstance(k, tuple))) if receiver.kind == "dict" else EMPTY
    return _new(session, "iterator", span, frame, keys or ONLY_UNKNOWN)


def _items(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
           span: Span | None, frame: Frame) -> Values | None:
    if receiver.kind != "dict":
        return None
    pair = ContainerValue("tuple", _site(span, frame, "item"), session.id, 2)
    keys = [key_values(k) for k in session.container_keys(receiver) if not isinstance(k, tuple)]
    session.write_cell(pair, 0, frozenset().union(*keys) if keys else ONLY_UNKNOWN, frame)
    session.write_cell(pair, 1, session.read_all_cells(receiver), frame)
    return _new(session, "iterator", span, frame, frozenset({pair}))


def _sort(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
          span: Span | None, frame: Frame) -> Values | None:
    _reordered(session, receiver, frame)
    for key, values in kwargs:
        if key == "key":
            _calls_each(session, values, session.read_all_cells(receiver) or ONLY_UNKNOWN, span, frame)
    return _NONE


#: A model of one container method: (session, the container, positional values, keywords, span, frame) -> values,
#: or None when that use of it is not modeled (its result is then unknown).
ContainerModel = Callable[[ModelSession, ContainerValue, list, list, "Span | None", Frame], "Values | None"]

def is_container_method(name: str) -> bool:
    """Whether calling ``name`` on a container is modeled (a subclass's instance answers it from its items)."""
    return name in _CONTAINER_METHODS


def _get_item(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
              span: Span | None, frame: Frame) -> Values | None:
    """``dict.__getitem__(self, key)``, as ``self[key]`` in a method of a subclass or a call of the base's method."""
    return session.item(frozenset({receiver}), positional[0], frame, by_getitem=True) if positional else None


def _set_item(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
              span: Span | None, frame: Frame) -> Values | None:
    if len(positional) != 2:
        return None
    session.store_item(receiver, positional[0], positional[1], frame)
    return _NONE


def _iter_items(session: ModelSession, receiver: ContainerValue, positional: list[Values], kwargs: list,
                span: Span | None, frame: Frame) -> Values | None:
    return _new(session, "iterator", span, frame, session.iterate(frozenset({receiver}), frame, span))


_CONTAINER_METHODS: dict[str, ContainerModel] = {
    "append": _add,
    "add": _add,
    "insert": _insert,
    "extend": _extend_with_items,
    "update": _extend,
    "get": _keyed_read("get"),
    "pop": _keyed_read("pop"),
    "setdefault": _keyed_read("setdefault"),
    "copy": _copy,
    "values": _values,
    "keys": _keys,
    "items": _items,
    "sort": _sort,
    "reverse": _reorder,
    "remove": _reorder,
    "clear": _reorder,
    "__getitem__": _get_item,
    "__setitem__": _set_item,
    "__iter__": _iter_items,
}
