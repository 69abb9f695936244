"""Methods Python calls for you, in application code: a session's __aenter__/__aexit__, a pager's
__aiter__/__anext__, awaitable records (__await__), callable objects and decorator classes (__call__),
__getattr__ toolboxes, properties that hand back a coroutine, __post_init__, __init_subclass__
registries, __missing__ of a dict subclass, a module's __getattr__, property setters, InitVar fields handed to
__post_init__, __new__, the C3 method order, __slots__. Unknown (README, "What the analysis treats as unknown"): an
operator overload, an __await__ written as a generator, a module's __getattr__, an InitVar handed to
__post_init__, and __new__ (a property setter and a descriptor's __get__ are followed since)."""
from dataclasses import InitVar, dataclass, field

from agent_framework import step, workflow

from . import toolkit


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


async def plain(label: str) -> str:
    return "plain:" + label


class Session:
    def __init__(self, opener, closer) -> None:  # noqa: ANN001
        self.opener = opener
        self.closer = closer
        self.log: list = []

    async def __aenter__(self):  # noqa: ANN204
        self.log.append(await self.opener("open"))
        return self

    async def __aexit__(self, *exc) -> bool:  # noqa: ANN002
        self.log.append(await self.closer("close"))
        return False

    async def run(self, label: str) -> str:
        return await self.opener(label)


class Pager:
    def __init__(self, source, pages) -> None:  # noqa: ANN001
        self.source = source
        self.pages = list(pages)

    def __aiter__(self):  # noqa: ANN204
        return self

    async def __anext__(self) -> str:
        if not self.pages:
            raise StopAsyncIteration
        return await self.source(self.pages.pop(0))


class Cursor:
    def __init__(self, pager) -> None:  # noqa: ANN001
        self.pager = pager

    def __aiter__(self):  # noqa: ANN204
        return self.pager


class FetchPager(Pager):
    def __init__(self, pages) -> None:  # noqa: ANN001
        super().__init__(fetch, pages)


class Deferred:
    def __init__(self, runner, label: str) -> None:  # noqa: ANN001
        self.runner = runner
        self.label = label

    def __await__(self):  # noqa: ANN204
        return self.runner(self.label).__await__()


class Delegated(Deferred):
    def __await__(self):  # noqa: ANN204
        result = yield from self.runner(self.label).__await__()
        return result


class traced:  # noqa: N801 - a decorator class
    def __init__(self, function) -> None:  # noqa: ANN001
        self.function = function

    async def __call__(self, label: str) -> str:
        return await self.function(label)


@traced
async def traced_helper(label: str) -> str:
    return await fetch(label)


class Starter:
    def __init__(self, runner) -> None:  # noqa: ANN001
        self.runner = runner

    def __call__(self, label: str):  # noqa: ANN204 - a sync __call__ that makes the coroutine
        return self.runner(label)


class Toolbox:
    def __init__(self, **tools) -> None:  # noqa: ANN003
        self._tools = tools

    def __getattr__(self, name: str):  # noqa: ANN204
        try:
            return self._tools[name]
        except KeyError:
            raise AttributeError(name) from None


class Fallback:
    primary = staticmethod(plain)

    def __getattr__(self, name: str):  # noqa: ANN204
        return fetch


class Report:
    def __init__(self, runner, label: str) -> None:  # noqa: ANN001
        self.runner = runner
        self.label = label

    @property
    def pending(self):  # noqa: ANN201
        return self.runner(self.label)


@dataclass
class Job:
    label: str
    runner: object = plain
    pending: object = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.pending = self.runner(self.label)


PLUGINS: dict = {}


class Plugin:
    def __init_subclass__(cls, key: str = "", **kwargs) -> None:  # noqa: ANN003
        super().__init_subclass__(**kwargs)
        PLUGINS[key] = cls.handler


class FetchPlugin(Plugin, key="fetch"):
    handler = staticmethod(fetch)


class PlainPlugin(Plugin, key="plain"):
    handler = staticmethod(plain)


