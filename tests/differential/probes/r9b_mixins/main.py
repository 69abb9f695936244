"""Cooperative multiple inheritance across modules: a service composed as (LoggingMixin, RetryMixin, RemoteBase)
whose mixins pass the request on with super().handle() until the base's perform() calls a step, the same mixins
over a plain base, a short-circuiting cache mixin first in the MRO (never calls super()), and a mixin that calls a
step itself before delegating; properties returning a bound method or a step chosen by an instance flag; a
@classmethod constructor from a config mapping that picks the backend method by name (resolved with getattr);
a __slots__ job holding its runner; a NamedTuple subclass with async methods (and a _replace() copy that flips
the flag); dataclass inheritance where the subclass overrides `field(default=...)` with a step (and a near miss
overriding it back with a plain function at construction)."""
from agent_framework import step, workflow

from r9b_mixins import steps
from r9b_mixins.models import Job, Pipeline, RemotePipeline, Route
from r9b_mixins.services import CachedService, Gateway, LocalService, MeteredService, Notifier, Service


@step
async def by_cooperative_super_chain(text: str) -> str:
    service = Service(log_prefix="svc", name="orders")
    return await service.handle(text)  # expect: STP002


@step
async def near_miss_short_circuit_mixin(text: str) -> str:
    service = CachedService(name="cached")
    return await service.handle(text)


@step
async def near_miss_plain_base(text: str) -> str:
    service = LocalService(name="local")
    return await service.handle(text)


@step
async def by_mixin_calling_step(text: str) -> str:
    service = MeteredService(name="metered")
    return await service.handle(text)  # expect: STP002


@step
async def by_property_bound_method(text: str) -> str:
    notifier = Notifier(online=True)
    return await notifier.deliver(text)  # expect: STP002


@step
async def near_miss_property_bound_method(text: str) -> str:
    notifier = Notifier(online=False)
    queued = await notifier.deliver(text)
    direct = await notifier.transport(text)
    return queued + direct


@step
async def by_property_returning_step(text: str) -> str:
    notifier = Notifier(online=True)
    return await notifier.transport(text)  # expect: STP001


@step
async def by_classmethod_from_config(text: str) -> str:
    gateway = Gateway.from_config({"backend": "remote", "timeout": "2.5"})
    return await gateway.call(text)  # expect: STP002


@step
async def near_miss_classmethod_from_config(text: str) -> str:
    gateway = Gateway.from_config({"timeout": 3})
    return await gateway.call(text)


@step
async def by_slots_job(text: str) -> str:
    job = Job("sync", steps.compute)
    return await job.execute(text)  # expect: STP002


@step
async def near_miss_slots_job(text: str) -> str:
    job = Job("dry-run", steps.plain_compute)
    return await job.execute(text)


@step
async def by_namedtuple_method(text: str) -> str:
    route = Route("/api", remote=True)
    return await route.forward(text)  # expect: STP002


@step
async def near_miss_namedtuple_replace(text: str) -> str:
    route = Route("/api", remote=True)._replace(remote=False)
    return await route.forward(text)


@step
async def by_dataclass_overridden_default(text: str) -> str:
    pipeline = RemotePipeline()
    return await pipeline.run(text)  # expect: STP002


@step
async def near_miss_dataclass_defaults(text: str) -> str:
    base = await Pipeline().run(text)
    overridden = await RemotePipeline(stage=steps.plain_stage).run(text)
    return base + overridden


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_cooperative_super_chain(mode), await near_miss_short_circuit_mixin(mode),
        await near_miss_plain_base(mode), await by_mixin_calling_step(mode), await by_property_bound_method(mode),
        await near_miss_property_bound_method(mode), await by_property_returning_step(mode),
        await by_classmethod_from_config(mode), await near_miss_classmethod_from_config(mode),
        await by_slots_job(mode), await near_miss_slots_job(mode), await by_namedtuple_method(mode),
        await near_miss_namedtuple_replace(mode), await by_dataclass_overridden_default(mode),
        await near_miss_dataclass_defaults(mode),
    ]
    return "|".join(parts)
