"""Functional-style composition: a hand-written compose and pipe over async functions, a curried two-argument
function, a partial of a partial (of a step, and of a plain relay given a step), handlers under three stacked
decorators with arguments, a decorator that picks its wrapper from its argument, and a factory returning either a
step or a plain validator."""
from functools import partial

from agent_framework import step, workflow

from r10c_compose import handlers
from r10c_compose.fp import checker, compose, curry2, pipe, plain_notify, plain_tag, relay, shout, strip
from r10c_compose.steps import enrich, normalize, notify, tag


@step
async def by_compose(text: str) -> str:
    clean = compose(normalize, strip)
    return await clean(text)  # expect: STP002


@step
async def near_miss_compose(text: str) -> str:
    loud = compose(shout, strip)
    return await loud(text)  # imprecise: STP002


@step
async def by_pipe(text: str) -> str:
    return await pipe(text, strip, enrich)  # expect: STP002


@step
async def near_miss_pipe(text: str) -> str:
    return await pipe(text, strip, shout, strip)


@step
async def by_curried(text: str) -> str:
    urgent = curry2(tag)("urgent")
    pending = urgent(text)  # expect: STP002
    return await pending


@step
async def near_miss_curried(text: str) -> str:
    urgent = curry2(plain_tag)("urgent")
    pending = urgent(text)
    return await pending


@step
async def by_partial_of_partial(text: str) -> str:
    to_email = partial(notify, "email")
    send = partial(to_email, text)
    return await send()  # expect: STP001


@step
async def by_partial_relay(text: str) -> str:
    send_sms = partial(partial(relay, notify), "sms")
    return await send_sms(text)  # expect: STP002


@step
async def near_miss_partial_relay(text: str) -> str:
    send_sms = partial(partial(relay, plain_notify), "sms")
    return await send_sms(text)


@step
async def by_stacked_decorators(text: str) -> str:
    return await handlers.save(text)  # expect: STP002


@step
async def near_miss_stacked_decorators(text: str) -> str:
    return await handlers.save_draft(text)


@step
async def by_routed_handler(text: str) -> str:
    return await handlers.archive(text)  # expect: STP002


@step
async def near_miss_routed_handler(text: str) -> str:
    return await handlers.archive_quietly(text)


@step
async def by_chosen_validator(text: str) -> str:
    check = checker(strict=True)
    return await check(text)  # expect: STP001


@step
async def near_miss_chosen_validator(text: str) -> str:
    check = checker(strict=False)
    return await check(text)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_compose(mode), await near_miss_compose(mode), await by_pipe(mode), await near_miss_pipe(mode),
        await by_curried(mode), await near_miss_curried(mode), await by_partial_of_partial(mode),
        await by_partial_relay(mode), await near_miss_partial_relay(mode), await by_stacked_decorators(mode),
        await near_miss_stacked_decorators(mode), await by_routed_handler(mode), await near_miss_routed_handler(mode),
        await by_chosen_validator(mode), await near_miss_chosen_validator(mode),
    ]
    return "|".join(parts)
