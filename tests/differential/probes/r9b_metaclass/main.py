"""Class-machinery dispatch: a metaclass whose __new__ registers plugin classes by key (given as a class keyword
or a class attribute) and a classmethod instantiating from that registry, a metaclass __getattr__ resolving
unknown class attributes through a command table (a step, or a plain function), a decorator-descriptor whose
__set_name__ records event routes in the owner that dispatch() resolves with getattr, a __set_name__ descriptor
whose __get__ hands out a step (called straight from the outer step), an @on("event") decorator storing event
names on methods that the listener resolves with getattr in __init__ (an undecorated step-calling helper is never
registered), __class_getitem__ picking a codec subclass registered by __init_subclass__, and
functools.singledispatchmethod registrations by annotation and by explicit type."""
from decimal import Decimal

from agent_framework import step, workflow

from r9b_metaclass.descriptors import AuditedRouter, Router
from r9b_metaclass.events import BillingListener, Codec
from r9b_metaclass.formatting import Formatter
from r9b_metaclass.plugins import Commands, Plugin


@step
async def by_metaclass_registry(text: str) -> str:
    plugin = Plugin.create("export")
    return await plugin.run(text)  # unknown: STP002


@step
async def near_miss_metaclass_registry(text: str) -> str:
    plugin = Plugin.create("preview")
    return await plugin.run(text)


@step
async def by_set_name_route(text: str) -> str:
    router = Router()
    return await router.dispatch("created", text)  # unknown: STP002


@step
async def near_miss_set_name_route(text: str) -> str:
    router = AuditedRouter()
    deleted = await router.dispatch("deleted", text)
    archived = await router.dispatch("archived", text)
    return deleted + archived


@step
async def by_descriptor_step_slot(text: str) -> str:
    router = AuditedRouter()
    return await router.audit(text)  # expect: STP001


@step
async def near_miss_descriptor_plain_slot(text: str) -> str:
    router = AuditedRouter()
    undone = await router.undo(text)
    return undone + ",".join(AuditedRouter.slots)


@step
async def by_on_decorator(text: str) -> str:
    listener = BillingListener()
    return await listener.emit("renewed", text)  # unknown: STP002


@step
async def near_miss_on_decorator(text: str) -> str:
    listener = BillingListener()
    refunded = await listener.emit("refunded", text)
    shipped = await listener.emit("shipped", text)
    return refunded + shipped


@step
async def by_class_getitem(text: str) -> str:
    codec = Codec["json"]()
    return await codec.encode(text)  # expect: STP002


@step
async def near_miss_class_getitem(text: str) -> str:
    codec = Codec["text"]()
    return await codec.encode(text)


@step
async def by_singledispatchmethod(text: str) -> str:
    formatter = Formatter()
    return await formatter.format(Decimal(len(text)) / 4)  # expect: STP002


@step
async def near_miss_singledispatchmethod(text: str) -> str:
    formatter = Formatter("EUR")
    parts = [await formatter.format(len(text)), await formatter.format(text), await formatter.format(2.5)]  # imprecise: STP002
    return "|".join(parts)


@step
async def by_metaclass_getattr(text: str) -> str:
    return await Commands.deploy(text)  # unknown: STP001


@step
async def near_miss_metaclass_getattr(text: str) -> str:
    return await Commands.rollback(text)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_metaclass_registry(mode), await near_miss_metaclass_registry(mode), await by_set_name_route(mode),
        await near_miss_set_name_route(mode), await by_descriptor_step_slot(mode),
        await near_miss_descriptor_plain_slot(mode), await by_on_decorator(mode), await near_miss_on_decorator(mode),
        await by_class_getitem(mode), await near_miss_class_getitem(mode), await by_singledispatchmethod(mode),
        await near_miss_singledispatchmethod(mode), await by_metaclass_getattr(mode),
        await near_miss_metaclass_getattr(mode),
    ]
    return "|".join(parts)