class Bound:
    def __init__(self, runner) -> None:  # noqa: ANN001
        self.runner = runner

    def __get__(self, obj, owner=None):  # noqa: ANN001, ANN204
        return self.runner


class Agent:
    act = Bound(fetch)
    rest = Bound(plain)


class Handlers(dict):
    def __missing__(self, key: str):  # noqa: ANN204
        return fetch


class Holder:
    def __init__(self) -> None:
        self._runner = plain

    @property
    def runner(self):  # noqa: ANN201
        return self._runner

    @runner.setter
    def runner(self, value) -> None:  # noqa: ANN001
        self._runner = value

    async def go(self, label: str) -> str:
        return await self._runner(label)


@dataclass
class Order:
    label: str
    runner: InitVar[object] = plain

    def __post_init__(self, runner) -> None:  # noqa: ANN001
        self.pending = runner(self.label)


class Spawn:
    def __new__(cls, runner, label: str):  # noqa: ANN001, ANN204
        self = super().__new__(cls)
        self.pending = runner(label)
        return self


class Root:
    async def run(self, label: str) -> str:
        return await plain(label)


class Left(Root):
    pass


class Right(Root):
    async def run(self, label: str) -> str:
        return await fetch(label)


class Diamond(Left, Right):  # C3: Diamond, Left, Right, Root -> Right.run
    pass


class LoudRoot:
    async def run(self, label: str) -> str:
        return await fetch(label)


class LoudLeft(LoudRoot):
    pass


class QuietRight(LoudRoot):
    async def run(self, label: str) -> str:
        return await plain(label)


class QuietDiamond(LoudLeft, QuietRight):  # C3: QuietRight.run comes before LoudRoot.run
    pass


class Slotted:
    __slots__ = ("runner",)

    def __init__(self, runner) -> None:  # noqa: ANN001
        self.runner = runner


class Pipe:
    def __init__(self, runner) -> None:  # noqa: ANN001
        self.runner = runner

    def __add__(self, label: str):  # noqa: ANN204
        return self.runner(label)


@step
async def by_aenter(label: str) -> str:
    async with Session(fetch, plain) as session:  # expect: STP002
        return label + session.log[0]


@step
async def by_aexit(label: str) -> str:
    session = Session(plain, fetch)
    async with session:  # expect: STP002
        out = label
    return out + session.log[-1]


@step
async def near_miss_session(label: str) -> str:
    async with Session(plain, plain) as session:
        return label + session.log[0]


@step
async def by_session_target(label: str) -> str:
    async with Session(plain, plain) as session:
        quiet = session.log[0]
    loud = Session(fetch, plain)
    async with loud as session:  # expect: STP002
        return quiet + await session.run(label)  # expect: STP002


@step
async def by_anext(label: str) -> str:
    out = []
    async for page in Pager(fetch, [label, label]):  # expect: STP002
        out.append(page)
    return "|".join(out)


@step
async def near_miss_anext(label: str) -> str:
    return "|".join([page async for page in Pager(plain, [label])])


@step
async def by_aiter_returning_another(label: str) -> str:
    return "|".join([page async for page in Cursor(FetchPager([label]))])  # expect: STP002


@step
async def by_await_dunder(label: str) -> str:
    return await Deferred(fetch, label)  # expect: STP002


@step
async def near_miss_await_dunder(label: str) -> str:
    return await Deferred(plain, label)


@step
async def by_await_yield_from(label: str) -> str:
    pending = Delegated(fetch, label)
    return await pending  # unknown: STP002


@step
async def by_decorator_class(label: str) -> str:
    return await traced_helper(label)  # expect: STP002


@step
async def near_miss_decorator_class(label: str) -> str:
    return await traced(plain)(label)


@step
async def by_sync_call(label: str) -> str:
    start = Starter(fetch)
    return await start(label)  # expect: STP002


@step
async def by_getattr_toolbox(label: str) -> str:
    tools = Toolbox(fetch=fetch, plain=plain)
    return await tools.fetch(label)  # expect: STP001


@step
async def near_miss_getattr_toolbox(label: str) -> str:
    tools = Toolbox(fetch=plain)
    return await tools.fetch(label)


