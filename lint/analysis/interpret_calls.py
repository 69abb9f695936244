"""Calls in the value-flow interpreter: a call runs the callee's statements with the argument values it received.

A function runs as a *unit*: one function in one context (the values bound to
its parameters). A function has at most ``MAX_CONTEXTS`` contexts; past them
its calls share one widened unit. Every call is recorded on the calling unit
(for the call graph and the rules). Iterating, awaiting and entering a context
manager call the protocol methods an instance defines, so they live here too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from steplint.analysis import builtin_models
from steplint.analysis.builtin_models import FIELD_CLASS
from steplint.analysis.interpret_shared import (
    CONTAINER_BASES, Frame, SessionApi, Unit, context_tag, dict_keys, items_of, maf_factory, ordered, values_tag,
)
from steplint.analysis.values import (
    ANY,
    ENUM_ITERATION,
    ENUM_MEMBERS,
    RECORD_FIELDS,
    EMPTY,
    ONLY_UNKNOWN,
    UNKNOWN,
    BoundMethod,
    BuiltinMethod,
    ClassValue,
    ConstValue,
    ContainerValue,
    ContextManagerValue,
    CoroutineValue,
    DescriptorValue,
    ExternalValue,
    FunctionValue,
    GeneratorValue,
    InstanceValue,
    PartialValue,
    StepFactoryValue,
    StepOptions,
    StepValue,
    Value,
    Values,
    bounded,
    one,
)
from steplint.core.summary import FunctionSummary, ModuleSummary, Param, Ref, Span

MAX_CONTEXTS = 8
MAX_UNITS = 20_000  # per session: past it, new calls are not followed (their result is unknown)


#: ``class Route(TypedDict)``: calling the class builds a plain dict of its keyword arguments.
_TYPED_DICTS = frozenset({"typing.TypedDict", "typing_extensions.TypedDict"})

class Calls:
    """What calling each kind of value does (``_CALLERS``), and the units calls run."""

    def __init__(self, session: SessionApi):
        self.session = session

    def call(self, callees: Values, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        found: set = set()
        for callee in ordered(callees):
            found.update(self.call_one(callee, args, kwargs, span, frame))
        return bounded(found) if found else ONLY_UNKNOWN

    def call_one(self, callee: Value, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        caller = _CALLERS.get(type(callee))
        return caller(self, callee, args, kwargs, span, frame) if caller is not None else ONLY_UNKNOWN

    def record(self, frame: Frame, span: Span | None, callee: Value, unit: Unit | None) -> None:
        caller = frame.unit
        caller.edges.add(callee)
        if span is None:
            return
        calls = caller.site_calls.setdefault((span.line, span.col, span.end_line, span.end_col), {})
        units = calls.setdefault(callee, set())
        if unit is not None and unit.id not in units:
            units.add(unit.id)

    def record_run(self, frame: Frame, span: Span | None, unit: Unit, generator: GeneratorValue) -> None:
        """A generator's body runs at ``span``, where it is iterated: a call there for the rules, not a new edge of
        the call graph (the call that made it is one). An iteration with no site of its own (a comprehension's
        ``for``) is put at the call that made the generator when that call is in the same function, else lost."""
        if span is not None:
            key = (span.line, span.col, span.end_line, span.end_col)
        elif generator.made_in == frame.unit.id and generator.made_at is not None:
            key = generator.made_at
        else:
            return
        frame.unit.site_calls.setdefault(key, {}).setdefault(unit.function, set()).add(unit.id)

    # --- one handler per kind of callee -------------------------------------------------------

    def _call_function(self, callee: FunctionValue, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        return self.invoke(callee, None, args, kwargs, span, frame, callee)

    def _call_bound_method(self, callee: BoundMethod, args: list, kwargs: list, span: Span | None,
                           frame: Frame) -> Values:
        function = callee.function
        if isinstance(function, FunctionValue):
            return self.invoke(function, callee.receiver, args, kwargs, span, frame, callee)
        return self.call_one(function, [frozenset({callee.receiver}), *args], kwargs, span, frame)

    def _call_step_factory(self, callee: StepFactoryValue, args: list, kwargs: list, span: Span | None,
                           frame: Frame) -> Values:
        self.record(frame, span, callee, None)
        made: set = set()
        site = (frame.unit.module.path, span.line, span.col) if span is not None else ("<step>",)
        for value in _positional(args, 0):
            made.add(StepValue(callee.kind, site, value if isinstance(value, FunctionValue) else None, callee.options))
        return frozenset(made) or ONLY_UNKNOWN

    def _call_partial(self, callee: PartialValue, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        self.record(frame, span, callee, None)
        functions, stored_args, stored_kwargs = builtin_models.stored_arguments(self.session, callee)
        return self.call(functions, [*stored_args, *args], [*stored_kwargs, *kwargs], span, frame)

    def _call_instance(self, callee: InstanceValue, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        return self.call(self.session.instance_attribute(callee, "__call__", frame), args, kwargs, span, frame)

    def _call_builtin_method(self, callee: BuiltinMethod, args: list, kwargs: list, span: Span | None,
                             frame: Frame) -> Values:
        self.record(frame, span, callee, None)
        if callee.name in builtin_models.CONSUMING_METHODS:
            self._run_given_generators(args, kwargs, span, frame)
        return builtin_models.container_method(self.session, callee, args, kwargs, span, frame)

    def _call_descriptor(self, callee: DescriptorValue, args: list, kwargs: list, span: Span | None,
                         frame: Frame) -> Values:
        if callee.kind == "staticmethod":
            return self.call_one(callee.function, args, kwargs, span, frame)
        if callee.kind == "singledispatchmethod" and isinstance(callee.function, ContainerValue) and args \
                and not isinstance(args[0], tuple):  # read through an instance or class (``BoundMethod``): it first
            self.record(frame, span, callee, None)
            return builtin_models.dispatch(self.session, callee.function, args[1:], kwargs, span, frame, args[0])
        if callee.kind == "partialmethod" and args and not isinstance(args[0], tuple):
            # read through an instance (``BoundMethod``): the instance first, then what partialmethod was given
            functions, stored_args, stored_kwargs = builtin_models.stored_arguments(self.session, callee.function)
            return self.call(functions, [args[0], *stored_args, *args[1:]], [*stored_kwargs, *kwargs], span, frame)
        return ONLY_UNKNOWN

    def _call_container(self, callee: ContainerValue, args: list, kwargs: list, span: Span | None,
                        frame: Frame) -> Values:
        if callee.kind != builtin_models.DISPATCHER:
            return ONLY_UNKNOWN
        self.record(frame, span, callee, None)
        return builtin_models.dispatch(self.session, callee, args, kwargs, span, frame)

    def parameters(self, function: FunctionValue) -> tuple[Param, ...] | None:
        summary = self.session.engine.functions.get((function.path, function.qualname))
        return summary.params if summary is not None else None

    def _call_step(self, step: StepValue, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        """A step or workflow call: the body runs (MAF injects a run context where asked); awaiting gives its result."""
        unit = None
        if step.function is not None:
            unit = self.unit_for(step.function, None, args, kwargs, frame, inject_context=True)
        self.record(frame, span, step, unit)
        site = (frame.unit.module.path, span.line, span.col, span.end_line, span.end_col) if span is not None else step.site
        return frozenset({CoroutineValue(step, site, unit.id if unit is not None else 0)})

    def _instantiate(self, cls: ClassValue, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        if self.session.read_cell(cls, ENUM_MEMBERS):
            self.record(frame, span, cls, None)
            return self._enum_member(cls, args, kwargs)
        if any(isinstance(owner, ExternalValue) and owner.name in _TYPED_DICTS for owner in self.session.mro(cls)):
            self.record(frame, span, cls, None)
            return builtin_models.call(self.session, "builtins.dict", args, kwargs, span, frame) or ONLY_UNKNOWN
        site = (frame.unit.module.path, span.line, span.col) if span is not None else (frame.unit.module.path, "raise", cls.qualname)
        instance = InstanceValue(cls, (*site, *context_tag(frame.unit)), self.session.id)
        frame.mark_fresh(instance)
        self.record(frame, span, cls, None)
        for owner in self.session.mro(cls):
            if isinstance(owner, ExternalValue):
                kind = CONTAINER_BASES.get(owner.name)
                if kind is not None:  # ``Registry(defaults)``: the container's constructor fills the instance's items
                    builtin_models.fill_items(self.session, items_of(instance, kind), owner.name, args, kwargs, span,
                                              frame)
                if owner.name != "builtins.object":  # an outside base's constructor runs
                    self.record(frame, span, ExternalValue(f"{owner.name}.__init__"), None)
                break
            init = self.session.read_cell(owner, "__init__")
            functions = [v for v in init if isinstance(v, FunctionValue)]
            if not init and self.session.read_cell(owner, RECORD_FIELDS):
                self._dataclass_init(instance, args, kwargs, span, frame)
                self._post_init(instance, span, frame)
                break
            if init:
                for function in functions:
                    unit = self.unit_for(function, instance, args, kwargs, frame)
                    self.record(frame, span, function, unit)
                break
        return frozenset({instance})

    def _enum_member(self, cls: ClassValue, args: list, kwargs: list) -> Values:
        """``Color(value)`` is no new object: it is the member with that value (every member that may have it; a
        class with ``_missing_`` or ``__new__`` of its own may answer otherwise, so every member)."""
        session = self.session
        members = session.read_cell(cls, ENUM_ITERATION)
        if len(args) != 1 or kwargs or isinstance(args[0], tuple) or any(
                isinstance(owner, ClassValue) and (session.read_cell(owner, "_missing_") or session.read_cell(owner, "__new__"))
                for owner in session.mro(cls)):
            return members | ONLY_UNKNOWN if members else ONLY_UNKNOWN
        wanted = args[0]
        found = frozenset(member for member in members if not _surely_other(session.read_cell(member, "value"), wanted))
        return found or ONLY_UNKNOWN

    def _dataclass_init(self, instance: InstanceValue, args: list, kwargs: list, span: Span | None,
                        frame: Frame) -> None:
        """The ``__init__`` ``@dataclass`` generates: each field, the bases' first, takes its argument, or its
        ``field(...)`` default."""
        session = self.session
        names = builtin_models.record_field_names(session, instance.cls)
        given = {name: values for name, values in kwargs if name != "**"}
        # ``Features(**overrides)``: a dict's string keys are keyword arguments. A key the dict may lack (written on
        # one path only, or deleted since) leaves the field its default too; a spread of an unknown value may give
        # any field anything.
        spreads = [(name, values) for name, values in kwargs if name == "**"]
        spread_keys = {name: frozenset(values) for name, values in self._keyword_arguments(spreads).items()}
        unknown_spread = any(not (isinstance(v, ContainerValue) and v.kind == "dict") for _, values in spreads
                             for v in values)
        spread = next((i for i, arg in enumerate(args) if isinstance(arg, tuple)), len(args))  # ``*items``: unknown past it
        for position, name in enumerate(names):
            values = args[position] if position < spread else ONLY_UNKNOWN if spread < len(args) else given.get(name)
            from_spread = spread_keys.get(name, ONLY_UNKNOWN if unknown_spread else None) if values is None else None
            if values is None:
                values = self._field_default(instance.cls, name, span, frame)
            if from_spread is not None:
                values = from_spread | (values if values is not None else self._class_default(instance.cls, name))
            if values is not None:
                session.store_attribute(instance, name, values, frame)

    def _class_default(self, cls: ClassValue, name: str) -> Values:
        """A field's plain default: the class attribute ``@dataclass`` leaves (none: the field is required)."""
        for owner in self.session.mro(cls):
            if not isinstance(owner, ClassValue):
                break
            found = self.session.read_cell(owner, name)
            if found:
                return found
        return EMPTY

    def _field_default(self, cls: ClassValue, name: str, span: Span | None, frame: Frame) -> Values | None:
        """What a field not given takes from a ``dataclasses.field(...)`` in the class body: ``default_factory()``
        (called by ``__init__``, once per instance) or ``default``. None for a plain default: ``@dataclass`` leaves
        it the class attribute, which a read of the instance finds."""
        session = self.session
        for owner in session.mro(cls):
            if not isinstance(owner, ClassValue):
                return None
            declared = session.read_cell(owner, name)
            if not declared:
                continue
            fields = [value for value in declared if isinstance(value, InstanceValue) and value.cls == FIELD_CLASS]
            if not fields:
                return None
            found: set = set()
            for field in fields:
                found.update(session.read_cell(field, "default"))
                for factory in session.read_cell(field, "default_factory"):
                    found.update(self.call_one(factory, [], [], span, frame))
            return bounded(found) if found else None
        return None

    def _post_init(self, instance: InstanceValue, span: Span | None, frame: Frame) -> None:
        """The ``__init__`` ``@dataclass`` generates ends with ``self.__post_init__()`` where the class has one."""
        for owner in self.session.mro(instance.cls):
            if not isinstance(owner, ClassValue):
                break
            functions = [v for v in self.session.read_cell(owner, "__post_init__") if isinstance(v, FunctionValue)]
            for function in functions:
                self.record(frame, span, function, self.unit_for(function, instance, [], [], frame))
            if functions:
                break

    def _call_external(self, callee: ExternalValue, args: list, kwargs: list, span: Span | None, frame: Frame) -> Values:
        self.record(frame, span, callee, None)
        if span is not None:
            self._note_handed(callee, args, kwargs, span, frame)
        maf = maf_factory(callee)
        if maf is not None:
            kind, built = maf
            options = self._step_options(kwargs)
            if built:
                options = replace(options, built=True)
            functions = [v for v in _positional(args, 0) if isinstance(v, FunctionValue)]
            if functions:
                site = (frame.unit.module.path, span.line, span.col) if span is not None else ("<step>",)
                return frozenset(StepValue(kind, site, f, options) for f in functions)
            return frozenset({StepFactoryValue(kind, options)})
        modeled = builtin_models.call(self.session, callee.name, args, kwargs, span, frame)
        if modeled is not None:
            return modeled
        self._run_given_generators(args, kwargs, span, frame)
        return one(ExternalValue(f"{callee.name}()"))

    def _run_given_generators(self, args: list, kwargs: list, span: Span | None, frame: Frame) -> None:
        """A generator handed to code the analysis does not model (``any(gen)``, ``"".join(gen)``, ``anext(gen)``)
        runs there: what such code does with a generator is consume it (a lazy wrapper that keeps it for later,
        ``itertools.chain(gen)``, is reported here too)."""
        for argument in [*args, *(values for _, values in kwargs)]:
            if isinstance(argument, tuple):
                continue
            for value in argument:
                if isinstance(value, GeneratorValue):
                    unit = self.session.engine.units.get(value.unit)
                    if unit is not None:
                        self.record_run(frame, span, unit, value)

    def _step_options(self, kwargs: list) -> StepOptions:
        """What a call of MAF's ``step`` passed: ``name=`` when it is one string; whether ``replay_key=`` may
        be given a key (a spread whose keys are not all known may give one)."""
        keywords: list[tuple[str, Values]] = []
        spread_unknown = False
        for name, values in kwargs:
            if name != "**":
                keywords.append((name, values))
                continue
            for container in values:
                keys = self.session.container_keys(container) if isinstance(container, ContainerValue) else None
                if keys is None or container.kind != "dict" or not all(isinstance(k, str) for k in keys):
                    spread_unknown = True
                    continue
                keywords.extend((key, self.session.read_cell(container, key)) for key in keys)
        names = {v.value for name, values in keywords if name == "name" for v in values if isinstance(v, ConstValue)}
        name_values = [v for name, values in keywords if name == "name" for v in values]
        one_name = names.pop() if len(names) == 1 and len(name_values) == 1 and not spread_unknown else None
        replay_key = spread_unknown or any(
            not (isinstance(v, ConstValue) and v.value is None)
            for name, values in keywords if name == "replay_key" for v in values
        )
        given = any(name == "replay_key" for name, _ in keywords)
        return StepOptions(one_name if isinstance(one_name, str) else None, replay_key, given)

    def _note_handed(self, callee: ExternalValue, args: list, kwargs: list, span: Span, frame: Frame) -> None:
        """Coroutines given to an outside callable, directly or as items of a container (``gather(*calls)``)."""
        given: set = set()
        values = [v[1] if isinstance(v, tuple) else v for v in args] + [v for _, v in kwargs]
        for argument in values:
            for value in argument:
                if isinstance(value, CoroutineValue):
                    given.add(value)
                elif isinstance(value, ContainerValue):
                    given.update(v for v in self.session.read_all_cells(value) if isinstance(v, CoroutineValue))
        if given:
            key = (span.line, span.col, span.end_line, span.end_col)
            name = builtin_models.public_asyncio_name(callee.name)
            found = frame.unit.handed.setdefault(key, {}).setdefault(name, set())
            found.update(given)  # read once the session is done, never while it runs
            self.session.handed_coroutines.update(given)

    # --- units ------------------------------------------------------------------------------

    def invoke(self, function: FunctionValue, receiver: Value | None, args: list, kwargs: list, span: Span | None,
               frame: Frame, recorded: Value) -> Values:
        unit = self.unit_for(function, receiver, args, kwargs, frame)
        callee = recorded if recorded is function else function
        if unit is not None and unit.summary.is_generator:
            # The call only makes the generator: Python runs its body where it is iterated (``iterate``).
            self.record(frame, span, callee, None)
            made_at = (span.line, span.col, span.end_line, span.end_col) if span is not None else None
            return frozenset({GeneratorValue(unit.id, frame.unit.id, made_at)})
        self.record(frame, span, callee, unit)
        if unit is None:
            return ONLY_UNKNOWN
        summary = unit.summary
        if summary.is_async:
            site = (frame.unit.module.path, span.line, span.col, span.end_line, span.end_col) if span is not None else ("<call>", function.qualname)
            return frozenset({CoroutineValue(function, site, unit.id)})
        self.session.observed.add(("returns", unit.id))
        self._raised_by(unit, frame)
        return frozenset(unit.returns) if unit.returns else EMPTY

    def _runs_at_await(self, coroutine: CoroutineValue, unit: Unit, span: Span, frame: Frame) -> None:
        """A plain coroutine function's body runs where its coroutine is awaited. Awaited on another line than the call
        that made it (``pending = helper(x)``, then ``await pending``), the ``await`` is where its calls happen for the
        rules, and the call only made it. A step's coroutine stays at its call (MAF enters the step there), and so does
        one handed to a task (``gather``, ``create_task``: it is awaited as a task, not here)."""
        site = coroutine.site
        if isinstance(coroutine.callee, StepValue) or len(site) != 5 or site[1] == span.line:
            return
        # The flow moves it once the session is done (``Flow.site_calls``): by then it knows whether the coroutine
        # was also handed to a task, whatever order the analysis met the two in.
        frame.unit.awaited_elsewhere.add((site[0], site[1:], (span.line, span.col, span.end_line, span.end_col),
                                          coroutine, unit.id))

    def _raised_by(self, unit: Unit, frame: Frame | None) -> None:
        """What ``unit`` raises is raised where it ran (a call of a function, the ``await`` of a coroutine)."""
        self.session.observed.add(("raises", unit.id))
        if unit.raises and frame is not None:
            self.session.raised(frozenset(unit.raises), frame)

    def unit_for(self, function: FunctionValue, receiver: Value | None, args: list, kwargs: list, frame: Frame,
                 inject_context: bool = False) -> Unit | None:
        session = self.session
        summary = session.engine.functions.get((function.path, function.qualname))
        module = session.engine.modules_by_path.get(function.path)
        if summary is None or module is None:
            return None
        params = self._bind_arguments(function, summary, receiver, args, kwargs, frame, inject_context)
        key = (function, params, False)
        unit = session.units.get(key)
        if unit is None:
            existing = session.by_function.get(function, ())
            if len(existing) >= MAX_CONTEXTS or session.created >= MAX_UNITS:
                unit = self._widened(function, summary, module, params)
                if unit is None:
                    return None
            else:
                unit = session.new_unit(function, summary, module, params)
                unit.caller = frame.unit.id
        session.evaluate(unit)
        return unit

    def _widened(self, function: FunctionValue, summary: FunctionSummary, module: ModuleSummary,
                 params: tuple[Values, ...]) -> Unit | None:
        session = self.session
        wide = next((u for u in session.by_function.get(function, ()) if u.wide), None)
        if wide is None:
            if session.created >= MAX_UNITS:
                return None
            wide = session.new_unit(function, summary, module, params, wide=True)
            return wide
        merged = tuple(bounded(a | b) for a, b in zip(wide.params, params))
        if merged != wide.params:
            del session.units[(function, wide.params, True)]
            wide.params = merged
            session.units[(function, merged, True)] = wide
            session.evaluated.discard(wide.id)
            if wide in session.stack:  # it cannot run again now with the wider arguments: the next pass does
                session.stale = True
        return wide

    # --- arguments to parameters --------------------------------------------------------------

    def _bind_arguments(self, function: FunctionValue, summary: FunctionSummary, receiver: Value | None, args: list,
                        kwargs: list, frame: Frame, inject_context: bool) -> tuple[Values, ...]:
        params = summary.params
        bound, extra, spread_unknown = self._positional_arguments(params, receiver, args, frame)
        keywords = self._keyword_arguments(kwargs)
        result: list[Values] = []
        for position, param in enumerate(params):
            if param.kind == "vararg":
                result.append(self._varargs(function, extra, spread_unknown))
                continue
            if param.kind == "kwarg":
                result.append(self._kwargs(function, params, keywords))
                continue
            found = bound.get(param.name, set()) | keywords.get(param.name, set())
            if spread_unknown and param.kind in ("posonly", "normal") and param.name not in bound:
                found |= spread_unknown
            if not found:
                if inject_context and (param.name == "ctx" or _annotated_run_context(param)):
                    found = {ExternalValue("agent_framework.RunContext()")}
                elif param.default is not None:
                    found = set(self.session.read_cell(function, ("#default", param.name))) or {UNKNOWN}
                elif receiver is None and position == 0 and summary.class_qualname is not None:
                    found = {UNKNOWN}
            result.append(bounded(found) if found else EMPTY)
        return tuple(result)

    def _positional_arguments(self, params: tuple[Param, ...], receiver: Value | None, args: list,
                              frame: Frame) -> tuple[dict[str, set], list[Values], set]:
        """The positional parameters' values, the values past them, and the items of ``*items`` not exactly known."""
        positional = [p for p in params if p.kind in ("posonly", "normal")]
        bound: dict[str, set] = {}
        extra: list[Values] = []
        values = list(args)
        if receiver is not None:
            values.insert(0, frozenset({receiver}))
        index = 0
        spread_unknown: set = set()
        for value in values:
            if isinstance(value, tuple):  # ``*items``
                _, items = value
                exact = self.session.exact_items(items)
                if exact is None:
                    spread_unknown.update(self.iterate(items, frame))
                    index = len(positional) + 1
                    continue
            else:
                exact = [value]
            for item in exact:
                if index < len(positional):
                    bound.setdefault(positional[index].name, set()).update(item)
                else:
                    extra.append(item)
                index += 1
        return bound, extra, spread_unknown

    def _keyword_arguments(self, kwargs: list) -> dict[str, set]:
        keywords: dict[str, set] = {}
        for name, value in kwargs:
            if name == "**":
                for container in value:
                    if isinstance(container, ContainerValue) and container.kind == "dict":
                        for key in self.session.container_keys(container):
                            if isinstance(key, str):
                                keywords.setdefault(key, set()).update(self.session.read_cell(container, key))
                continue
            keywords.setdefault(name, set()).update(value)
        return keywords

    def _varargs(self, function: FunctionValue, extra: list[Values], spread_unknown: set) -> Values:
        # One tuple per set of arguments: ``run_each(t, plain, fetch)`` and ``run_each(t, plain)`` are two calls in
        # two contexts, as the function's other parameters are (MAX_CONTEXTS bounds them).
        groups = [*extra, frozenset(spread_unknown)] if spread_unknown else extra
        site = ("<args>", function.path, function.qualname, values_tag(groups))
        holder = ContainerValue("tuple", site, self.session.id, -1 if spread_unknown else len(extra))
        for position, item in enumerate(extra):
            self.session.write_cell(holder, ANY if spread_unknown else position, item, None, exact=not spread_unknown)
        if spread_unknown:
            self.session.write_cell(holder, ANY, frozenset(spread_unknown), None)
        return frozenset({holder})

    def _kwargs(self, function: FunctionValue, params: tuple[Param, ...], keywords: dict[str, set]) -> Values:
        extra = sorted(name for name in keywords if not any(p.name == name for p in params))
        # One holder per set of keywords and their values: ``@options(name="a")`` and ``@options(replay_key=k)`` stay
        # apart, and so do ``run_named(tool=plain)`` and ``run_named(tool=fetch)``.
        tag = values_tag([frozenset(keywords[name]) for name in extra])
        holder = ContainerValue("dict", ("<kwargs>", function.path, function.qualname, *extra, tag), self.session.id)
        for name in extra:
            self.session.write_cell(holder, name, frozenset(keywords[name]), None)
        return frozenset({holder})

    # --- iterating, awaiting, entering ----------------------------------------------------------

    def awaited(self, values: Values, frame: Frame | None = None, span: Span | None = None) -> Values:
        """What ``await`` of any of ``values`` gives; an instance's ``type(obj).__await__`` runs at ``span``."""
        found: set = set()
        for value in ordered(values):
            if isinstance(value, CoroutineValue):
                unit = self.session.engine.units.get(value.unit)
                if unit is not None:
                    self.session.observed.add(("returns", unit.id))
                    found.update(unit.returns)
                    self._raised_by(unit, frame)
                    if span is not None and frame is not None:
                        self._runs_at_await(value, unit, span, frame)
                else:
                    found.add(UNKNOWN)
            elif isinstance(value, ExternalValue):
                found.add(ExternalValue(f"{value.name}.await"))
            elif isinstance(value, ContainerValue) and value.kind == "gathered":
                found.add(value)
            elif isinstance(value, ContainerValue) and value.kind == builtin_models.AWAITED_ITEM:
                found.update(self.session.read_all_cells(value))  # ``await queue.get()``: an item put into it
            elif isinstance(value, InstanceValue) and frame is not None:
                # What ``__await__``'s iterator returns is not followed: the value is unknown, its calls are not.
                self.call(self.session.special_method(value, "__await__", frame), [], [], span, frame)
                found.add(UNKNOWN)
            else:
                found.add(UNKNOWN)
        return bounded(found) if found else EMPTY

    def iterate(self, values: Values, frame: Frame, span: Span | None = None, is_async: bool = False) -> Values:
        """What iterating any of ``values`` gives (``async for`` with ``is_async``); protocol methods run at ``span``."""
        session = self.session
        found: set = set()
        first, following = ("__aiter__", "__anext__") if is_async else ("__iter__", "__next__")
        for value in ordered(values):
            if isinstance(value, ContainerValue) and value.kind == "dict":
                found.update(dict_keys(session, value))  # ``for key in mapping``: its keys
            elif isinstance(value, ContainerValue):
                found.update(session.read_all_cells(value))
            elif isinstance(value, GeneratorValue):
                unit = session.engine.units.get(value.unit)
                session.observed.add(("yields", value.unit))
                found.update(unit.yields if unit is not None else ONLY_UNKNOWN)
                if unit is not None:
                    self.record_run(frame, span or frame.site, unit, value)
            elif isinstance(value, ClassValue) and not is_async and session.read_cell(value, ENUM_MEMBERS):
                found.update(session.read_cell(value, ENUM_ITERATION))  # ``for member in Color``: its members
            elif isinstance(value, InstanceValue):
                iterators = self.call(session.special_method(value, first, frame), [], [], span, frame)
                for iterator in iterators:
                    if isinstance(iterator, InstanceValue):
                        made = self.call(session.special_method(iterator, following, frame), [], [], span, frame)
                        found.update(self.awaited(made, frame, span) if is_async else made)
                    elif iterator is not UNKNOWN:
                        found.update(self.iterate(frozenset({iterator}), frame, span, is_async))
                    else:
                        found.add(UNKNOWN)
            else:
                found.add(UNKNOWN)
        return bounded(found) if found else EMPTY

    def enter(self, values: Values, frame: Frame, is_async: bool, span: Span | None = None) -> Values:
        """The value ``with``/``async with`` binds; an instance's ``__enter__``/``__aenter__`` runs at ``span``."""
        session = self.session
        found: set = set()
        for value in ordered(values):
            if isinstance(value, InstanceValue):
                entered = self.call(session.special_method(value, "__aenter__" if is_async else "__enter__", frame),
                                    [], [], span, frame)
                found.update(self.awaited(entered, frame, span) if is_async else entered)
            elif isinstance(value, ContextManagerValue):
                unit = session.engine.units.get(value.unit)
                session.observed.add(("yields", value.unit))
                found.update(unit.yields if unit is not None else ONLY_UNKNOWN)
                if unit is not None:  # the generator's body runs at the ``with``: up to its yield, then the rest at exit
                    self.record(frame, span, unit.function, unit)
            else:
                found.add(value)  # ``async with asyncio.TaskGroup() as tg``: the value the call made
        return bounded(found) if found else ONLY_UNKNOWN

    def exit(self, values: Values, frame: Frame, is_async: bool, span: Span | None = None) -> None:
        """The end of a ``with`` block: ``__exit__``/``__aexit__`` runs at ``span``, and what an exit stack holds."""
        session = self.session
        for value in ordered(values):
            if isinstance(value, InstanceValue):
                exited = self.call(session.special_method(value, "__aexit__" if is_async else "__exit__", frame),
                                   [ONLY_UNKNOWN, ONLY_UNKNOWN, ONLY_UNKNOWN], [], span, frame)
                if is_async:
                    self.awaited(exited, frame, span)
            elif isinstance(value, ContainerValue) and value.kind == builtin_models.EXIT_STACK:
                builtin_models.unwind(session, value, span, frame)


