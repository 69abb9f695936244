"""A tiny dependency-injection container: providers registered by key, resolved lazily."""
import functools

from .services import Mailer, PaymentService, Settings, UserRepository
from .steps import audit, charge_card, fetch_user, noop, send_receipt


class Container:
    def __init__(self) -> None:
        self._providers: dict = {}
        self._singletons: dict = {}

    def register(self, key: str, provider) -> None:  # noqa: ANN001
        self._providers[key] = provider

    def singleton(self, key: str):  # noqa: ANN201
        def decorate(provider):  # noqa: ANN001, ANN202
            self.register(key, provider)
            return provider
        return decorate

    def resolve(self, key: str):  # noqa: ANN201
        if key not in self._singletons:
            self._singletons[key] = self._providers[key]()
        return self._singletons[key]


container = Container()
container.register("payments", lambda: PaymentService(charge_card, send_receipt))
container.register("dry_run_payments", lambda: PaymentService(audit, noop))


@container.singleton("mailer")
def make_mailer() -> Mailer:
    return Mailer(send_receipt, prefix="mail:")


@container.singleton("quiet_mailer")
def make_quiet_mailer() -> Mailer:
    return Mailer(prefix="quiet:")


@functools.lru_cache(maxsize=None)
def get_repository(online: bool) -> UserRepository:
    return UserRepository(Settings(loader=fetch_user if online else noop))


def hooked_repository(*hooks) -> UserRepository:  # noqa: ANN002
    return UserRepository(Settings(loader=noop, hooks=list(hooks)))


class Inject:
    """A descriptor that resolves a dependency from the container when read on an instance."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __get__(self, instance, owner):  # noqa: ANN001, ANN204
        if instance is None:
            return self
        return container.resolve(self.key)
