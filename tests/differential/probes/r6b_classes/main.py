"""Classes deciding which override runs: super() chains under multiple inheritance (the instance's MRO picks
the next class), an override the MRO never selects, __set_name__ and __init_subclass__ hooks, a metaclass
__call__ that swaps the instance, a descriptor's __get__, typing.cast and isinstance narrowing, copy.copy of an
object holding a step, dataclasses.replace, and a class attribute rebound on a subclass. Unknown: a registry
filled by __set_name__, a metaclass __call__ handing back another class's instance. Left out as known
imprecisions: a metaclass swap to a plain class, a class attribute rebound after the class, an attribute
rewritten on a copy.copy clone or on the instance itself."""
import copy
import dataclasses
import typing
from dataclasses import dataclass

from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


@step
async def store(label: str) -> str:
    return "store:" + label


async def plain(label: str) -> str:
    return "plain:" + label


class Base:
    async def handle(self, label: str) -> str:
        return await plain(label)


class Loud(Base):
    async def handle(self, label: str) -> str:
        return await fetch(label)


class Relay(Base):
    async def handle(self, label: str) -> str:
        return await super().handle(label)


class LoudRelay(Relay, Loud):  # MRO: LoudRelay, Relay, Loud, Base: Relay's super() is Loud
    pass


class QuietRelay(Relay):  # MRO: QuietRelay, Relay, Base
    pass


class Quiet(Base):
    async def handle(self, label: str) -> str:
        return await plain(label)  # no super(): nothing after Quiet in the MRO runs


class QuietFirst(Quiet, Loud):  # Loud.handle is never selected
    pass


class Bind:
    def __init__(self, function) -> None:  # noqa: ANN001
        self.function = function

    def __set_name__(self, owner, name) -> None:  # noqa: ANN001
        owner.registry = {**getattr(owner, "registry", {}), name: self.function}


class Desk:
    go = Bind(store)
    idle = Bind(plain)


class Plugin:
    table: typing.ClassVar[dict] = {}

    def __init_subclass__(cls, runner=plain, **kwargs) -> None:  # noqa: ANN001, ANN003
        super().__init_subclass__(**kwargs)
        Plugin.table[cls.__name__] = runner


class LoudPlugin(Plugin, runner=fetch):
    pass


class QuietPlugin(Plugin):
    pass


class Swap(type):
    def __call__(cls, *args, **kwargs):  # noqa: ANN002, ANN003, ANN204
        return type.__call__(cls.replacement, *args, **kwargs)


class LoudImpl:
    async def handle(self, label: str) -> str:
        return await fetch(label)


class LoudFront(metaclass=Swap):
    replacement = LoudImpl

    async def handle(self, label: str) -> str:
        return await plain(label)


class Chooser:
    def __get__(self, obj, owner):  # noqa: ANN001, ANN204
        return plain if obj is None else fetch


class Holder:
    tool = Chooser()


class Tool:
    action = fetch

    async def act(self, label: str) -> str:
        return await self.action(label)


class QuietTool(Tool):
    action = staticmethod(plain)


class Worker:
    def __init__(self, function) -> None:  # noqa: ANN001
        self.function = function


@dataclass
class Stage:
    runner: typing.Any
    label: str = "x"


@step
async def by_mro_super(label: str) -> str:
    return await LoudRelay().handle(label)  # expect: STP002


@step
async def near_miss_mro_super(label: str) -> str:
    return await QuietRelay().handle(label)


@step
async def near_miss_unselected_override(label: str) -> str:
    return await QuietFirst().handle(label)


@step
async def by_set_name(label: str) -> str:
    return await Desk.registry["go"](label)  # unknown: STP001


@step
async def near_miss_set_name(label: str) -> str:
    return await Desk.registry["idle"](label)


@step
async def by_init_subclass(label: str) -> str:
    return await Plugin.table["LoudPlugin"](label)  # expect: STP001


@step
async def near_miss_init_subclass_default(label: str) -> str:
    return await Plugin.table["QuietPlugin"](label)


@step
async def by_metaclass_call(label: str) -> str:
    return await LoudFront().handle(label)  # unknown: STP002


@step
async def by_descriptor_instance(label: str) -> str:
    return await Holder().tool(label)  # expect: STP001


@step
async def near_miss_descriptor_class(label: str) -> str:
    return await Holder.tool(label)


@step
async def near_miss_subclass_attribute(label: str) -> str:
    return await QuietTool().act(label)


@step
async def by_base_attribute(label: str) -> str:
    return await Tool().act(label)  # expect: STP002


@step
async def by_cast(label: str) -> str:
    runner = typing.cast(typing.Callable[[str], typing.Awaitable[str]], fetch)
    return await runner(label)  # expect: STP001


@step
async def near_miss_isinstance(label: str) -> str:
    item: Base = QuietRelay()
    if isinstance(item, Loud):
        return await item.handle(label)
    return label


@step
async def by_isinstance(label: str) -> str:
    for item in (Quiet(), Loud()):
        if isinstance(item, Loud):
            return await item.handle(label)  # expect: STP002
    return label


@step
async def by_copy_original(label: str) -> str:
    original = Worker(fetch)
    clone = copy.copy(original)
    clone.function = plain
    return await original.function(label)  # expect: STP001


@step
async def near_miss_replace(label: str) -> str:
    return await dataclasses.replace(Stage(fetch), runner=plain).runner(label)


@step
async def by_replace_kept(label: str) -> str:
    return await dataclasses.replace(Stage(store), label="y").runner(label)  # expect: STP001


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_mro_super(mode), await near_miss_mro_super(mode), await near_miss_unselected_override(mode),
        await by_set_name(mode), await near_miss_set_name(mode), await by_init_subclass(mode),
        await near_miss_init_subclass_default(mode), await by_metaclass_call(mode), await by_descriptor_instance(mode),
        await near_miss_descriptor_class(mode), await near_miss_subclass_attribute(mode),
        await by_base_attribute(mode), await by_cast(mode), await near_miss_isinstance(mode),
        await by_isinstance(mode), await by_copy_original(mode), await near_miss_replace(mode),
        await by_replace_kept(mode),
    ]
    return "|".join(parts)