def _positional(args: list, index: int) -> Values:
    if index < len(args):
        value = args[index]
        return value[1] if isinstance(value, tuple) else value
    return EMPTY


def _annotated_run_context(param: Param) -> bool:
    annotation = param.annotation
    return isinstance(annotation, Ref) and annotation.dotted.rsplit(".", 1)[-1] == "RunContext"


_Caller = Callable[[Calls, Value, list, list, "Span | None", Frame], Values]

#: What calling each kind of value does (any other kind: unknown, and nothing runs).
_CALLERS: dict[type, _Caller] = {
    FunctionValue: Calls._call_function,
    BoundMethod: Calls._call_bound_method,
    ClassValue: Calls._instantiate,
    StepValue: Calls._call_step,
    StepFactoryValue: Calls._call_step_factory,
    ExternalValue: Calls._call_external,
    PartialValue: Calls._call_partial,
    InstanceValue: Calls._call_instance,
    BuiltinMethod: Calls._call_builtin_method,
    DescriptorValue: Calls._call_descriptor,
    ContainerValue: Calls._call_container,
}


def _surely_other(values: Values, wanted: Values) -> bool:
    """Whether every value of ``values`` is a constant that surely differs from every value of ``wanted`` (constants
    of one kind that differ; ``1 == 1.0 == True``, so numbers of two kinds may be equal)."""
    if not values or not wanted:
        return False
    for have in values:
        for want in wanted:
            if not (isinstance(have, ConstValue) and isinstance(want, ConstValue) and have.kind == want.kind
                    and have.kind != "float" and have.value != want.value):
                return False
    return True
