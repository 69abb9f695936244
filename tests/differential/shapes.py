"""The shapes programs are composed of, one function each, tagged with the family they exercise.

A shape writes definitions (``b.define``) and statements of an outer step's body (``b.body``,
where ``mode: str`` and ``out: list`` are in scope) or of the workflow's (``b.in_flow``, with
``parts``). Every statement it writes runs in some run (branches test ``mode``, loops run at
least once) and every coroutine it makes is awaited, so the trace sees every call it wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from differential.generator import Builder


@dataclass(frozen=True)
class Shape:
    family: str
    build: Callable[["Builder"], None]


SHAPES: dict[str, Shape] = {}


def shape(family: str) -> Callable[[Callable[["Builder"], None]], Callable[["Builder"], None]]:
    def register(build: Callable[["Builder"], None]) -> Callable[["Builder"], None]:
        SHAPES[build.__name__] = Shape(family, build)
        return build

    return register


def _step_and_arg(b: Builder, home: str = "main", job: bool | None = None) -> tuple[str, str]:
    inner = b.step(job=job)
    return b.ref(inner.name, home), b.arg(inner, home)


# --- imports -------------------------------------------------------------------------------


@shape("imports")
def direct_call(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.body([f"out.append(await {callee}({arg}))"])


@shape("imports")
def import_in_body(b: Builder) -> None:
    inner = b.step(job=False)
    alias = f"local_{inner.name}_{b.uid()}"
    b.body([f"from {b.package}.tools import {inner.name} as {alias}", f"out.append(await {alias}(mode))"])


@shape("imports")
def helper_module_chain(b: Builder) -> None:
    """A helper in tools that calls a step: STP002 through another module."""
    inner = b.step()
    helper = f"run_{inner.name}_{b.uid()}"
    b.define("tools", [f"async def {helper}(v):", f"    return await {inner.name}({'Job(v)' if inner.takes_job else 'v'})"])
    b.body([f"out.append(await {b.ref(helper, 'main')}(mode))"])


@shape("imports")
def step_calls_step_in_tools(b: Builder) -> None:
    """A step of tools that calls another step: nesting inside the callee module, entered from main."""
    inner = b.step(job=False)
    outer = f"wrap_{inner.name}_{b.uid()}"
    b.define("tools", ["@step", f"async def {outer}(x: str) -> str:", f"    return await {inner.name}(x)"])
    b.in_flow([f"parts.append(await {b.ref(outer, 'main')}(mode))"])


# --- branches and loops --------------------------------------------------------------------


@shape("branches and loops")
def branch_on_mode(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    plain = b.ref(b.plain, "main")
    b.body(['if mode == "a":', f"    out.append(await {callee}({arg}))", "else:", f"    out.append(await {plain}(mode))"])


@shape("branches and loops")
def loop_over_inputs(b: Builder) -> None:
    inner = b.step()
    callee = b.ref(inner.name, "main")
    arg = b.arg(inner, "main", "label")
    b.body(["for label in (mode, mode + mode):", f"    out.append(await {callee}({arg}))"])


@shape("branches and loops")
def while_loop(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.body(["rounds = 0", "while rounds < 2:", "    rounds += 1", f"    out.append(await {callee}({arg}))"])


# --- Python's data model: containers, records, attributes, factories -------------------------


@shape("data model")
def dict_value(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    table = f"HANDLERS_{b.uid()}"
    b.define("main", [f'{table} = {{"run": {callee}, "skip": {b.ref(b.plain, "main")}}}'])
    b.body([f'out.append(await {table}["run"]({arg}))'])


@shape("data model")
def list_index(b: Builder) -> None:
    home = b.home()
    inner = b.step()
    pipeline = f"PIPELINE_{b.uid()}"
    kind, index = b.rng.choice((("[", "-1"), ("(", "1"), ("[", "1")))
    close = "]" if kind == "[" else ")"
    b.define(home, [f"{pipeline} = {kind}{b.ref(b.plain, home)}, {b.ref(inner.name, home)}{close}"])
    b.body([f"out.append(await {b.ref(pipeline, 'main', home)}[{index}]({b.arg(inner)}))"])


@shape("data model")
def namedtuple_record(b: Builder) -> None:
    home = b.home()
    inner = b.step()
    n = b.uid()
    b.define(home, [f'Route{n} = namedtuple("Route{n}", "name handler")',
                    f'ROUTE_{n} = Route{n}("r", {b.ref(inner.name, home)})'])
    b.body([f"out.append(await {b.ref(f'ROUTE_{n}', 'main', home)}.handler({b.arg(inner)}))"])


@shape("data model")
def dataclass_record(b: Builder) -> None:
    home = b.home()
    inner = b.step()
    n = b.uid()
    b.define(home, ["@dataclass", f"class Spec{n}:", "    name: str", "    handler: object", "",
                    f'SPEC_{n} = Spec{n}("s", {b.ref(inner.name, home)})'])
    b.body([f"out.append(await {b.ref(f'SPEC_{n}', 'main', home)}.handler({b.arg(inner)}))"])


@shape("data model")
def enum_member(b: Builder) -> None:
    home = b.home()
    inner = b.step()
    n = b.uid()
    b.define(home, [f"class Op{n}(enum.Enum):", f"    RUN = {b.ref(inner.name, home)}", '    IDLE = "idle"'])
    access = b.rng.choice((f"Op{n}.RUN.value", f'Op{n}["RUN"].value'))
    b.body([f"out.append(await {b.ref(f'Op{n}', 'main', home)}{access[len(f'Op{n}'):]}({b.arg(inner)}))"])


@shape("data model")
def instance_attribute(b: Builder) -> None:
    home = b.home()
    n = b.uid()
    b.define(home, [f"class Holder{n}:", "    def __init__(self, fn):", "        self.fn = fn"])
    callee, arg = _step_and_arg(b)
    b.body([f"holder_{n} = {b.ref(f'Holder{n}', 'main', home)}({callee})", f"out.append(await holder_{n}.fn({arg}))"])


@shape("data model")
def class_attribute(b: Builder) -> None:
    home = b.home()
    inner = b.step()
    n = b.uid()
    b.define(home, [f"class Service{n}:", f"    handler = {b.ref(inner.name, home)}"])
    cls = b.ref(f"Service{n}", "main", home)
    owner = b.rng.choice((cls, f"{cls}()"))
    b.body([f"out.append(await {owner}.handler({b.arg(inner)}))"])


@shape("data model")
def factory_return(b: Builder) -> None:
    home = b.home()
    inner = b.step()
    factory = f"make_handler_{b.uid()}"
    b.define(home, [f"def {factory}():", f"    return {b.ref(inner.name, home)}"])
    b.body([f"out.append(await {b.ref(factory, 'main', home)}()({b.arg(inner)}))"])


@shape("data model")
def module_lambda(b: Builder) -> None:
    home = b.home()
    inner = b.step(job=False)
    name = f"CALL_{b.uid()}"
    b.define(home, [f"{name} = lambda v: {b.ref(inner.name, home)}(v)"])
    b.body([f"out.append(await {b.ref(name, 'main', home)}(mode))"])


@shape("data model")
def lambda_in_body(b: Builder) -> None:
    callee, _ = _step_and_arg(b, job=False)
    n = b.uid()
    b.body([f"call_{n} = lambda v: {callee}(v)", f"out.append(await call_{n}(mode))"])


@shape("data model")
def nested_function(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    n = b.uid()
    b.body([f"async def local_{n}():", f"    return await {callee}({arg})", f"out.append(await local_{n}())"])


# --- protocol methods: what Python calls for you -------------------------------------------


def _protocol_class(b: Builder, lines: list[str], use: Callable[[Callable[[str], str], str], list[str]]) -> None:
    """Classes whose methods Python calls implicitly; *use* gets a namer (``"Child{n}"``) and the step's argument."""
    home = b.home()
    inner = b.step()
    n = b.uid()
    value = f"{b.ref('Job', home)}(self.v)" if inner.takes_job else "self.v"
    b.define(home, [line.format(n=n, step=b.ref(inner.name, home), value=value) for line in lines])
    b.body(use(lambda template: b.ref(template.format(n=n), "main", home), b.arg(inner)))


