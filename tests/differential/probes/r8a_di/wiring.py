"""The application's container, filled at import time."""
from r8a_di.container import Container
from r8a_di.services import AuditLog, BillingService, Mailer, UserService
from r8a_di.steps import charge_card, load_user, print_email, send_email, skip_audit, write_audit

container = Container()
container.register(Mailer, lambda c: Mailer(send_email), singleton=True)
container.register("mailer.console", lambda c: Mailer(print_email, sender="dev@localhost"))
container.register("audit", lambda c: AuditLog(write_audit))
container.register("audit.null", lambda c: AuditLog(skip_audit))
container.register(UserService, lambda c: UserService(load_user))


@container.provides(BillingService, singleton=True)
def billing_factory(c: Container) -> BillingService:
    return BillingService(charge_card, currency=c.resolve("currency"))


@container.provides("currency")
def currency_factory(c: Container) -> str:
    return "USD"
