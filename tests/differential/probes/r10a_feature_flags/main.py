"""Feature flags read from a frozen dataclass built from merged dicts (defaults, environment-style overrides from
a constant mapping, explicit overrides): `if flags.x:` choosing a handler, a handler table keyed by a boolean
flag, A/B variants and a percentage rollout picked by zlib.crc32 of constant user ids, a payments kill switch,
and a decorator gating a function on a named flag."""
import dataclasses

from agent_framework import step, workflow

from r10a_feature_flags import flags as feature_flags
from r10a_feature_flags import handlers, steps


@step
async def by_new_checkout_from_env(order: str) -> str:
    flags = feature_flags.load()
    handler = handlers.new_checkout if flags.new_checkout else handlers.legacy_checkout
    return await handler(order)  # expect: STP002


@step
async def near_miss_checkout_overridden(order: str) -> str:
    flags = feature_flags.load(overrides={"new_checkout": False})
    handler = handlers.new_checkout if flags.new_checkout else handlers.legacy_checkout
    return await handler(order)  # imprecise: STP002


@step
async def by_replaced_flag_table(order: str) -> str:
    flags = dataclasses.replace(feature_flags.load(env={}), new_checkout=True)
    return await handlers.CHECKOUT_HANDLERS[flags.new_checkout](order)  # expect: STP002


@step
async def near_miss_default_flag_table(order: str) -> str:
    flags = feature_flags.load(env={})
    return await handlers.CHECKOUT_HANDLERS[flags.new_checkout](order)  # imprecise: STP002


@step
async def by_search_variant(query: str) -> str:
    flags = feature_flags.load()
    arm = feature_flags.variant(flags.search_experiment, "alice", handlers.SEARCH_VARIANTS)
    return await handlers.SEARCH_HANDLERS[arm](query)  # expect: STP002


@step
async def near_miss_search_control_arm(query: str) -> str:
    flags = feature_flags.load()
    arm = feature_flags.variant(flags.search_experiment, "user-42", handlers.SEARCH_VARIANTS)
    return await handlers.SEARCH_HANDLERS[arm](query)  # imprecise: STP002


@step
async def by_payments_live(order: str) -> str:
    gateway = handlers.PaymentGateway(feature_flags.load())
    return await gateway.pay(order)  # expect: STP002


@step
async def near_miss_payments_kill_switch(order: str) -> str:
    gateway = handlers.PaymentGateway(feature_flags.load(feature_flags.INCIDENT_ENV))
    return await gateway.pay(order)  # imprecise: STP002


@step
async def by_rollout_bucket(user: str) -> str:
    flags = feature_flags.load()
    recommender = handlers.recommender_for(flags, feature_flags.bucket("bob"))
    return await recommender.suggest(user)  # expect: STP002


@step
async def near_miss_outside_rollout(user: str) -> str:
    flags = feature_flags.load()
    recommender = handlers.recommender_for(flags, feature_flags.bucket("carol"))
    return await recommender.suggest(user)  # imprecise: STP002


@step
async def by_flag_guarding_step(user: str) -> str:
    flags = feature_flags.load()
    if flags.recommendations:
        return await steps.recommend(user)  # expect: STP001
    return "none:" + user


@step
async def near_miss_flag_off_guarding_step(user: str) -> str:
    flags = feature_flags.load()
    if flags.beta_banner:
        return await steps.show_banner(user)  # imprecise: STP001
    return await handlers.plain_banner(user)


@step
async def by_gated_receipt(order: str) -> str:
    return await handlers.send_receipt(feature_flags.load(), order)  # expect: STP002


@step
async def near_miss_gated_receipt_incident(order: str) -> str:
    return await handlers.send_receipt(feature_flags.load(feature_flags.INCIDENT_ENV), order)  # imprecise: STP002


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_new_checkout_from_env(mode), await near_miss_checkout_overridden(mode),
        await by_replaced_flag_table(mode), await near_miss_default_flag_table(mode),
        await by_search_variant(mode), await near_miss_search_control_arm(mode),
        await by_payments_live(mode), await near_miss_payments_kill_switch(mode),
        await by_rollout_bucket(mode), await near_miss_outside_rollout(mode),
        await by_flag_guarding_step(mode), await near_miss_flag_off_guarding_step(mode),
        await by_gated_receipt(mode), await near_miss_gated_receipt_incident(mode),
    ]
    return "|".join(parts)
