"""Class machinery choosing what a step body awaits: an __init_subclass__ registry looked up by kind through a
classmethod (a handler whose run calls a step), a class decorator that registers a job and wraps its handle method
(a job calling a step, and one that only reads a step's name), a functools.cached_property returning a step itself
or a plain coroutine, a __call__ retry object wrapping a step, a typing.Protocol sender passed to a helper (only a
logging one: the e-mail sender that calls a step is never used), an abstract storage whose concrete subclass is
chosen at runtime (a blob storage calling a step, and a memory storage), a __getattr__ proxy forwarding to a client
whose attribute IS a step (the proxy's frame is gone when the step is called) and to a stub client, a classmethod
constructor returning a subclass by settings (an SMS notifier calling a step, and the base class), a
dataclass(slots=True) whose default_factory stages include a step iterated in the body, and a dataclass
__post_init__ wiring a bound method that calls a step."""
from agent_framework import step, workflow

from r8b_classes import handlers, services


@step
async def by_subclass_registry(text: str) -> str:
    return await handlers.Handler.for_kind("audit").run(text)  # expect: STP002


@step
async def by_class_decorator_job(text: str) -> str:
    job = handlers.JOBS["ship"]()
    return await job.handle(text)  # expect: STP002


@step
async def near_miss_class_decorator_job(text: str) -> str:
    job = handlers.JOBS["preview"]()
    return await job.handle(text)


@step
async def by_cached_property_runner(text: str) -> str:
    geocoder = services.Geocoder(remote=True)
    return await geocoder.runner(text)  # expect: STP001


@step
async def near_miss_cached_property_runner(text: str) -> str:
    geocoder = services.Geocoder(remote=False)
    return await geocoder.runner(text)


@step
async def by_call_object(text: str) -> str:
    resilient = services.Retry(services.steps.enrich, attempts=3)
    return await resilient(text)  # expect: STP002


@step
async def near_miss_protocol_sender(text: str) -> str:
    return await services.deliver(services.LogSender(), text)


@step
async def by_abstract_storage(text: str) -> str:
    storage = services.choose_storage("production")
    saved = await storage.save_all([text, text + "2"])  # expect: STP002
    return ",".join(saved)


@step
async def near_miss_abstract_storage(text: str) -> str:
    storage = services.choose_storage("test")
    saved = await storage.save_all([text, text + "2"])
    return ",".join(saved)


@step
async def by_getattr_proxy(text: str) -> str:
    client = services.ClientProxy(services.RemoteClient())
    return await client.fetch(text)  # expect: STP001


@step
async def near_miss_getattr_proxy(text: str) -> str:
    client = services.ClientProxy(services.StubClient())
    return await client.fetch(client.base_url + text)


@step
async def by_classmethod_constructor(text: str) -> str:
    notifier = services.Notifier.from_settings({"channel": "sms"})
    return await notifier.notify(text)  # expect: STP002


@step
async def near_miss_classmethod_constructor(text: str) -> str:
    notifier = services.Notifier.from_settings({"channel": "slack"})
    return await notifier.notify(text)


@step
async def by_slots_dataclass_stages(text: str) -> str:
    pipeline = services.Pipeline("default")
    for stage in pipeline.stages:
        text = await stage(text)  # expect: STP001
    return text


@step
async def by_post_init_handler(text: str) -> str:
    return await services.Job("archive").handler(text)  # expect: STP002


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_subclass_registry(mode), await by_class_decorator_job(mode),
        await near_miss_class_decorator_job(mode), await by_cached_property_runner(mode),
        await near_miss_cached_property_runner(mode), await by_call_object(mode),
        await near_miss_protocol_sender(mode), await by_abstract_storage(mode), await near_miss_abstract_storage(mode),
        await by_getattr_proxy(mode), await near_miss_getattr_proxy(mode), await by_classmethod_constructor(mode),
        await near_miss_classmethod_constructor(mode), await by_slots_dataclass_stages(mode),
        await by_post_init_handler(mode),
    ]
    return "|".join(parts)
