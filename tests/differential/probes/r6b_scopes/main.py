"""Which function a name means when a step's body calls it: parameters and locals shadowing a step, a module
name redefined by a later def, global rebinding by a function that runs (and one that never runs), del,
try/finally rebinding, walrus in a comprehension, comprehension scopes, class-body scope rules, default
arguments captured at definition time, and lambdas made in a comprehension (late binding, followed since the
round: each sees the last item, vs default binding). Left out as known imprecisions: a dict key deleted before
get() with a default, a rebinding in an except branch that runs, the walrus's last value after a comprehension,
a default-bound lambda holding a plain function."""
import sys

from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


async def plain(label: str) -> str:
    return "plain:" + label


# A module name defined first as a step, then replaced by a plain def: callers see the last one.
@step
async def refresh(label: str) -> str:
    return "refresh-step:" + label


async def refresh(label: str) -> str:  # noqa: F811
    return "refresh-plain:" + label


# The converse: plain first, step last.
async def reload(label: str) -> str:
    return "reload-plain:" + label


@step
async def reload(label: str) -> str:  # noqa: F811
    return "reload-step:" + label


handler = plain
dormant = plain


def install() -> None:
    global handler
    handler = fetch


def never_called() -> None:
    global dormant
    dormant = fetch


# Default captured when the def runs; the module name is rebound afterwards.
current = plain


async def run_default(label: str, runner=current) -> str:  # noqa: ANN001
    return await runner(label)


async def run_current(label: str) -> str:
    return await current(label)


current = fetch

# Conditional definitions decided by the interpreter version (3.11 here).
if sys.version_info >= (3, 8):
    async def pick(label: str) -> str:
        return await plain(label)
else:
    async def pick(label: str) -> str:
        return await fetch(label)

# Class-body scope: methods do not see class-level names unqualified; comprehensions in a class body see
# only the outermost iterable in class scope.
runner = plain


class Pipeline:
    fetch = staticmethod(plain)
    runner = fetch
    RUNNERS = [runner for _ in range(1)]  # the element reads the module's runner (plain)
    DIRECT = [runner]  # the class's runner: the staticmethod object

    async def run(self, label: str) -> str:
        return await fetch(label)  # the module's step, not the class attribute

    async def run_attr(self, label: str) -> str:
        return await self.fetch(label)


# Lambdas made in a comprehension: late binding sees the last f; a default binds each one.
LATE = [lambda label: f(label) for f in (fetch, plain)]
EARLY = [lambda label, f=f: f(label) for f in (fetch, plain)]
LATE_LOUD = [lambda label: f(label) for f in (plain, fetch)]


async def helper(fetch, label: str) -> str:  # noqa: ANN001  (parameter shadows the step)
    return await fetch(label)


@step
async def near_miss_parameter_shadow(label: str) -> str:
    return await helper(plain, label)


@step
async def by_parameter_shadow(label: str) -> str:
    return await helper(fetch, label)  # expect: STP002


@step
async def near_miss_local_shadow(label: str) -> str:
    fetch = plain
    return await fetch(label)


@step
async def near_miss_redefined_name(label: str) -> str:
    return await refresh(label)


@step
async def by_redefined_name(label: str) -> str:
    return await reload(label)  # expect: STP001


@step
async def by_global_rebinding(label: str) -> str:
    install()
    return await handler(label)  # expect: STP001


@step
async def near_miss_global_never_rebound(label: str) -> str:
    return await dormant(label)


@step
async def near_miss_del_then_rebind(label: str) -> str:
    chosen = fetch
    del chosen
    chosen = plain
    return await chosen(label)


@step
async def by_finally_rebinding(label: str) -> str:
    try:
        chosen = plain
    finally:
        chosen = fetch
    return await chosen(label)  # expect: STP001


@step
async def by_walrus_any(label: str) -> str:
    if any((found := f) is fetch for f in (plain, fetch, plain)):
        return await found(label)  # expect: STP001
    return label


@step
async def near_miss_comprehension_variable(label: str) -> str:
    results = [await fetch(label) for fetch in (plain,)]
    return results[0]


@step
async def by_name_after_comprehension(label: str) -> str:
    _ = [fetch for fetch in ("x", "y")]
    return await fetch(label)  # expect: STP001


@step
async def by_method_reading_module_name(label: str) -> str:
    return await Pipeline().run(label)  # expect: STP002


@step
async def near_miss_class_attribute(label: str) -> str:
    return await Pipeline().run_attr(label)


@step
async def near_miss_class_comprehension(label: str) -> str:
    return await Pipeline.RUNNERS[0](label)


@step
async def near_miss_default_captured(label: str) -> str:
    return await run_default(label)


@step
async def by_late_module_read(label: str) -> str:
    return await run_current(label)  # expect: STP002


@step
async def near_miss_version_branch(label: str) -> str:
    return await pick(label)


@step
async def near_miss_late_lambda(label: str) -> str:
    return await LATE[0](label)


@step
async def by_default_lambda(label: str) -> str:
    return await EARLY[0](label)  # expect: STP002


@step
async def by_late_lambda_last(label: str) -> str:
    return await LATE_LOUD[0](label)  # expect: STP002


@workflow
async def flow(mode: str) -> str:
    parts = [
        await near_miss_parameter_shadow(mode), await by_parameter_shadow(mode), await near_miss_local_shadow(mode),
        await near_miss_redefined_name(mode), await by_redefined_name(mode), await by_global_rebinding(mode),
        await near_miss_global_never_rebound(mode), await near_miss_del_then_rebind(mode),
        await by_finally_rebinding(mode), await by_walrus_any(mode), await near_miss_comprehension_variable(mode),
        await by_name_after_comprehension(mode), await by_method_reading_module_name(mode),
        await near_miss_class_attribute(mode), await near_miss_class_comprehension(mode),
        await near_miss_default_captured(mode), await by_late_module_read(mode), await near_miss_version_branch(mode),
        await near_miss_late_lambda(mode), await by_default_lambda(mode),
        await by_late_lambda_last(mode),
    ]
    return "|".join(parts)
