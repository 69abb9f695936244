"""Steps reached only through exception handling: an `except` branch taken because a parser raises (and one not taken
because the lenient parser does not), an `else` branch storing through a helper, a `finally` flushing through a
helper, an `async with` whose `__aexit__` rolls back through a step when the block raises (and commits plainly when
it does not), a custom exception carrying its handler (a step, and a plain coroutine), `raise ... from` with the
recovery chosen by the exception's `__cause__` (a step for KeyError, a plain default for ValueError),
contextlib.suppress around a helper that stores and then raises (and around a lookup that raises before the step on
its line), `except*` on a TaskGroup's ExceptionGroup (the TimeoutError branch calls a step, the ConnectionError
branch is not taken), and a fallback chain `for handler in handlers: try: return await handler(x) except Skip:
continue` reaching a step, and one stopping at a plain handler before the step."""
import asyncio
import contextlib

from agent_framework import step, workflow

from r8b_exceptions import helpers, steps
from r8b_exceptions.errors import LookupFailed, NeedsAttention, Skip


@step
async def by_except_branch(text: str) -> str:
    try:
        value = helpers.parse_strict(text)
    except ValueError:
        return await steps.recover(text)  # expect: STP001
    return str(value)


@step
async def near_miss_except_not_raised(text: str) -> str:
    try:
        value = helpers.parse_lenient(text)
    except ValueError:
        return await steps.recover(text)  # imprecise: STP001
    return str(value)


@step
async def by_else_branch(text: str) -> str:
    try:
        value = helpers.parse_lenient(text)
    except ValueError:
        return "unparsable"
    else:
        return await helpers.save(value)  # expect: STP002


@step
async def by_finally_flush(text: str) -> str:
    lines = []
    try:
        lines.append(await helpers.log_line(text))
    finally:
        lines.append(await helpers.flush(text))  # expect: STP002
    return ",".join(lines)


@step
async def by_aexit_rollback(text: str) -> str:
    async with helpers.Transaction(text) as tx:  # expect: STP002
        tx.fail("constraint violated")
    return tx.outcome


@step
async def near_miss_aexit_commit(text: str) -> str:
    async with helpers.Transaction(text) as tx:  # imprecise: STP002
        tx.name = text.upper()
    return tx.outcome


@step
async def by_exception_handler_attribute(text: str) -> str:
    try:
        helpers.check_quota(text, strict=True)
    except NeedsAttention as problem:
        return await problem.handler(text)  # expect: STP001
    return text


@step
async def near_miss_exception_handler_attribute(text: str) -> str:
    try:
        helpers.check_quota(text, strict=False)
    except NeedsAttention as problem:
        return await problem.handler(text)
    return text


@step
async def by_raise_from_cause(text: str) -> str:
    try:
        return helpers.read_record({"known": "1"}, text, typed=False)
    except LookupFailed as failure:
        return await helpers.recovery_for(failure)(text)  # expect: STP001


@step
async def near_miss_raise_from_cause(text: str) -> str:
    try:
        return helpers.read_record({"known": "1"}, text, typed=True)
    except LookupFailed as failure:
        return await helpers.recovery_for(failure)(text)  # imprecise: STP001


@step
async def by_suppress_after_store(text: str) -> str:
    with contextlib.suppress(ValueError):
        return await helpers.store_then_validate(text)  # expect: STP002
    return "rejected:" + text


@step
async def near_miss_suppress_before_step(text: str) -> str:
    table = {"known": "k1"}
    with contextlib.suppress(KeyError):
        return await steps.store(table[text])  # imprecise: STP001
    return "missing:" + text


@step
async def by_except_star(text: str) -> str:
    outcome = text
    try:
        async with asyncio.TaskGroup() as tg:
            tg.create_task(helpers.slow_call(text))
    except* ConnectionError:
        outcome = await steps.reconnect(text)  # imprecise: STP001
    except* TimeoutError:
        outcome = await steps.retry_later(text)  # expect: STP001
    return outcome


@step
async def by_fallback_chain(text: str) -> str:
    for handler in (helpers.from_cache, helpers.from_replica, steps.from_api):
        try:
            return await handler(text)  # expect: STP001
        except Skip:
            continue
    return "exhausted"


@step
async def near_miss_fallback_chain(text: str) -> str:
    for handler in (helpers.from_cache, helpers.from_memory, steps.from_api):
        try:
            return await handler(text)  # imprecise: STP001
        except Skip:
            continue
    return "exhausted"


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_except_branch(mode), await near_miss_except_not_raised(mode),
        await by_else_branch(mode), await by_finally_flush(mode), await by_aexit_rollback(mode),
        await near_miss_aexit_commit(mode), await by_exception_handler_attribute(mode),
        await near_miss_exception_handler_attribute(mode), await by_raise_from_cause(mode),
        await near_miss_raise_from_cause(mode), await by_suppress_after_store(mode),
        await near_miss_suppress_before_step(mode), await by_except_star(mode), await by_fallback_chain(mode),
        await near_miss_fallback_chain(mode),
    ]
    return "|".join(parts)
