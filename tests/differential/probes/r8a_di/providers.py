"""Dependency providers, the way a FastAPI app's ``dependencies.py`` looks."""
import functools

from r8a_di.di import Depends
from r8a_di.services import AuditLog, BillingService, Mailer, Session, UserService
from r8a_di.settings import Settings, get_settings
from r8a_di.steps import (charge_card, charge_card_sandbox, current_tenant, load_user, load_user_from_fixture,
                          print_email, send_email, skip_audit, write_audit)


def get_user_service() -> UserService:
    return UserService(load_user)


def get_fixture_user_service() -> UserService:
    return UserService(load_user_from_fixture)


def get_billing(settings: Settings = Depends(get_settings)) -> BillingService:
    if settings.billing_mode == "live":
        return BillingService(charge_card)
    return BillingService(charge_card_sandbox)


def get_audit_log(settings: Settings = Depends(get_settings)) -> AuditLog:
    return AuditLog(write_audit if settings.audit_enabled else skip_audit)


async def get_session(tenant: str) -> Session:
    """An async provider that opens the session by asking the tenant service."""
    name = await current_tenant(tenant)
    return Session(name)


async def get_anonymous_session(tenant: str) -> Session:
    return Session("anonymous:" + tenant)


@functools.lru_cache(maxsize=None)
def get_mailer() -> Mailer:
    return Mailer(send_email)


@functools.lru_cache(maxsize=None)
def get_console_mailer() -> Mailer:
    return Mailer(print_email, sender="dev@localhost")
