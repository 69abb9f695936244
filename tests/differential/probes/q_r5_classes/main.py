"""Classes around steps in agent-style application code: a class decorator registry and a class decorator that
adds a method, classmethod factories reading cls's table (a subclass's table on the subclass), a step held as a
class attribute (a plain function needs staticmethod), staticmethods called through self, an abstract property
read by a template method of the base, cooperative super() chains through mixins (super() follows the
instance's MRO), super(Class, self), singledispatchmethod dispatching on a subclass of the registered class,
a conditional property, __init_subclass__ storing a class keyword, a handler table in a class body, bound
methods stored on the instance by __init__, nested classes and a classmethod registry."""
import functools
from dataclasses import dataclass
from abc import ABC, abstractmethod

from agent_framework import step, workflow


@step
async def search(query: str) -> str:
    return "search:" + query


@step
async def summarize(text: str) -> str:
    return "summary:" + text


async def echo(query: str) -> str:
    return "echo:" + query


async def lowercase(text: str) -> str:
    return text.lower()


AGENTS: dict = {}


def agent(name: str):  # noqa: ANN201
    def register(cls):  # noqa: ANN001, ANN202
        AGENTS[name] = cls
        return cls
    return register


def with_summary(cls):  # noqa: ANN001, ANN201
    async def summarized(self, query: str) -> str:  # noqa: ANN001
        return await summarize(await self.run(query))
    cls.summarized = summarized
    return cls


@agent("research")
class ResearchAgent:
    async def run(self, query: str) -> str:
        return await search(query)


@agent("echo")
@with_summary
class EchoAgent:
    async def run(self, query: str) -> str:
        return await echo(query)


@agent("lower")
class LowerAgent:
    async def run(self, query: str) -> str:
        return await lowercase(query)

    async def summarized(self, query: str) -> str:
        return await lowercase(query)


class Pipeline:
    TOOLS = {"search": search, "echo": echo}

    def __init__(self, tool) -> None:  # noqa: ANN001
        self.tool = tool

    @classmethod
    def from_config(cls, config: dict) -> "Pipeline":
        return cls(cls.TOOLS[config["tool"]])

    def switch(self, name: str) -> "Pipeline":
        return type(self)(self.TOOLS[name])

    async def run(self, query: str) -> str:
        return await self.tool(query)


class OfflinePipeline(Pipeline):
    TOOLS = {"search": echo, "echo": echo}


class Searcher:
    backend = search

    async def run(self, query: str) -> str:
        return await self.backend(query)


class OfflineSearcher(Searcher):
    backend = staticmethod(echo)


class Tools:
    @staticmethod
    async def lookup(query: str) -> str:
        return await search(query)

    @staticmethod
    async def quiet(query: str) -> str:
        return await echo(query)

    async def best(self, query: str) -> str:
        return await self.lookup(query)

    async def calm(self, query: str) -> str:
        return await self.quiet(query)


class Processor(ABC):
    @property
    @abstractmethod
    def tool(self): ...  # noqa: ANN201

    async def process(self, query: str) -> str:
        cleaned = query.strip()
        return await self.tool(cleaned)


class SearchProcessor(Processor):
    @property
    def tool(self):  # noqa: ANN201
        return search


class EchoProcessor(Processor):
    @property
    def tool(self):  # noqa: ANN201
        return echo


class Base:
    async def handle(self, query: str) -> str:
        return query


class CacheMixin:
    async def handle(self, query: str) -> str:
        return await super().handle(query)  # type: ignore[misc]


class SearchMixin:
    async def handle(self, query: str) -> str:
        return await search(await super().handle(query))  # type: ignore[misc]


class Audited(CacheMixin, SearchMixin, Base):  # MRO: CacheMixin, SearchMixin, Base
    pass


class Cached(CacheMixin, Base):  # MRO: CacheMixin, Base
    pass


class Legacy(SearchMixin, Base):
    async def handle(self, query: str) -> str:
        return await super(SearchMixin, self).handle(query)  # skips SearchMixin: Base.handle


class Modern(SearchMixin, Base):
    async def handle(self, query: str) -> str:
        return await super(Modern, self).handle(query)  # SearchMixin.handle


class Query:
    pass


class UrgentQuery(Query):
    pass


class Note:
    pass


class Router:
    @functools.singledispatchmethod
    async def route(self, message: object, query: str) -> str:
        return await echo(query)

    @route.register
    async def _(self, message: Query, query: str) -> str:
        return await search(query)


class Client:
    def __init__(self, online: bool) -> None:
        self.online = online

    @property
    def runner(self):  # noqa: ANN201
        return search if self.online else echo


class Worker:
    tool = staticmethod(echo)

    def __init_subclass__(cls, tool=None, **kwargs) -> None:  # noqa: ANN001, ANN003
        super().__init_subclass__(**kwargs)
        if tool is not None:
            cls.tool = staticmethod(tool)

    async def work(self, query: str) -> str:
        return await self.tool(query)


