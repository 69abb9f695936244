"""Plugins found through an entry-point table ("group" -> "name = module:attr"), resolved with
importlib.import_module + getattr after str.partition(":"): factories called with settings dicts, a plugin
wrapping another plugin named in its settings, a `Class.method` attribute path, a module-level default entry (a
spec without `:attr`), a hook entry that is itself a step, and a validator given a step as its reject callback."""
from agent_framework import step, workflow

from r10a_entrypoints import entrypoints, steps

EXPORT_SETTINGS = {"bucket": "reports", "delimiter": ";"}


@step
async def by_cloud_exporter(payload: str) -> str:
    exporter = entrypoints.create("app.exporters", "cloud", EXPORT_SETTINGS)
    return await exporter.export(payload)  # expect: STP002


@step
async def near_miss_csv_exporter(payload: str) -> str:
    exporter = entrypoints.create("app.exporters", "csv", EXPORT_SETTINGS)
    return await exporter.export(payload)  # imprecise: STP002


@step
async def by_wrapped_cloud_exporter(payload: str) -> str:
    settings = {"inner": "cloud", "inner_settings": {"bucket": "wrapped"}}
    exporter = entrypoints.create("app.exporters", "logged", settings)
    pending = exporter.export(payload)
    return await pending  # expect: STP002


@step
async def near_miss_wrapped_csv_exporter(payload: str) -> str:
    settings = {"inner": "csv", "inner_settings": {"delimiter": "|"}}
    exporter = entrypoints.create("app.exporters", "logged", settings)
    pending = exporter.export(payload)
    return await pending  # imprecise: STP002


@step
async def by_hook_entry_is_step(message: str) -> str:
    hook = entrypoints.load(entrypoints.group("app.hooks")["notify"])
    return await hook(message)  # expect: STP001


@step
async def near_miss_hook_entry_plain(message: str) -> str:
    hook = entrypoints.load(entrypoints.group("app.hooks")["echo"])
    return await hook(message)  # imprecise: STP001


@step
async def by_classmethod_factory(token: str) -> str:
    auth = entrypoints.create("app.auth", "token", {"verify": True})
    return await auth.authenticate(token)  # expect: STP002


@step
async def near_miss_classmethod_factory_no_verify(token: str) -> str:
    auth = entrypoints.create("app.auth", "token", {"verify": False})
    return await auth.authenticate(token)  # imprecise: STP002


@step
async def by_every_audit_plugin(entry: str) -> str:
    written = []
    for name in entrypoints.group("app.audit"):
        plugin = entrypoints.create("app.audit", name)
        written.append(await plugin.write(entry))  # expect: STP002
    return ",".join(written)


@step
async def near_miss_local_audit_plugins(entry: str) -> str:
    written = []
    for name in entrypoints.group("app.audit"):
        if not name.startswith("local_"):
            continue
        plugin = entrypoints.create("app.audit", name)
        written.append(await plugin.write(entry))  # imprecise: STP002
    return ",".join(written)


@step
async def by_module_default_entry(name: str) -> str:
    metrics = entrypoints.create("app.metrics", "default", {"prefix": "svc."})
    return await metrics.emit(name)  # expect: STP002


@step
async def near_miss_explicit_noop_entry(name: str) -> str:
    metrics = entrypoints.create("app.metrics", "noop", {"prefix": "svc."})
    return await metrics.emit(name)  # imprecise: STP002


@step
async def by_reject_callback(payload: str) -> str:
    validator = entrypoints.create("app.validators", "strict", {"forbidden": "!", "on_reject": steps.quarantine})
    return await validator.check(payload + "!")  # expect: STP002


@step
async def near_miss_reject_callback_unused(payload: str) -> str:
    validator = entrypoints.create("app.validators", "strict", {"forbidden": "!", "on_reject": steps.quarantine})
    return await validator.check(payload + "?")


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_cloud_exporter(mode), await near_miss_csv_exporter(mode),
        await by_wrapped_cloud_exporter(mode), await near_miss_wrapped_csv_exporter(mode),
        await by_hook_entry_is_step(mode), await near_miss_hook_entry_plain(mode),
        await by_classmethod_factory(mode), await near_miss_classmethod_factory_no_verify(mode),
        await by_every_audit_plugin(mode), await near_miss_local_audit_plugins(mode),
        await by_module_default_entry(mode), await near_miss_explicit_noop_entry(mode),
        await by_reject_callback(mode), await near_miss_reject_callback_unused(mode),
    ]
    return "|".join(parts)
