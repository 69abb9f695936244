"""A nonlocal name rebound by one inner function and called by another (the enclosing function's own read
after the rebinding is not followed: README)."""
from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


async def plain(label: str) -> str:
    return "plain:" + label


def make_trigger():  # noqa: ANN201
    target = plain

    def bind(function) -> None:  # noqa: ANN001
        nonlocal target
        target = function

    async def fire(label: str) -> str:
        return await target(label)

    return bind, fire


# A second factory, not a second call of make_trigger(): two calls with the same arguments share one context
# of the analysis (one closure cell for both), so the near miss would see fetch too.
def make_quiet_trigger():  # noqa: ANN201
    target = plain

    def bind(function) -> None:  # noqa: ANN001
        nonlocal target
        target = function

    async def fire(label: str) -> str:
        return await target(label)

    return bind, fire


def bound_here():  # noqa: ANN201
    target = plain

    def bind(function) -> None:  # noqa: ANN001
        nonlocal target
        target = function

    bind(fetch)
    return target


bind_fetch, fire_fetch = make_trigger()
bind_fetch(fetch)
bind_plain, fire_plain = make_quiet_trigger()
bind_plain(plain)


@step
async def by_rebound_nonlocal(label: str) -> str:
    return await fire_fetch(label)  # expect: STP002


@step
async def near_miss_rebound_nonlocal(label: str) -> str:
    return await fire_plain(label)


@step
async def by_enclosing_read(label: str) -> str:
    return await bound_here()(label)  # unknown: STP001


@workflow
async def flow(mode: str) -> str:
    parts = [await by_rebound_nonlocal(mode), await near_miss_rebound_nonlocal(mode)]
    return "|".join([*parts, await by_enclosing_read(mode)])