def _holding(name: str) -> list[str]:
    """A class whose instances hold the value (``self.v``) they pass to the step."""
    return [f"class {name}:", "    def __init__(self, v):", "        self.v = v"]


@shape("protocol methods")
def call_dunder(b: Builder) -> None:
    _protocol_class(b, [*_holding("Runner{n}"), "    async def __call__(self):", "        return await {step}({value})"],
                    lambda ref, arg: [f"out.append(await {ref('Runner{n}')}(mode)())"])


@shape("protocol methods")
def async_context_manager(b: Builder) -> None:
    _protocol_class(b, [*_holding("Session{n}"), "    async def __aenter__(self):", "        return await {step}({value})",
                        "    async def __aexit__(self, *exc):", "        return False"],
                    lambda ref, arg: [f"async with {ref('Session{n}')}(mode) as got:", "    out.append(got)"])


@shape("protocol methods")
def async_iterator(b: Builder) -> None:
    _protocol_class(b, [*_holding("Stream{n}"), "        self.done = False",
                        "    def __aiter__(self):", "        return self", "    async def __anext__(self):",
                        "        if self.done:", "            raise StopAsyncIteration", "        self.done = True",
                        "        return await {step}({value})"],
                    lambda ref, arg: [f"async for item in {ref('Stream{n}')}(mode):", "    out.append(item)"])


