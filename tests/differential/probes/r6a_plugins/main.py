"""Plugin architectures: an Enum-keyed strategy table, a registering decorator keyed by Enum members, exporters
registered by __init_subclass__ with a class keyword and looked up by format, an ABC template method with an
abstract hook, an event bus whose subscribers are stored in lists and called on emit, a module-level plugin table
extended with update(), a middleware chain built by functools.reduce, match-based dispatch on a string, a handler
picked by getattr with an f-string name (followed since the round). Left out as known imprecisions: a middleware
chain wrapped by a for loop over a non-empty tuple (the unwrapped endpoint is never called), and the same loop
helper called with a plain endpoint."""
from agent_framework import step, workflow

from .components import (  # noqa: F401
    Channel, STRATEGIES, ROUTES, Exporter, ChargeHandler, LogHandler,
    bus, LISTENERS, Notifier, Webhooks, PLUGINS, middleware,
    build_chain, dispatch, send_email, send_sms, render_csv,
    render_json,
)


@step
async def by_enum_strategy(text: str) -> str:
    return await STRATEGIES[Channel.EMAIL](text)  # expect: STP001


@step
async def near_miss_enum_strategy(text: str) -> str:
    return await STRATEGIES[Channel.SMS](text)


@step
async def by_enum_value_lookup(text: str) -> str:
    return await STRATEGIES[Channel("email")](text)  # expect: STP001


@step
async def by_route_decorator(text: str) -> str:
    return await ROUTES[Channel.PUSH](text)  # expect: STP002


@step
async def near_miss_route_decorator(text: str) -> str:
    return await ROUTES[Channel.FAX](text)


@step
async def by_subclass_registry(text: str) -> str:
    return await Exporter.for_format("csv").export(text)  # expect: STP002


@step
async def near_miss_subclass_registry(text: str) -> str:
    return await Exporter.for_format("json").export(text)


@step
async def by_template_method(text: str) -> str:
    return await ChargeHandler().handle(text)  # expect: STP002


@step
async def near_miss_template_method(text: str) -> str:
    return await LogHandler().handle(text)


@step
async def by_event_bus(text: str) -> str:
    return "|".join(await bus.emit("paid", text))  # expect: STP002


@step
async def near_miss_event_bus(text: str) -> str:
    return "|".join(await bus.emit("refunded", text))


@step
async def by_updated_table(text: str) -> str:
    return await PLUGINS["email"](text)  # expect: STP001


@step
async def near_miss_updated_table(text: str) -> str:
    return await PLUGINS["sms"](text) + await PLUGINS["json"](text)


@step
async def by_middleware_chain(text: str) -> str:
    chain = build_chain(send_email, [middleware, middleware])
    return await chain(text)  # expect: STP002


@step
async def near_miss_middleware_chain(text: str) -> str:
    chain = build_chain(send_sms, [middleware])
    return await chain(text)


@step
async def by_match_dispatch(text: str) -> str:
    return await dispatch("bill")(text)  # expect: STP001


@step
async def near_miss_match_dispatch(text: str) -> str:
    return await dispatch("text")(text) + await dispatch("other")(text)


@step
async def by_plugin_loop(text: str) -> str:
    out = []
    for name in sorted(PLUGINS):
        out.append(await PLUGINS[name](text))  # expect: STP001
    return "|".join(out)


@step
async def by_listener_list(text: str) -> str:
    return "|".join([await listener(text) for listener in LISTENERS])  # expect: STP001


@step
async def by_subscriber_method(text: str) -> str:
    notifier = Notifier()
    notifier.subscribe(send_sms)
    notifier.subscribe(render_csv)
    return "|".join(await notifier.notify(text))  # expect: STP002


@step
async def near_miss_subscriber_method(text: str) -> str:
    notifier = Notifier()
    notifier.subscribe(send_sms)
    return "|".join(await notifier.notify(text))


@step
async def by_getattr_handler_name(text: str) -> str:
    return await Webhooks().handle("paid", text)  # expect: STP002


@step
async def near_miss_getattr_handler_name(text: str) -> str:
    return await Webhooks().handle("refunded", text)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_enum_strategy(mode), await near_miss_enum_strategy(mode), await by_enum_value_lookup(mode),
        await by_route_decorator(mode), await near_miss_route_decorator(mode), await by_subclass_registry(mode),
        await near_miss_subclass_registry(mode), await by_template_method(mode), await near_miss_template_method(mode),
        await by_event_bus(mode), await near_miss_event_bus(mode), await by_updated_table(mode),
        await near_miss_updated_table(mode), await by_middleware_chain(mode), await near_miss_middleware_chain(mode),
        await by_match_dispatch(mode), await near_miss_match_dispatch(mode), await by_plugin_loop(mode),
        await by_listener_list(mode), await by_subscriber_method(mode), await near_miss_subscriber_method(mode),
        await by_getattr_handler_name(mode), await near_miss_getattr_handler_name(mode),
    ]
    parts += await bus.emit("paid", mode)
    parts.append(await ChargeHandler().handle(mode))
    return "|".join(parts)
