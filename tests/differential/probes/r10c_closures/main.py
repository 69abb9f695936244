"""Closures around steps: lambdas made in a loop that all see the loop variable's last value (in a factory and in
the step itself) against ones bound with the default-argument trick, a handler whose nonlocal counter switches it
to a step after N calls (called past N, and not), listener closures kept in an event bus and called on emit (and
a bus cleared before emitting), and a gate factory returning an opener and a sender sharing one flag (opened, and
the opener of another gate)."""
from agent_framework import step, workflow

from r10c_closures.actions import ACTIONS
from r10c_closures.callbacks import (
    EventBus,
    log_only,
    make_bound_handlers,
    make_gate,
    make_handlers,
    make_listener,
    make_switching,
)
from r10c_closures.steps import deliver, escalate, store_event


@step
async def by_late_binding(text: str) -> str:
    handlers = make_handlers(["draft", "publish"])
    first = handlers[0]
    return await first(text)  # expect: STP002


@step
async def near_miss_late_binding(text: str) -> str:
    handlers = make_handlers(["publish", "draft"])
    return await handlers[0](text)  # imprecise: STP002


@step
async def by_default_argument_binding(text: str) -> str:
    handlers = make_bound_handlers(["publish", "draft"])
    return await handlers[0](text)  # expect: STP002


@step
async def near_miss_default_argument_binding(text: str) -> str:
    handlers = make_bound_handlers(["draft", "publish"])
    return await handlers[0](text)  # imprecise: STP002


@step
async def by_loop_lambda_in_body(text: str) -> str:
    calls = []
    for kind in ("draft", "publish"):
        calls.append(lambda: ACTIONS[kind](text))  # expect: STP001
    return await calls[0]()


@step
async def near_miss_loop_lambda_bound_in_body(text: str) -> str:
    calls = []
    for kind in ("draft", "publish"):
        calls.append(lambda kind=kind: ACTIONS[kind](text))  # imprecise: STP001
    return await calls[0]()


@step
async def by_switch_after_calls(text: str) -> str:
    handle = make_switching(log_only, escalate, after=2)
    first = await handle(text)  # imprecise: STP002
    second = await handle(text)  # imprecise: STP002
    third = await handle(text)  # expect: STP002
    return ",".join([first, second, third])


@step
async def near_miss_switch_before_limit(text: str) -> str:
    handle = make_switching(log_only, escalate, after=2)
    first = await handle(text)  # imprecise: STP002
    second = await handle(text)  # imprecise: STP002
    return ",".join([first, second])


@step
async def by_callback_list(text: str) -> str:
    bus = EventBus()
    bus.on(make_listener(log_only, "a:"))
    bus.on(make_listener(store_event, "b:"))
    results = await bus.emit(text)  # expect: STP002
    return ",".join(results)


@step
async def near_miss_cleared_callbacks(text: str) -> str:
    bus = EventBus()
    bus.on(make_listener(store_event, "b:"))
    bus.clear()
    bus.on(make_listener(log_only, "a:"))
    results = await bus.emit(text)  # imprecise: STP002
    return ",".join(results)


@step
async def by_shared_state_pair(text: str) -> str:
    open_gate, send = make_gate(deliver)
    open_gate()
    return await send(text)  # expect: STP002


@step
async def near_miss_other_gate_opened(text: str) -> str:
    open_first, _ = make_gate(deliver)
    _, send_second = make_gate(deliver)
    open_first()
    return await send_second(text)  # imprecise: STP002


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_late_binding(mode), await near_miss_late_binding(mode), await by_default_argument_binding(mode),
        await near_miss_default_argument_binding(mode), await by_loop_lambda_in_body(mode),
        await near_miss_loop_lambda_bound_in_body(mode), await by_switch_after_calls(mode),
        await near_miss_switch_before_limit(mode), await by_callback_list(mode),
        await near_miss_cleared_callbacks(mode), await by_shared_state_pair(mode),
        await near_miss_other_gate_opened(mode),
    ]
    return "|".join(parts)