@step
async def by_getattr_fallback(label: str) -> str:
    return await Fallback().missing(label)  # expect: STP001


@step
async def near_miss_getattr_fallback(label: str) -> str:
    return await Fallback().primary(label)


@step
async def by_property_coroutine(label: str) -> str:
    report = Report(fetch, label)
    return await report.pending  # expect: STP002


@step
async def near_miss_property_coroutine(label: str) -> str:
    return await Report(plain, label).pending


@step
async def by_post_init(label: str) -> str:
    job = Job(label, fetch)  # expect: STP002
    return await job.pending


@step
async def near_miss_post_init(label: str) -> str:
    return await Job(label).pending


@step
async def by_init_subclass(label: str) -> str:
    return await PLUGINS["fetch"](label)  # expect: STP001


@step
async def near_miss_init_subclass(label: str) -> str:
    return await PLUGINS["plain"](label)


@step
async def by_missing(label: str) -> str:
    return await Handlers(known=plain)["unknown"](label)  # expect: STP001


@step
async def near_miss_missing(label: str) -> str:
    return await Handlers(known=plain)["known"](label)


@step
async def by_module_getattr(label: str) -> str:
    return await toolkit.anything(label)  # unknown: STP001


@step
async def near_miss_module_getattr(label: str) -> str:
    return await toolkit.quiet(label)


@step
async def by_property_setter(label: str) -> str:
    holder = Holder()
    holder.runner = fetch
    return await holder.go(label)  # expect: STP002


@step
async def near_miss_property_setter(label: str) -> str:
    return await Holder().go(label)


@step
async def by_init_var(label: str) -> str:
    return await Order(label, fetch).pending  # unknown: STP002


@step
async def near_miss_init_var(label: str) -> str:
    return await Order(label).pending


@step
async def by_new(label: str) -> str:
    return await Spawn(fetch, label).pending  # unknown: STP002


@step
async def by_method_order(label: str) -> str:
    return await Diamond().run(label)  # expect: STP002


@step
async def near_miss_method_order(label: str) -> str:
    return await QuietDiamond().run(label)


@step
async def by_slots(label: str) -> str:
    return await Slotted(fetch).runner(label)  # expect: STP001


@step
async def near_miss_slots(label: str) -> str:
    return await Slotted(plain).runner(label)


@step
async def by_descriptor(label: str) -> str:
    return await Agent().act(label)  # expect: STP001


@step
async def near_miss_descriptor(label: str) -> str:
    return await Agent().rest(label)


@step
async def by_operator(label: str) -> str:
    return await (Pipe(fetch) + label)  # unknown: STP002


@step
async def near_miss_operator(label: str) -> str:
    return await (Pipe(plain) + label)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_aenter(mode), await by_aexit(mode), await near_miss_session(mode), await by_session_target(mode),
        await by_anext(mode), await near_miss_anext(mode), await by_aiter_returning_another(mode),
        await by_await_dunder(mode), await near_miss_await_dunder(mode), await by_await_yield_from(mode),
        await by_decorator_class(mode),
        await near_miss_decorator_class(mode), await by_sync_call(mode), await by_getattr_toolbox(mode),
        await near_miss_getattr_toolbox(mode), await by_getattr_fallback(mode),
        await near_miss_getattr_fallback(mode), await by_property_coroutine(mode),
        await near_miss_property_coroutine(mode), await by_post_init(mode), await near_miss_post_init(mode),
        await by_init_subclass(mode), await near_miss_init_subclass(mode), await by_descriptor(mode),
        await near_miss_descriptor(mode), await by_operator(mode), await near_miss_operator(mode),
        await by_missing(mode), await near_miss_missing(mode), await by_module_getattr(mode),
        await near_miss_module_getattr(mode), await by_property_setter(mode), await near_miss_property_setter(mode),
        await by_init_var(mode), await near_miss_init_var(mode), await by_new(mode), await by_method_order(mode),
        await near_miss_method_order(mode), await by_slots(mode), await near_miss_slots(mode),
    ]
    return "|".join(parts)
