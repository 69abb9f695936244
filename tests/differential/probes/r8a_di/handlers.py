"""Route handlers declaring their dependencies with ``Depends`` defaults."""
from r8a_di.di import Depends, inject
from r8a_di.providers import get_audit_log, get_billing, get_session, get_user_service
from r8a_di.services import AuditLog, BillingService, Session, UserService
from r8a_di.steps import current_tenant


async def show_profile(user_id: str, users: UserService = Depends(get_user_service)) -> str:
    return await users.profile(user_id)


async def checkout(amount: str, billing: BillingService = Depends(get_billing),
                   audit: AuditLog = Depends(get_audit_log)) -> str:
    audit.note("checkout " + amount)
    return await billing.charge(amount)


async def whoami(tenant: str, session: Session = Depends(get_session)) -> str:
    return "session:" + session.tenant


async def describe_users(users: UserService = Depends(get_user_service)) -> str:
    return users.describe()


async def tenant_header(tenant_name: str = Depends(current_tenant)) -> str:
    return "X-Tenant: " + tenant_name


@inject
async def audit_event(entry: str, audit: AuditLog = Depends(get_audit_log)) -> str:
    return await audit.record(entry)


@inject
async def queue_audit_event(entry: str, audit: AuditLog = Depends(get_audit_log)) -> str:
    audit.note(entry)
    return "queued:" + entry
