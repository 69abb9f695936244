"""Settings and clients: feature flags read by attribute access on a module-level settings object (nested frozen
dataclass, a flag on and a flag off, a second settings object with other flags, a property computed from a
field), a Protocol-typed attribute holding a class that satisfies it structurally, module-level client
singletons and a lazily made global singleton, functools.cached_property returning a client whose method
calls a step (read twice: the cache), a frozen slotted dataclass holding step callables with a plain default,
a builder whose chained methods return self, flags
spread from a dict into the dataclass, a decorator deciding from a flag at definition time whether to wrap, and a
config class picked from a table by a constant (class attributes overridden in subclasses)."""
from agent_framework import step, workflow

from r7b_settings import clients
from r7b_settings.clients import App, api, get_storage, offline_api
from r7b_settings.pipeline import Pipeline, PipelineBuilder
from r7b_settings.decorators import save_loudly, save_quietly, store_by_config
from r7b_settings.settings import ProductionConfig, overridden, settings, staging
from r7b_settings.steps import bill, legacy_audit, plain_bill, plain_store, store_blob


async def charge_by_flags(text: str, cfg=settings) -> str:  # noqa: ANN001
    if cfg.features.legacy_audit:
        await legacy_audit(text)
    if cfg.features.new_billing:
        return await bill(text)
    return await plain_bill(text)


@step
async def by_flag_on(text: str) -> str:
    if settings.features.new_billing:
        return await bill(text)  # expect: STP001
    return text


@step
async def near_miss_flag_off(text: str) -> str:
    if settings.features.legacy_audit:
        return await legacy_audit(text)
    return text


@step
async def by_flags_in_helper(text: str) -> str:
    return await charge_by_flags(text)  # expect: STP002


@step
async def near_miss_flags_in_helper(text: str) -> str:
    return await charge_by_flags(text, staging)


@step
async def near_miss_settings_property(text: str) -> str:
    if not settings.is_prod:
        return await legacy_audit(text)
    return text


@step
async def by_settings_property(text: str) -> str:
    if staging.features.beta_storage and not staging.is_prod:
        return await store_blob(text)  # expect: STP001
    return text


@step
async def by_protocol_attribute(text: str) -> str:
    return await api.get(text)  # expect: STP002


@step
async def near_miss_protocol_default(text: str) -> str:
    return await offline_api.get(text)


@step
async def by_module_singleton_attribute(text: str) -> str:
    return await clients.api.transport.send(text)  # expect: STP002


@step
async def by_lazy_global_singleton(text: str) -> str:
    return await get_storage().put(text)  # expect: STP002


@step
async def by_cached_property_client(text: str) -> str:
    app = App(remote=True)
    first = await app.client.get(text)  # expect: STP002
    return first + await app.client.get(text)  # expect: STP002


@step
async def near_miss_cached_property_client(text: str) -> str:
    app = App(remote=False)
    return await app.client.get(text)


@step
async def by_cached_property_storage(text: str) -> str:
    return await App(True).storage.put(text)  # expect: STP002


@step
async def near_miss_cached_property_storage(text: str) -> str:
    return await App(False).storage.put(text)


@step
async def by_slotted_record(text: str) -> str:
    return await Pipeline(bill).run(text)  # expect: STP002


@step
async def near_miss_slotted_record(text: str) -> str:
    return await Pipeline(plain_bill).run(text)


@step
async def by_slotted_record_keyword(text: str) -> str:
    return await Pipeline(charge=plain_bill, store=store_blob).run(text)  # expect: STP002


@step
async def by_chained_builder(text: str) -> str:
    pipeline = PipelineBuilder().storing_with(store_blob).charging_with(plain_bill).build()
    return await pipeline.run(text)  # expect: STP002


@step
async def near_miss_chained_builder(text: str) -> str:
    pipeline = PipelineBuilder().charging_with(plain_bill).storing_with(plain_store).build()
    return await pipeline.run(text)


@step
async def near_miss_default_builder(text: str) -> str:
    return await PipelineBuilder().build().run(text)


@step
async def by_flags_from_dict(text: str) -> str:
    if overridden.legacy_audit:
        await legacy_audit(text)  # expect: STP001
    return text


@step
async def by_definition_time_flag(text: str) -> str:
    return await save_loudly(text)  # expect: STP002


@step
async def near_miss_definition_time_flag(text: str) -> str:
    return await save_quietly(text)


@step
async def near_miss_active_config_class(text: str) -> str:
    return await store_by_config(text)


@step
async def by_config_subclass_attribute(text: str) -> str:
    if ProductionConfig.USE_REMOTE_STORE and not ProductionConfig.AUDIT:
        return await store_blob(text)  # expect: STP001
    return text


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_flag_on(mode), await near_miss_flag_off(mode), await by_flags_in_helper(mode),
        await near_miss_flags_in_helper(mode), await near_miss_settings_property(mode),
        await by_settings_property(mode), await by_protocol_attribute(mode),
        await near_miss_protocol_default(mode), await by_module_singleton_attribute(mode),
        await by_lazy_global_singleton(mode), await by_cached_property_client(mode),
        await near_miss_cached_property_client(mode), await by_cached_property_storage(mode),
        await near_miss_cached_property_storage(mode), await by_slotted_record(mode),
        await near_miss_slotted_record(mode), await by_slotted_record_keyword(mode),
        await by_chained_builder(mode), await near_miss_chained_builder(mode), await near_miss_default_builder(mode),
        await by_flags_from_dict(mode), await by_definition_time_flag(mode),
        await near_miss_definition_time_flag(mode), await near_miss_active_config_class(mode),
        await by_config_subclass_attribute(mode),
    ]
    return "|".join(parts)
