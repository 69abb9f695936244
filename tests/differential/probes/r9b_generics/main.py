"""Typed, generic application code: a Generic[T] repository base whose concrete subclasses load through steps
(an in-memory subclass does not), repositories looked up in a registry and narrowed with typing.cast, a
Generic[P] handler with typing.Protocol collaborators passed in (a step-backed sink, a memory sink, a step passed
as the transform callable and, in a near miss, only described and never called), a TypeVar-bound factory
`make(cls: type[C]) -> C` instantiating the class given as an argument, `assert isinstance(x, Sink)` narrowing
against a runtime-checkable Protocol before the call, a Protocol implementation whose method is a step held as a
class attribute (called straight from the outer step), and an @overload-ed async function whose implementation
dispatches on the argument's type (bool is caught before int)."""
from typing import cast

from agent_framework import step, workflow

from r9b_generics import steps
from r9b_generics.handlers import (
    Handler,
    IntHandler,
    LoopbackTransport,
    MemorySink,
    OfflineClient,
    RemoteClient,
    StepSink,
    StepTransport,
    make,
    make_transport,
    relay,
    render,
)
from r9b_generics.protocols import Sink
from r9b_generics.repositories import InMemoryUserRepository, Order, Repository, User, UserRepository, lookup


@step
async def by_generic_subclass(key: str) -> str:
    repo: Repository[User] = UserRepository()
    user = await repo.fetch(key)  # expect: STP002
    return user.label


@step
async def near_miss_in_memory_subclass(key: str) -> str:
    repo: Repository[User] = InMemoryUserRepository({"a": "alice"})
    user = await repo.fetch(key)
    return user.label


@step
async def by_registry_cast(key: str) -> str:
    repo = cast(Repository[Order], lookup("orders"))
    order = await repo.fetch(key)  # expect: STP002
    return order.label


@step
async def near_miss_registry_cast_memory(key: str) -> str:
    repo = cast(Repository[User], lookup("memory"))
    user = await repo.fetch(key)
    return user.label


@step
async def by_protocol_sink(text: str) -> str:
    handler: Handler[str] = Handler(StepSink())
    return await handler.handle(text)  # expect: STP002


@step
async def near_miss_memory_sink(text: str) -> str:
    handler = IntHandler(MemorySink())
    return await handler.handle(len(text))


@step
async def by_transform_passed_in(text: str) -> str:
    handler: Handler[str] = Handler(MemorySink(), transform=steps.normalize)
    return await handler.handle(text)  # expect: STP002


@step
async def near_miss_transform_only_described(text: str) -> str:
    handler: Handler[str] = Handler(MemorySink(), transform=steps.normalize)
    return handler.describe() + ":" + text


@step
async def by_typevar_factory(text: str) -> str:
    client = make(RemoteClient)
    return await client.call(text)  # expect: STP002


@step
async def near_miss_typevar_factory(text: str) -> str:
    client = make(OfflineClient)
    return await client.call(text)


@step
async def by_isinstance_narrowing(text: str) -> str:
    candidates: list[object] = [text, 3, StepSink()]
    sink = candidates[-1]
    assert isinstance(sink, Sink)
    return await sink.write(text)  # expect: STP002


@step
async def by_protocol_step_attribute(text: str) -> str:
    transport = make_transport(StepTransport)
    return await transport.send(text)  # expect: STP001


@step
async def near_miss_relay_loopback(text: str) -> str:
    transport = make_transport(LoopbackTransport)
    return await relay(transport, text)


@step
async def by_overload_int(text: str) -> str:
    return await render(len(text))  # expect: STP002


@step
async def near_miss_overload_other_types(text: str) -> str:
    flag = await render(True)  # imprecise: STP002
    joined = await render([text, text])  # imprecise: STP002
    plain = await render(text)  # imprecise: STP002
    return "|".join([flag, joined, plain])


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_generic_subclass(mode), await near_miss_in_memory_subclass(mode), await by_registry_cast(mode),
        await near_miss_registry_cast_memory(mode), await by_protocol_sink(mode), await near_miss_memory_sink(mode),
        await by_transform_passed_in(mode), await near_miss_transform_only_described(mode),
        await by_typevar_factory(mode), await near_miss_typevar_factory(mode), await by_isinstance_narrowing(mode),
        await by_protocol_step_attribute(mode), await near_miss_relay_loopback(mode), await by_overload_int(mode),
        await near_miss_overload_other_types(mode),
    ]
    return "|".join(parts)
