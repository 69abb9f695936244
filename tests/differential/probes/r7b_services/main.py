"""A services layer: cooperative super() chains through mixins in async methods (a mixin that does not call
super() ends the chain), a step held as a class attribute and overridden in a subclass by a staticmethod of a
plain function, instance attributes set from keyword-only constructor arguments with defaults (`x or
self.default`), classmethod factories choosing a gateway from a config dict and from a frozen config dataclass
(a boolean field choosing the notifier), keyword arguments spread from a dict, an abstract repository whose
concrete subclass is picked by an environment constant (a module default argument, a lookup table, and a
classmethod walking cls.__subclasses__()). Unknown: the subclass found by walking cls.__subclasses__(). Left out as
known imprecisions: a subclass whose plain staticmethod runner becomes the default gateway, a plain gateway passed
explicitly, and a plain notifier spread from a dict."""
from agent_framework import step, workflow

from r7b_services import config
from r7b_services.services import PaymentService, QuietPaymentService, Repository, make_repository
from r7b_services.services.payments import AuditedPayments, MutedPayments, PaymentConfig
from r7b_services.steps import echo, send_sms


@step
async def by_mixin_super_chain(text: str) -> str:
    return await PaymentService().handle(text)  # expect: STP002


@step
async def near_miss_overridden_runner(text: str) -> str:
    return await QuietPaymentService().handle(text)


@step
async def by_two_mixins(text: str) -> str:
    return await AuditedPayments().handle(text)  # expect: STP002


@step
async def near_miss_mixin_without_super(text: str) -> str:
    return await MutedPayments().handle(text)


@step
async def by_config_dict_factory(text: str) -> str:
    return await PaymentService.from_config({"gateway": "stripe"}).pay(text)  # expect: STP002


@step
async def near_miss_config_dict_factory(text: str) -> str:
    return await PaymentService.from_config({"gateway": "fake"}).pay(text)


@step
async def by_config_dataclass_flag(text: str) -> str:
    service = PaymentService.from_settings(PaymentConfig(notify=True))
    return await service.pay(text)  # expect: STP002


@step
async def near_miss_config_dataclass_defaults(text: str) -> str:
    service = PaymentService.from_settings(PaymentConfig())
    return await service.pay(text)


@step
async def by_default_gateway(text: str) -> str:
    return await PaymentService(retries=3).pay(text)  # expect: STP002


@step
async def by_keyword_notifier(text: str) -> str:
    return await QuietPaymentService(notifier=send_sms).pay(text)  # expect: STP002


@step
async def by_spread_options(text: str) -> str:
    options = {"notifier": send_sms, "retries": 2}
    return await QuietPaymentService(echo, **options).pay(text)  # expect: STP002


@step
async def by_environment_default(key: str) -> str:
    return await make_repository().get_many(key)  # expect: STP002


@step
async def near_miss_environment_test(key: str) -> str:
    return await make_repository(config.TEST_ENVIRONMENT).get_many(key)


@step
async def by_subclass_walk(key: str) -> str:
    return await Repository.for_environment(config.ENVIRONMENT).get(key)  # unknown: STP002


@step
async def near_miss_subclass_walk(key: str) -> str:
    return await Repository.for_environment("test").get(key)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_mixin_super_chain(mode), await near_miss_overridden_runner(mode), await by_two_mixins(mode),
        await near_miss_mixin_without_super(mode), await by_config_dict_factory(mode),
        await near_miss_config_dict_factory(mode), await by_config_dataclass_flag(mode),
        await near_miss_config_dataclass_defaults(mode), await by_default_gateway(mode),
        await by_keyword_notifier(mode), await by_spread_options(mode),
        await by_environment_default(mode), await near_miss_environment_test(mode),
        await by_subclass_walk(mode), await near_miss_subclass_walk(mode),
    ]
    return "|".join(parts)