@shape("protocol methods")
def await_dunder(b: Builder) -> None:
    _protocol_class(b, [*_holding("Pending{n}"), "    def __await__(self):", "        return {step}({value}).__await__()"],
                    lambda ref, arg: [f"out.append(await {ref('Pending{n}')}(mode))"])


@shape("protocol methods")
def getattr_dunder(b: Builder) -> None:
    _protocol_class(b, [*_holding("Proxy{n}"), "    def __getattr__(self, name):", "        return {step}"],
                    lambda ref, arg: [f"proxy = {ref('Proxy{n}')}(mode)", f"out.append(await proxy.anything({arg}))"])


@shape("protocol methods")
def property_returns_coroutine(b: Builder) -> None:
    _protocol_class(b, [*_holding("Box{n}"), "    @property", "    def pending(self):", "        return {step}({value})"],
                    lambda ref, arg: [f"out.append(await {ref('Box{n}')}(mode).pending)"])


BASE_CLASS = [*_holding("Base{n}"), "    async def run(self):", "        return await {step}({value})", ""]


@shape("protocol methods")
def inherited_method(b: Builder) -> None:
    _protocol_class(b, [*BASE_CLASS, "class Child{n}(Base{n}):", "    pass"],
                    lambda ref, arg: [f"out.append(await {ref('Child{n}')}(mode).run())"])


@shape("protocol methods")
def super_call(b: Builder) -> None:
    _protocol_class(b, [*BASE_CLASS, "class Loud{n}(Base{n}):", "    async def run(self):", "        return (await super().run()).upper()"],
                    lambda ref, arg: [f"out.append(await {ref('Loud{n}')}(mode).run())"])


@shape("near miss")
def overridden_method(b: Builder) -> None:
    _protocol_class(b, [*BASE_CLASS, "class Quiet{n}(Base{n}):", "    async def run(self):", "        return self.v"],
                    lambda ref, arg: [f"out.append(await {ref('Quiet{n}')}(mode).run())"])


# --- pattern matching ----------------------------------------------------------------------


@shape("pattern matching")
def match_literal_selects(b: Builder) -> None:
    callee, arg = _step_and_arg(b, job=False)
    n = b.uid()
    b.body(["match mode:", '    case "a":', f"        chosen_{n} = {callee}", "    case _:",
            f"        chosen_{n} = {b.ref(b.plain, 'main')}", f"out.append(await chosen_{n}({arg}))"])


