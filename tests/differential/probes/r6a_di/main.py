"""Steps reached through application wiring: a DI container with lambda providers and decorator-registered
singletons, a descriptor resolving from the container, constructor-injected collaborators, a property reading a
config dataclass field, an lru_cache'd repository factory, hooks in a list field, a partial of a bound method
stored in __init__, a package re-export, a step factory whose closure holds a service (refused when concurrent)."""
import asyncio
import dataclasses
import functools

from agent_framework import step, workflow

from r6a_di import container, get_repository, load_user
from r6a_di.container import Inject, hooked_repository
from r6a_di.services import Mailer, PaymentService, Settings, UserRepository
from r6a_di.steps import audit, charge_card, noop, send_receipt


def make_lookup(mailer: Mailer):  # noqa: ANN201
    @step
    async def lookup(user: str) -> str:
        return mailer.prefix + "lookup:" + user
    return lookup


lookup_user = make_lookup(Mailer(prefix="lk:"))


class StepSlot:
    """A descriptor handing out a configured handler, the way settings objects expose clients."""

    def __init__(self, handler) -> None:  # noqa: ANN001
        self.handler = handler

    def __get__(self, instance, owner):  # noqa: ANN001, ANN204
        return self.handler


class Gateway:
    charge = StepSlot(charge_card)
    log = StepSlot(audit)


class LazyService:
    """A lazy proxy: builds the real service on first attribute access."""

    def __init__(self, factory) -> None:  # noqa: ANN001
        self._factory = factory
        self._instance = None

    def __getattr__(self, name: str):  # noqa: ANN204
        if self._instance is None:
            self._instance = self._factory()
        return getattr(self._instance, name)


lazy_payments = LazyService(lambda: PaymentService(charge_card, send_receipt))
lazy_dry_run = LazyService(lambda: PaymentService(audit, noop))


class ReceiptHandler:
    def __init__(self, sender) -> None:  # noqa: ANN001
        self.sender = sender

    async def __call__(self, text: str) -> str:
        return await self.sender("handled:" + text)


container.register("receipts", lambda: ReceiptHandler(send_receipt))
container.register("quiet_receipts", lambda: ReceiptHandler(noop))


class Checkout:
    payments = Inject("payments")
    preview = Inject("dry_run_payments")

    async def run(self, user: str) -> str:
        return await self.payments.pay(user)

    async def dry_run(self, user: str) -> str:
        return await self.preview.pay(user)


@step
async def by_container_resolve(user: str) -> str:
    return await container.resolve("payments").pay(user)  # expect: STP002


@step
async def near_miss_container_resolve(user: str) -> str:
    return await container.resolve("dry_run_payments").pay(user)


@step
async def by_injected_descriptor(user: str) -> str:
    return await Checkout().run(user)  # expect: STP002


@step
async def near_miss_injected_descriptor(user: str) -> str:
    return await Checkout().dry_run(user)


@step
async def by_partial_bound_method(user: str) -> str:
    mailer = container.resolve("mailer")
    return await mailer.send(user)  # expect: STP002


@step
async def near_miss_partial_bound_method(user: str) -> str:
    mailer = container.resolve("quiet_mailer")
    return await mailer.send(user)


@step
async def by_cached_repository(user: str) -> str:
    return await get_repository(True).get(user)  # expect: STP002


@step
async def near_miss_cached_repository(user: str) -> str:
    return await get_repository(False).get(user)


@step
async def by_hook_list(user: str) -> str:
    return await hooked_repository(noop, send_receipt).get_with_hooks(user)  # expect: STP002


@step
async def near_miss_hook_list(user: str) -> str:
    return await hooked_repository(audit, noop).get_with_hooks(user)


@step
async def by_package_reexport(user: str) -> str:
    return await load_user(user)  # expect: STP001


@step
async def by_settings_field(user: str) -> str:
    settings = Settings(loader=charge_card)
    return await settings.loader(user)  # expect: STP001


@step
async def near_miss_settings_default(user: str) -> str:
    settings = Settings()
    return await settings.loader(user)


@step
async def by_partial_of_step(user: str) -> str:
    deliver = functools.partial(send_receipt)
    return await deliver(user)  # expect: STP001


@step
async def near_miss_service_never_used(user: str) -> str:
    service = PaymentService(charge_card, send_receipt)
    deliver = functools.partial(send_receipt, user)
    return type(service).__name__ + str(callable(deliver))


@step
async def by_plain_descriptor(user: str) -> str:
    return await Gateway().charge(user)  # expect: STP001


@step
async def near_miss_plain_descriptor(user: str) -> str:
    return await Gateway().log(user)


@step
async def by_lazy_proxy(user: str) -> str:
    return await lazy_payments.pay(user)  # expect: STP002


@step
async def near_miss_lazy_proxy(user: str) -> str:
    return await lazy_dry_run.pay(user)


@step
async def by_callable_service(user: str) -> str:
    return await container.resolve("receipts")(user)  # expect: STP002


@step
async def near_miss_callable_service(user: str) -> str:
    return await container.resolve("quiet_receipts")(user)


@step
async def by_dataclass_replace(user: str) -> str:
    settings = dataclasses.replace(Settings(), loader=send_receipt)
    return await UserRepository(settings).get(user)  # expect: STP002


@step
async def by_closure_step(user: str) -> str:
    return await lookup_user(user)  # expect: STP001


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_container_resolve(mode), await near_miss_container_resolve(mode),
        await by_injected_descriptor(mode), await near_miss_injected_descriptor(mode),
        await by_partial_bound_method(mode), await near_miss_partial_bound_method(mode),
        await by_cached_repository(mode), await near_miss_cached_repository(mode),
        await by_hook_list(mode), await near_miss_hook_list(mode), await by_package_reexport(mode),
        await by_settings_field(mode), await near_miss_settings_default(mode), await by_partial_of_step(mode),
        await near_miss_service_never_used(mode), await by_closure_step(mode),
        await by_plain_descriptor(mode), await near_miss_plain_descriptor(mode), await by_lazy_proxy(mode),
        await near_miss_lazy_proxy(mode), await by_callable_service(mode), await near_miss_callable_service(mode),
        await by_dataclass_replace(mode),
    ]
    parts.append(await container.resolve("payments").pay(mode))
    parts.append(await Checkout().run(mode + ":wf"))
    parts += await asyncio.gather(lookup_user(mode + ":x"), lookup_user(mode + ":y"))  # expect: STP020
    parts += await asyncio.gather(load_user(mode + ":x"), load_user(mode + ":y"))
    return "|".join(parts)
