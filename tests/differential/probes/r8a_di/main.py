"""Dependency injection written by hand: a FastAPI-like resolver reading ``Depends(provider)`` defaults with
inspect.signature (a handler whose service holds a step, a provider depending on an lru_cache'd settings
provider, an async provider that awaits a step, a step used directly as a dependency, an ``@inject`` decorator
around a handler), test overrides of providers, a service locator resolving by type and by string key, a step
held by a resolved service and called in the step body, and lru_cache'd singleton providers. Near misses: the
same handlers with a provider overridden by a plain stand-in, test settings choosing the sandbox charger, a
dependency resolved but never called, an injected handler that only queues, a console mailer key."""
from agent_framework import step, workflow

from r8a_di.di import resolve
from r8a_di.handlers import audit_event, checkout, describe_users, queue_audit_event, show_profile, tenant_header, whoami
from r8a_di.providers import (get_anonymous_session, get_console_mailer, get_fixture_user_service, get_mailer,
                              get_session, get_user_service)
from r8a_di.services import Mailer, UserService
from r8a_di.settings import get_settings, get_test_settings
from r8a_di.wiring import container


@step
async def by_depends_handler(user: str) -> str:
    return await resolve(show_profile, user_id=user)  # expect: STP002


@step
async def near_miss_overridden_provider(user: str) -> str:
    overrides = {get_user_service: get_fixture_user_service}
    return await resolve(show_profile, overrides=overrides, user_id=user)  # imprecise: STP002


@step
async def by_nested_settings_dependency(user: str) -> str:
    return await resolve(checkout, amount=user)  # expect: STP002


@step
async def near_miss_test_settings(user: str) -> str:
    return await resolve(checkout, overrides={get_settings: get_test_settings}, amount=user)  # imprecise: STP002


@step
async def by_async_provider(user: str) -> str:
    return await resolve(whoami, tenant=user)  # expect: STP002


@step
async def near_miss_async_provider_overridden(user: str) -> str:
    return await resolve(whoami, overrides={get_session: get_anonymous_session}, tenant=user)  # imprecise: STP002


@step
async def by_step_as_dependency(user: str) -> str:
    return await resolve(tenant_header, tenant=user)  # expect: STP002


@step
async def near_miss_dependency_never_called(user: str) -> str:
    return await resolve(describe_users) + ":" + user  # imprecise: STP002


@step
async def by_inject_decorator(user: str) -> str:
    return await audit_event(entry=user)  # expect: STP002


@step
async def near_miss_inject_decorator_queues(user: str) -> str:
    return await queue_audit_event(entry=user)  # imprecise: STP002


@step
async def by_container_type(user: str) -> str:
    return await container.resolve(Mailer).send(user)  # expect: STP002


@step
async def near_miss_container_console_key(user: str) -> str:
    return await container.resolve("mailer.console").send(user)


@step
async def by_container_held_step(user: str) -> str:
    users = container[UserService]
    return await users.loader(user)  # expect: STP001


@step
async def by_cached_singleton_provider(user: str) -> str:
    mailer = get_mailer()
    return await mailer.send(user)  # expect: STP002


@step
async def near_miss_cached_console_provider(user: str) -> str:
    mailer = get_console_mailer()
    return await mailer.send(user)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_depends_handler(mode), await near_miss_overridden_provider(mode),
        await by_nested_settings_dependency(mode), await near_miss_test_settings(mode),
        await by_async_provider(mode), await near_miss_async_provider_overridden(mode),
        await by_step_as_dependency(mode), await near_miss_dependency_never_called(mode),
        await by_inject_decorator(mode), await near_miss_inject_decorator_queues(mode),
        await by_container_type(mode), await near_miss_container_console_key(mode),
        await by_container_held_step(mode), await by_cached_singleton_provider(mode),
        await near_miss_cached_console_provider(mode),
    ]
    return "|".join(parts)
