"""Plugins loaded by name: a loader imports a list of module names with importlib.import_module in a loop, the
imported modules fill registries by decorators (a decorator with an argument, one applied by a call
`channel("x")(fn)`, one keyed by `fn.__name__`, a class decorator appending to a list); a plugin module that is
only in the disabled list (its registrations, one of which would override a plain channel with a step, never
happen) and is loaded only under `if __name__ == "__main__":`, which does not run when the module is imported;
a module imported by an f-string of its short name in a loop; lookups with a fallback for the unloaded plugin; an
entry-point string "module:attr" resolved by partition and getattr. Unknown: the registration made by the module
imported by an f-string name (the entry point's attribute name is followed since the tenth round: str.partition)."""
from agent_framework import step, workflow

from r7b_plugins.loader import DISABLED_PLUGINS, load_plugins, load_short, resolve
from r7b_plugins.registry import CHANNELS, EXPORTERS, PLUGIN_CLASSES, fallback

PLUGINS = load_plugins()
load_short()


@step
async def by_decorated_channel(text: str) -> str:
    return await CHANNELS["slack"](text)  # expect: STP002


@step
async def by_called_decorator_channel(text: str) -> str:
    return await CHANNELS["email"](text)  # expect: STP001


@step
async def near_miss_channel_unloaded_override(text: str) -> str:
    return await CHANNELS["audit"](text)


@step
async def near_miss_unloaded_plugin(text: str) -> str:
    return await CHANNELS.get("sms", fallback)(text)


@step
async def by_name_keyed_exporter(text: str) -> str:
    return await EXPORTERS["to_csv"](text)  # expect: STP002


@step
async def near_miss_plain_name_keyed_exporter(text: str) -> str:
    return await EXPORTERS["to_log"](text)


@step
async def near_miss_name_keyed_exporter(text: str) -> str:
    exporter = EXPORTERS.get("to_sms")
    if exporter is None:
        return text
    return await exporter(text)


@step
async def by_plugin_class_list(text: str) -> str:
    out = []
    for cls in PLUGIN_CLASSES:
        out.append(await cls.deliver(text))  # expect: STP001
    return "".join(out)


@step
async def by_module_from_loader(text: str) -> str:
    slack_module = PLUGINS[0]
    return await slack_module.notify_slack(text)  # expect: STP002


@step
async def by_fstring_module_name(text: str) -> str:
    return await CHANNELS["pager"](text)  # unknown: STP001


@step
async def by_entry_point(text: str) -> str:
    return await resolve("r7b_plugins.steps:export_csv")(text)  # expect: STP001


@step
async def near_miss_entry_point(text: str) -> str:
    return await resolve("r7b_plugins.steps:log_only")(text)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_decorated_channel(mode), await by_called_decorator_channel(mode),
        await near_miss_channel_unloaded_override(mode), await near_miss_unloaded_plugin(mode),
        await by_name_keyed_exporter(mode), await near_miss_name_keyed_exporter(mode),
        await near_miss_plain_name_keyed_exporter(mode),
        await by_plugin_class_list(mode), await by_module_from_loader(mode), await by_entry_point(mode),
        await by_fstring_module_name(mode), await near_miss_entry_point(mode),
    ]
    return "|".join(parts)


if __name__ == "__main__":
    load_plugins(DISABLED_PLUGINS)
