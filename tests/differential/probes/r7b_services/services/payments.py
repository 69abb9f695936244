"""Payment services: class attributes holding steps, overridden in subclasses, and classmethod factories."""
from dataclasses import dataclass

from ..steps import charge, echo, send_sms
from .base import AuditMixin, BaseService, LoggingMixin, QuietMixin


@dataclass(frozen=True)
class PaymentConfig:
    gateway: str = "fake"
    notify: bool = False


GATEWAYS = {"stripe": charge, "fake": echo}


class PaymentService(LoggingMixin, BaseService):
    runner = charge

    def __init__(self, gateway=None, *, notifier=echo, retries: int = 1) -> None:  # noqa: ANN001
        self.gateway = gateway or self.runner
        self.notifier = notifier
        self.retries = retries

    @classmethod
    def from_config(cls, cfg: dict) -> "PaymentService":
        return cls(GATEWAYS[cfg["gateway"]])

    @classmethod
    def from_settings(cls, cfg: PaymentConfig) -> "PaymentService":
        notifier = send_sms if cfg.notify else echo
        return cls(GATEWAYS[cfg.gateway], notifier=notifier)

    async def pay(self, text: str) -> str:
        return await self.gateway(text) + await self.notifier(text)


class QuietPaymentService(PaymentService):
    runner = staticmethod(echo)


class AuditedPayments(AuditMixin, PaymentService):
    pass


class MutedPayments(QuietMixin, PaymentService):
    pass