class SearchWorker(Worker, tool=search):
    pass


class EchoWorker(Worker, tool=lowercase):
    pass


class Dispatcher:
    async def _search(self, query: str) -> str:
        return await search(query)

    async def _echo(self, query: str) -> str:
        return await echo(query)

    HANDLERS = {"search": _search, "echo": _echo}

    async def dispatch(self, kind: str, query: str) -> str:
        return await self.HANDLERS[kind](self, query)


class Session:
    def __init__(self, online: bool) -> None:
        self.send = self._send_online if online else self._send_offline

    async def _send_online(self, query: str) -> str:
        return await search(query)

    async def _send_offline(self, query: str) -> str:
        return await echo(query)


class Outer:
    class Inner:
        async def run(self, query: str) -> str:
            return await search(query)

    class Quiet:
        async def run(self, query: str) -> str:
            return await echo(query)


class Plugin:
    _plugins: dict = {}

    @classmethod
    def register(cls, name: str):  # noqa: ANN206
        def decorate(plugin):  # noqa: ANN001, ANN202
            cls._plugins[name] = plugin
            return plugin
        return decorate

    @classmethod
    def create(cls, name: str) -> "Plugin":
        return cls._plugins[name]()


@Plugin.register("search")
class SearchPlugin(Plugin):
    async def run(self, query: str) -> str:
        return await search(query)


@Plugin.register("echo")
class EchoPlugin(Plugin):
    async def run(self, query: str) -> str:
        return await echo(query)


def traced(cls):  # noqa: ANN001, ANN201
    class Traced(cls):
        async def run(self, query: str) -> str:
            return await summarize(await super().run(query))
    Traced.__name__ = cls.__name__
    return Traced


@traced
class TracedLower:
    async def run(self, query: str) -> str:
        return await lowercase(query)


class UntracedLower:
    async def run(self, query: str) -> str:
        return await lowercase(query)


DynamicSearch = type("DynamicSearch", (Searcher,), {"backend": staticmethod(lowercase)})


class Notifier:
    def __init__(self) -> None:
        self._hook = echo

    def set_hook(self, hook) -> None:  # noqa: ANN001
        self._hook = hook

    async def fire(self, query: str) -> str:
        return await self._hook(query)


@dataclass(frozen=True)
class Frozen:
    loud: bool

    def __post_init__(self) -> None:
        object.__setattr__(self, "runner", search if self.loud else echo)


class Configurable:
    def __init__(self, **options) -> None:  # noqa: ANN003
        for name, value in options.items():
            setattr(self, name, value)


@step
async def by_class_decorator_subclass(query: str) -> str:
    return await TracedLower().run(query)  # expect: STP002


@step
async def near_miss_class_decorator_subclass(query: str) -> str:
    return await UntracedLower().run(query)


@step
async def near_miss_three_argument_type(query: str) -> str:
    return await DynamicSearch().run(query)


@step
async def by_setter_method(query: str) -> str:
    notifier = Notifier()
    notifier.set_hook(summarize)
    return await notifier.fire(query)  # expect: STP002


@step
async def near_miss_setter_method(query: str) -> str:
    notifier = Notifier()
    notifier.set_hook(lowercase)
    return await notifier.fire(query)


@step
async def by_attribute_assigned_later(query: str) -> str:
    session = Session(online=False)
    session.send = search
    return await session.send(query)  # expect: STP001


@step
async def by_object_setattr(query: str) -> str:
    return await Frozen(loud=True).runner(query)  # expect: STP001


@step
async def near_miss_object_setattr(query: str) -> str:
    return await Frozen(loud=False).runner(query)


@step
async def by_setattr_options(query: str) -> str:
    return await Configurable(tool=search).tool(query)  # expect: STP001


@step
async def near_miss_setattr_options(query: str) -> str:
    return await Configurable(tool=echo).tool(query)


@step
async def by_class_decorator_registry(query: str) -> str:
    return await AGENTS["research"]().run(query)  # expect: STP002


@step
async def near_miss_class_decorator_registry(query: str) -> str:
    return await AGENTS["echo"]().run(query) + await AGENTS["lower"]().run(query)


@step
async def by_added_method(query: str) -> str:
    return await EchoAgent().summarized(query)  # expect: STP002


@step
async def near_miss_added_method(query: str) -> str:
    return await LowerAgent().summarized(query)


@step
async def by_classmethod_factory(query: str) -> str:
    return await Pipeline.from_config({"tool": "search"}).run(query)  # expect: STP002


@step
async def near_miss_classmethod_factory(query: str) -> str:
    return await Pipeline.from_config({"tool": "echo"}).run(query)


@step
async def near_miss_subclass_factory(query: str) -> str:
    return await OfflinePipeline.from_config({"tool": "search"}).run(query)


