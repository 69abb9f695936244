"""Steps reached across the modules of a package: re-exports of the package's __init__ and of a subpackage,
`from . import mod` then `mod.fn`, an aliased absolute import, a star import limited by __all__ (a plain function
of the same name as a step that __all__ leaves out is not replaced), importlib.import_module with a literal
(absolute, and relative with __package__), a registry filled at import time by a module only the package's
__init__ imports, circular imports resolved at call time, try/except ImportError fallbacks, TYPE_CHECKING
branches, getattr on a module and globals() with literal names."""
import importlib

import q_r5_modules.services.email
import q_r5_modules.steps as profile_steps
from agent_framework import step, workflow

from . import billing, get_profile, orders, patches, services, settings, steps  # noqa: F401 - patches patches steps
from .compat import clean, finalize, lookup_profile
from .registry import TASKS


LATE = steps.normalize


async def notify(user: str) -> str:  # a plain function; steps.notify is left out of steps.__all__
    return "local-notify:" + user


from .steps import *  # noqa: E402, F403 - brings fetch_profile, archive, normalize

ARCHIVE_ON_EXIT = False
if ARCHIVE_ON_EXIT:
    from .steps import archive as on_exit
else:
    from .steps import normalize as on_exit

backend = importlib.import_module("q_r5_modules.steps")


def mailer():  # noqa: ANN201
    return importlib.import_module(".services.email", __package__)


@step
async def by_package_reexport(user: str) -> str:
    return await get_profile(user)  # expect: STP001


@step
async def by_module_attribute(user: str) -> str:
    return await steps.fetch_profile(user)  # expect: STP001


@step
async def near_miss_module_attribute(user: str) -> str:
    return await steps.normalize(user) + steps.profile_url(user)


@step
async def by_absolute_alias(user: str) -> str:
    return await profile_steps.archive(user)  # expect: STP001


@step
async def by_star_import(user: str) -> str:
    return await archive(user)  # expect: STP001


@step
async def near_miss_star_import(user: str) -> str:
    return await notify(user) + await normalize(user)


@step
async def by_import_module(user: str) -> str:
    return await backend.notify(user)  # expect: STP001


@step
async def by_relative_import_module(user: str) -> str:
    return await mailer().send_email(user)  # expect: STP001


@step
async def near_miss_import_module(user: str) -> str:
    return await importlib.import_module("q_r5_modules.services.sms").send_sms(user)


@step
async def by_subpackage_reexport(user: str) -> str:
    return await services.send_email(user)  # expect: STP001


@step
async def by_submodule_attribute(user: str) -> str:
    return await services.email.send_email(user)  # expect: STP001


@step
async def by_helper_in_subpackage(user: str) -> str:
    return await services.sms.send_sms_via_email(user)  # expect: STP002


@step
async def near_miss_helper_in_subpackage(user: str) -> str:
    return await services.sms.send_sms(user) + services.email.render_email(user)


@step
async def by_circular_import(user: str) -> str:
    return await billing.charge(user)  # expect: STP002


@step
async def near_miss_circular_import(user: str) -> str:
    return await orders.total_for(user)


@step
async def by_registry_decorator(user: str) -> str:
    return await TASKS["sync"](user)  # expect: STP001


@step
async def by_registry_helper(user: str) -> str:
    return await TASKS["refresh"](user)  # expect: STP002


@step
async def by_registry_assignment(user: str) -> str:
    return await TASKS["archive"](user)  # expect: STP001


@step
async def near_miss_registry(user: str) -> str:
    return await TASKS["cleanup"](user) + await TASKS["normalize"](user)


@step
async def by_import_fallback(user: str) -> str:
    return await lookup_profile(user)  # expect: STP001




@step
async def near_miss_type_checking(user: str) -> str:
    return await finalize(user)


@step
async def by_getattr_on_module(user: str) -> str:
    return await getattr(steps, "archive")(user)  # expect: STP001


@step
async def near_miss_getattr_default(user: str) -> str:
    return await getattr(steps, "missing", steps.normalize)(user)


@step
async def by_globals_literal(user: str) -> str:
    return await globals()["get_profile"](user)  # unknown: STP001


@step
async def by_dotted_import(user: str) -> str:
    return await q_r5_modules.services.email.send_email(user)  # expect: STP001


@step
async def near_miss_constant_flag(user: str) -> str:
    return await on_exit(user)


@step
async def by_late_rebinding(user: str) -> str:
    return await LATE(user)  # expect: STP001


@step
async def by_global_configure(user: str) -> str:
    return await settings.run_handler(user)  # expect: STP002


@step
async def near_miss_late_rebinding_elsewhere(user: str) -> str:
    return await settings.run_fallback(user)


@step
async def by_patched_module_attribute(user: str) -> str:
    return await steps.profile_url_step(user)  # unknown: STP001


LATE = steps.archive


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_package_reexport(mode), await by_module_attribute(mode), await near_miss_module_attribute(mode),
        await by_absolute_alias(mode), await by_star_import(mode), await near_miss_star_import(mode),
        await by_import_module(mode), await by_relative_import_module(mode), await near_miss_import_module(mode),
        await by_subpackage_reexport(mode), await by_submodule_attribute(mode), await by_helper_in_subpackage(mode),
        await near_miss_helper_in_subpackage(mode), await by_circular_import(mode),
        await near_miss_circular_import(mode), await by_registry_decorator(mode), await by_registry_helper(mode),
        await by_registry_assignment(mode), await near_miss_registry(mode), await by_import_fallback(mode),
        await near_miss_type_checking(mode), await by_getattr_on_module(mode),
        await near_miss_getattr_default(mode), await by_globals_literal(mode),
        await by_dotted_import(mode), await near_miss_constant_flag(mode),
        await by_late_rebinding(mode), await by_global_configure(mode),
        await near_miss_late_rebinding_elsewhere(mode), await by_patched_module_attribute(mode), await billing.invoice(mode), await billing.receipt(mode),
    ]
    return "|".join(parts)
