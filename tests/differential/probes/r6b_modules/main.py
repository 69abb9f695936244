"""Names across modules: `m.name` read at call time after a global is rebound by a function of its own module,
a module __getattr__ (PEP 562), star imports that skip underscore names and are overridden by a later def, a
function-local import, a module global written from outside, importlib.import_module, and a default captured from
another module before it changed. Unknown: the rebound global (read as `m.name` and by a function of its module),
the global written from outside, a module __getattr__. Left out as known imprecisions: `from m import name`
keeping the binding from before the rebinding, a name deleted from a module read by getattr with a default."""
import importlib

from agent_framework import step, workflow

from . import registry, shadow
from .steps import fetch

registry.install()  # rebinds registry.handler to fetch
registry.notifier = fetch  # a write from outside into the module's global


async def run_with(label: str, runner=registry.fallback) -> str:  # noqa: ANN001  captured: store
    return await runner(label)


def local_import():  # noqa: ANN201
    from .steps import plain as fetch  # noqa: F811  (a local name shadowing the module's fetch)
    return fetch


@step
async def by_module_attribute_after_rebind(label: str) -> str:
    return await registry.handler(label)  # unknown: STP001


@step
async def by_module_function_reading_global(label: str) -> str:
    return await registry.run_handler(label)  # unknown: STP002


@step
async def by_global_written_from_outside(label: str) -> str:
    return await registry.run_notifier(label)  # unknown: STP002


@step
async def by_module_getattr(label: str) -> str:
    return await registry.dynamic(label)  # unknown: STP001


@step
async def near_miss_module_getattr(label: str) -> str:
    return await registry.quiet(label)


@step
async def near_miss_star_skips_underscore(label: str) -> str:
    return await shadow._hidden(label)


@step
async def by_star_import_override(label: str) -> str:
    return await shadow.exported(label)  # expect: STP001


@step
async def near_miss_def_after_star(label: str) -> str:
    return await shadow.fallback(label)


@step
async def by_default_from_other_module(label: str) -> str:
    return await run_with(label)  # expect: STP002


@step
async def near_miss_local_import(label: str) -> str:
    return await local_import()(label)


@step
async def by_import_module(label: str) -> str:
    module = importlib.import_module(".registry", __package__)
    return await module.exported(label)  # expect: STP001


@step
async def near_miss_import_module_hidden(label: str) -> str:
    module = importlib.import_module(".shadow", __package__)
    return await module._hidden(label)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_module_attribute_after_rebind(mode), await by_module_function_reading_global(mode),
        await by_global_written_from_outside(mode), await by_module_getattr(mode), await near_miss_module_getattr(mode),
        await near_miss_star_skips_underscore(mode), await by_star_import_override(mode),
        await near_miss_def_after_star(mode), await by_default_from_other_module(mode),
        await near_miss_local_import(mode), await by_import_module(mode), await near_miss_import_module_hidden(mode),
    ]
    return "|".join(parts)