@step
async def by_switch_through_type(query: str) -> str:
    return await Pipeline(echo).switch("search").run(query)  # expect: STP002


@step
async def near_miss_switch_through_type(query: str) -> str:
    return await OfflinePipeline(echo).switch("search").run(query)


@step
async def by_class_attribute_step(query: str) -> str:
    return await Searcher().run(query)  # expect: STP002


@step
async def near_miss_class_attribute_override(query: str) -> str:
    return await OfflineSearcher().run(query)


@step
async def by_staticmethod_through_self(query: str) -> str:
    return await Tools().best(query)  # expect: STP002


@step
async def near_miss_staticmethod_through_self(query: str) -> str:
    return await Tools().calm(query)


@step
async def by_abstract_property(query: str) -> str:
    return await SearchProcessor().process(query)  # expect: STP002


@step
async def near_miss_abstract_property(query: str) -> str:
    return await EchoProcessor().process(query)


@step
async def by_mixin_chain(query: str) -> str:
    return await Audited().handle(query)  # expect: STP002


@step
async def near_miss_mixin_chain(query: str) -> str:
    return await Cached().handle(query)


@step
async def near_miss_two_argument_super(query: str) -> str:
    return await Legacy().handle(query)


@step
async def by_two_argument_super(query: str) -> str:
    return await Modern().handle(query)  # expect: STP002


@step
async def by_dispatch_on_subclass(query: str) -> str:
    return await Router().route(UrgentQuery(), query)  # expect: STP002


@step
async def near_miss_dispatch_on_subclass(query: str) -> str:
    return await Router().route(Note(), query)


@step
async def by_conditional_property(query: str) -> str:
    return await Client(online=True).runner(query)  # expect: STP001


@step
async def near_miss_conditional_property(query: str) -> str:
    return await Client(online=False).runner(query)


@step
async def by_subclass_keyword(query: str) -> str:
    return await SearchWorker().work(query)  # expect: STP002


@step
async def near_miss_subclass_keyword(query: str) -> str:
    return await EchoWorker().work(query) + await Worker().work(query)


@step
async def by_class_body_table(query: str) -> str:
    return await Dispatcher().dispatch("search", query)  # expect: STP002


@step
async def near_miss_class_body_table(query: str) -> str:
    return await Dispatcher().dispatch("echo", query)


@step
async def by_bound_method_attribute(query: str) -> str:
    return await Session(online=True).send(query)  # expect: STP002


@step
async def near_miss_bound_method_attribute(query: str) -> str:
    return await Session(online=False).send(query)


@step
async def by_nested_class(query: str) -> str:
    return await Outer.Inner().run(query)  # expect: STP002


@step
async def near_miss_nested_class(query: str) -> str:
    return await Outer.Quiet().run(query)


@step
async def by_classmethod_registry(query: str) -> str:
    return await Plugin.create("search").run(query)  # expect: STP002


@step
async def near_miss_classmethod_registry(query: str) -> str:
    return await Plugin.create("echo").run(query)


@step
async def near_miss_class_passed_around(query: str) -> str:
    handler = Searcher.backend
    return handler.__name__ + query


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_class_decorator_registry(mode), await near_miss_class_decorator_registry(mode),
        await by_added_method(mode), await near_miss_added_method(mode), await by_classmethod_factory(mode),
        await near_miss_classmethod_factory(mode), await near_miss_subclass_factory(mode),
        await by_switch_through_type(mode), await near_miss_switch_through_type(mode),
        await by_class_attribute_step(mode), await near_miss_class_attribute_override(mode),
        await by_staticmethod_through_self(mode), await near_miss_staticmethod_through_self(mode),
        await by_abstract_property(mode), await near_miss_abstract_property(mode), await by_mixin_chain(mode),
        await near_miss_mixin_chain(mode), await near_miss_two_argument_super(mode), await by_two_argument_super(mode),
        await by_dispatch_on_subclass(mode), await near_miss_dispatch_on_subclass(mode),
        await by_conditional_property(mode), await near_miss_conditional_property(mode),
        await by_subclass_keyword(mode), await near_miss_subclass_keyword(mode), await by_class_body_table(mode),
        await near_miss_class_body_table(mode), await by_bound_method_attribute(mode),
        await near_miss_bound_method_attribute(mode), await by_nested_class(mode), await near_miss_nested_class(mode),
        await by_classmethod_registry(mode), await near_miss_classmethod_registry(mode),
        await near_miss_class_passed_around(mode), await by_class_decorator_subclass(mode),
        await near_miss_class_decorator_subclass(mode), await near_miss_three_argument_type(mode),
        await by_setter_method(mode), await near_miss_setter_method(mode), await by_attribute_assigned_later(mode),
        await by_object_setattr(mode), await near_miss_object_setattr(mode), await by_setattr_options(mode),
        await near_miss_setattr_options(mode),
    ]
    return "|".join(parts)