@shape("pattern matching")
def match_sequence(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    form = b.rng.choice(("(fn, arg)", "[fn, arg]", "[fn, *rest]"))
    call = "fn(arg)" if "arg" in form else f"fn({arg})"
    b.body([f"match ({callee}, {arg}):", f"    case {form}:", f"        out.append(await {call})"])


@shape("pattern matching")
def match_mapping(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.body([f'match {{"handler": {callee}, "x": 1}}:', '    case {"handler": fn, **others}:',
            f"        out.append(await fn({arg}))"])


@shape("pattern matching")
def match_class(b: Builder) -> None:
    home = b.home()
    n = b.uid()
    b.define(home, ["@dataclass", f"class Task{n}:", "    handler: object", "    label: str"])
    callee, arg = _step_and_arg(b)
    cls = b.ref(f"Task{n}", "main", home)
    pattern = b.rng.choice((f"{cls}(handler=fn)", f"{cls}(fn, _)", f"{cls}(handler=fn) as task"))
    b.body([f'match {cls}({callee}, "t"):', f"    case {pattern}:", f"        out.append(await fn({arg}))"])


# --- the standard library's higher-order functions ----------------------------------------


@shape("stdlib higher-order")
def functools_partial(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    n = b.uid()
    b.body([f"bound_{n} = functools.partial({callee}, {arg})", f"out.append(await bound_{n}())"])


@shape("stdlib higher-order")
def functools_reduce(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.body([f"for pending in functools.reduce(lambda acc, fn: acc + [fn({arg})], [{callee}], []):",
            "    out.append(await pending)"])


@shape("stdlib higher-order")
def itertools_starmap(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.body([f"for pending in itertools.starmap({callee}, [({arg},)]):", "    out.append(await pending)"])


@shape("stdlib higher-order")
def builtin_map(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.body([f"for pending in map({callee}, [{arg}]):", "    out.append(await pending)"])


@shape("stdlib higher-order")
def operator_call(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    n = b.uid()
    form = b.rng.choice((f"operator.call({callee}, {arg})",
                         f'operator.itemgetter("run")({{"run": {callee}}})({arg})'))
    b.body([f"pending_{n} = {form}", f"out.append(await pending_{n})"])


@shape("stdlib higher-order")
def exit_stack_context(b: Builder) -> None:
    home = b.home()
    inner = b.step()
    n = b.uid()
    value = f"{b.ref('Job', home)}(self.v)" if inner.takes_job else "self.v"
    b.define(home, [f"class Lease{n}:", "    def __init__(self, v):", "        self.v = v",
                    "    async def __aenter__(self):", f"        return await {b.ref(inner.name, home)}({value})",
                    "    async def __aexit__(self, *exc):", "        return False"])
    b.body(["async with contextlib.AsyncExitStack() as stack:",
            f"    out.append(await stack.enter_async_context({b.ref(f'Lease{n}', 'main', home)}(mode)))"])


@shape("stdlib higher-order")
def exit_stack_callback(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.body(["async with contextlib.AsyncExitStack() as stack:", f"    stack.push_async_callback({callee}, {arg})"])


# --- asyncio: tasks (STP020 where the step's argument has no fingerprint) -----------------


@shape("concurrency")
def gather_in_step(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.body([f"out.extend(await asyncio.gather({callee}({arg}), {callee}({arg})))"])


@shape("concurrency")
def helper_coroutine_awaited_later(b: Builder) -> None:
    """A plain coroutine function's coroutine made on one line and awaited, or handed to a task, on another: the
    helper's body (and the step it calls) runs at the ``await``, or where a task's coroutine was made."""
    inner = b.step()
    name = f"later_{inner.name}_{b.uid()}"
    b.define("tools", [f"async def {name}(v):", f"    return await {inner.name}({'Job(v)' if inner.takes_job else 'v'})"])
    helper, n = b.ref(name, "main"), b.uid()
    b.body(b.rng.choice((
        [f"pending_{n} = {helper}(mode)", f"out.append(await pending_{n})"],
        [f"for pending_{n} in map({helper}, [mode]):", f"    out.append(await pending_{n})"],
        [f"pending_{n} = [{helper}(mode)]", f"out.extend(await asyncio.gather(*pending_{n}))"],
        [f"pending_{n} = {helper}(mode)", f"task_{n} = asyncio.ensure_future(pending_{n})", f"out.append(await task_{n})"],
    )))


@shape("concurrency")
def gather_in_workflow(b: Builder) -> None:
    inner = b.step()
    callee, arg = b.ref(inner.name, "main"), b.arg(inner)
    b.in_flow([f"parts.extend(await asyncio.gather(*[{callee}({arg}) for _ in range(2)]))"])


@shape("concurrency")
def create_task_in_step(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    n = b.uid()
    b.body([f"task_{n} = asyncio.create_task({callee}({arg}))", f"out.append(await task_{n})"])


@shape("concurrency")
def task_group_in_workflow(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    n = b.uid()
    b.in_flow(["async with asyncio.TaskGroup() as group:", f"    task_{n} = group.create_task({callee}({arg}))",
               f"parts.append(task_{n}.result())"])


@shape("concurrency")
def as_completed_in_workflow(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.in_flow([f"for finished in asyncio.as_completed([{callee}({arg})]):", "    parts.append(await finished)"])


@shape("concurrency")
def wait_for_in_workflow(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.in_flow([f"parts.append(await asyncio.wait_for({callee}({arg}), 5))"])


@shape("concurrency")
def gathered_helper(b: Builder) -> None:
    home = b.home()
    inner = b.step()
    helper = f"gathered_{b.uid()}"
    value = f"{b.ref('Job', home)}(v)" if inner.takes_job else "v"
    b.define(home, [f"async def {helper}(v):", f"    return await {b.ref(inner.name, home)}({value})"])
    b.in_flow([f"parts.extend(await asyncio.gather({b.ref(helper, 'main', home)}(mode)))"])


# --- precision: keep apart what Python keeps apart -----------------------------------------


@shape("precision: context")
def forwarding_helper(b: Builder) -> None:
    home = b.home()
    inner = b.step()
    helper = f"apply_{b.uid()}"
    b.define(home, [f"async def {helper}(fn, v):", "    return await fn(v)"])
    forward = b.ref(helper, "main", home)
    b.body([f"out.append(await {forward}({b.ref(b.plain, 'main')}, mode))"])
    b.in_flow([f"parts.append(await {forward}({b.ref(inner.name, 'main')}, {b.arg(inner)}))"])


@shape("precision: instances")
def two_instances(b: Builder) -> None:
    home = b.home()
    inner = b.step()
    n = b.uid()
    b.define(home, [f"class Worker{n}:", "    def __init__(self, fn):", "        self.fn = fn",
                    "    async def run(self, v):", "        return await self.fn(v)", "",
                    f"LOUD_{n} = Worker{n}({b.ref(inner.name, home)})", f"QUIET_{n} = Worker{n}({b.ref(b.plain, home)})"])
    b.body([f"out.append(await {b.ref(f'QUIET_{n}', 'main', home)}.run({b.arg(inner)}))"])
    b.in_flow([f"parts.append(await {b.ref(f'LOUD_{n}', 'main', home)}.run({b.arg(inner)}))"])


DICT_FORMS = (
    ("{{1: {plain}, '1': {step}}}", "[1]"),
    ("{{True: {plain}, None: {step}}}", "[True]"),
    ("{{(1, 2): {plain}, (2, 1): {step}}}", "[(1, 2)]"),
    ("{{1.5: {plain}, 2.5: {step}}}", "[1.5]"),
    ("{{b'k': {plain}, 'k': {step}}}", "[b'k']"),
    ("dict(run={plain}, stop={step})", "['run']"),
    ("{{'run': {step}, **{{'run': {plain}}}}}", "['run']"),
    ("{{**{{'run': {step}}}, 'run': {plain}}}", "['run']"),
    ("{{name: fn for name, fn in [('run', {plain}), ('stop', {step})]}}", "['run']"),
)


@shape("precision: dict keys")
def dict_keys_apart(b: Builder) -> None:
    inner = b.step()
    n = b.uid()
    built, index = b.rng.choice(DICT_FORMS)
    table = built.format(plain=b.ref(b.plain, "main"), step=b.ref(inner.name, "main"))
    b.define("main", [f"TABLE_{n} = {table}"])
    b.body([f"out.append(await TABLE_{n}{index}({b.arg(inner)}))"])


@shape("precision: dict keys")
def dict_update_overrides(b: Builder) -> None:
    inner = b.step()
    n = b.uid()
    b.body([f"table_{n} = {{'run': {b.ref(inner.name, 'main')}}}", f"table_{n}.update(run={b.ref(b.plain, 'main')})",
            f"out.append(await table_{n}['run']({b.arg(inner)}))"])


@shape("precision: dict keys")
def index_forms(b: Builder) -> None:
    inner = b.step()
    n = b.uid()
    form = b.rng.choice(("[0]", "[-2]", "[1:][0]", "[::-1][1]"))
    b.define("main", [f"STAGES_{n} = ({b.ref(b.plain, 'main')}, {b.ref(inner.name, 'main')})"])
    b.body([f"out.append(await STAGES_{n}{form}({b.arg(inner)}))"])


# --- generators: a generator's body runs where it is iterated ------------------------------


def _producer(b: Builder, home: str, inner, n: int) -> str:  # noqa: ANN001 - an InnerStep
    """A generator function in *home* that yields a call of *inner*; the expression naming it from main."""
    value = f"{b.ref('Job', home)}(v)" if inner.takes_job else "v"
    b.define(home, [f"def produce_{n}(v):", f"    yield {b.ref(inner.name, home)}({value})"])
    return b.ref(f"produce_{n}", "main", home)


@shape("generators")
def generator_consumed_later(b: Builder) -> None:
    home, inner, n = b.home(), b.step(), b.uid()
    producer = _producer(b, home, inner, n)
    consume = b.rng.choice((
        [f"for pending in rows_{n}:", "    out.append(await pending)"],
        [f"pending_{n} = list(rows_{n})", f"out.extend([await p for p in pending_{n}])"],
        [f"pending_{n} = next(rows_{n})", f"out.append(await pending_{n})"],
        [f"out.extend([await p for p in rows_{n}])"],
    ))
    b.body([f"rows_{n} = {producer}(mode)", *consume])


@shape("generators")
def async_generator_in_step(b: Builder) -> None:
    home, inner, n = b.home(), b.step(), b.uid()
    value = f"{b.ref('Job', home)}(v)" if inner.takes_job else "v"
    b.define(home, [f"async def stream_{n}(v):", f"    yield await {b.ref(inner.name, home)}({value})"])
    stream = b.ref(f"stream_{n}", "main", home)
    b.body(b.rng.choice(([f"async for item in {stream}(mode):", "    out.append(item)"],
                         [f"out.extend([item async for item in {stream}(mode)])"])))


@shape("near miss")
def generator_run_by_the_workflow(b: Builder) -> None:
    """Made in a step's body, iterated by the workflow: the step it yields is not nested."""
    home, inner, n = b.home(), b.step(), b.uid()
    producer = _producer(b, home, inner, n)
    b.define("main", [f"LATER_{n}: list = []"])
    b.body([f"LATER_{n}.append({producer}(mode))"])
    b.in_flow([f"for pending in LATER_{n}.pop():", "    parts.append(await pending)"])


# --- the standard library: dispatch and bound callables --------------------------------------


@shape("stdlib higher-order")
def operator_methodcaller(b: Builder) -> None:
    _protocol_class(b, [*_holding("Agent{n}"), "    async def act(self, suffix):", "        return await {step}({value})",
                        "    async def idle(self, suffix):", "        return suffix"],
                    lambda ref, arg: [f"out.append(await operator.methodcaller('act', '!')({ref('Agent{n}')}(mode)))",
                                      f"out.append(await operator.methodcaller('idle', '!')({ref('Agent{n}')}(mode)))"])


@shape("stdlib higher-order")
def functools_partialmethod(b: Builder) -> None:
    _protocol_class(b, [*_holding("Client{n}"), "    async def _send(self, kind):", "        return await {step}({value})",
                        "    send_fast = functools.partialmethod(_send, 'fast')"],
                    lambda ref, arg: [f"out.append(await {ref('Client{n}')}(mode).send_fast())"])


@shape("stdlib higher-order")
def functools_singledispatch(b: Builder) -> None:
    home, inner, n = b.home(), b.step(), b.uid()
    value = f"{b.ref('Job', home)}(v)" if inner.takes_job else "v"
    b.define(home, ["@functools.singledispatch", f"async def handle_{n}(item, v):", "    return 'default'", "",
                    f"@handle_{n}.register", "async def _(item: int, v):", f"    return await {b.ref(inner.name, home)}({value})",
                    "", f"@handle_{n}.register(str)", "async def _(item, v):", "    return 'text'"])
    handle = b.ref(f"handle_{n}", "main", home)
    b.body([f"out.append(await {handle}(1, mode))", f"out.append(await {handle}('one', mode))"])


@shape("stdlib higher-order")
def defaultdict_factory(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    n = b.uid()
    b.body([f"handlers_{n} = collections.defaultdict(lambda: {callee})", f"out.append(await handlers_{n}[mode]({arg}))"])


# --- near misses ---------------------------------------------------------------------------


@shape("near miss")
def plain_function_with_step_name(b: Builder) -> None:
    inner = b.step()
    if f"async def {inner.name}(" not in "\n".join(line.text for line in b.defs["extra"]):
        b.define("extra", [f"async def {inner.name}(x) -> str:", '    return f"extra:{x}"'])
    idiom = b.rng.choice(("module-relative", "module-alias", "dotted"))
    b.body([f"out.append(await {b.ref(inner.name, 'main', 'extra', idiom)}(mode))"])


@shape("near miss")
def step_passed_not_called(b: Builder) -> None:
    inner = b.step()
    helper = f"describe_{b.uid()}"
    b.define("main", [f"def {helper}(fn):", "    return fn.name"])
    b.body([f"out.append({helper}({b.ref(inner.name, 'main')}))"])


@shape("near miss")
def wrapped_inline(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.body([f"out.append(await {callee}.__wrapped__({arg}))"])


@shape("near miss")
def dead_nested_function(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    n = b.uid()
    b.body([f"async def never_{n}():", f"    return await {callee}({arg})", f"out.append(never_{n}.__name__)"])


@shape("near miss")
def unreachable_after_raise(b: Builder) -> None:
    callee, arg = _step_and_arg(b)
    b.body(["try:", '    raise LookupError("skip")', f"    out.append(await {callee}({arg}))", "except LookupError:",
            "    out.append('skipped')"])
