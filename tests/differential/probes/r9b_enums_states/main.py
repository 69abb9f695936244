"""Enums and state machines: an enum method branching on the member (`self is Channel.SMS`) reached through a
classmethod parser, enum members whose values are callables wrapped with enum.member (the value called directly,
and through the enum's own async __call__), a transition table `{(State.IDLE, Event.START): handler}` of plain
functions defined in the class body (transitions not in the table are ignored), a `match (state, event)` with
tuple, or- and wildcard patterns in a plain function and in the outer step's own body, a Priority-keyed strategy
dict built with a dict comprehension over the enum, and IntFlag combinations tested with `in` and `&` (a composite
OWNER member with a flag removed)."""
from agent_framework import step, workflow

from r9b_enums_states import steps
from r9b_enums_states.channels import Channel, Operation
from r9b_enums_states.machine import Event, Machine, State, react
from r9b_enums_states.policies import STRATEGIES, Perm, Priority, apply, route


@step
async def by_enum_method(text: str) -> str:
    channel = Channel.parse("SMS")
    return await channel.deliver(text)  # expect: STP002


@step
async def near_miss_enum_method(text: str) -> str:
    urgent = [channel for channel in Channel if channel.is_urgent and channel is not Channel.SMS]
    parts = [await Channel.EMAIL.deliver(text)] + [await channel.deliver(text) for channel in urgent]  # imprecise: STP002
    return "|".join(parts)


@step
async def by_enum_callable_value(text: str) -> str:
    operation = Operation.UPLOAD
    return await operation.value(text)  # expect: STP001


@step
async def by_enum_dunder_call(text: str) -> str:
    operation = Operation["UPLOAD"]
    return await operation(text)  # expect: STP002


@step
async def near_miss_enum_callable_value(text: str) -> str:
    called = await Operation.PREVIEW(text)
    direct = await Operation.PREVIEW.value(text)
    return called + direct + Operation.UPLOAD.label


@step
async def by_transition_table(text: str) -> str:
    machine = Machine()
    return await machine.fire(Event.START, text)  # expect: STP002


@step
async def near_miss_transition_not_taken(text: str) -> str:
    machine = Machine(State.RUNNING)
    outcomes = [await machine.fire(event, text) for event in (Event.START, Event.PAUSE, Event.RESUME, Event.STOP)]  # imprecise: STP002
    return "|".join(outcomes) + machine.state.name


@step
async def by_match_tuple(text: str) -> str:
    return await react(State.RUNNING, Event.PAUSE, text)  # expect: STP002


@step
async def near_miss_match_tuple(text: str) -> str:
    paused = await react(State.PAUSED, Event.PAUSE, text)
    stopped = await react(State.IDLE, Event.STOP, text)
    resumed = await react(State.PAUSED, Event.RESUME, text)
    return paused + stopped + resumed


@step
async def by_match_in_body(text: str) -> str:
    machine = Machine(State.RUNNING)
    match (machine.state, Event.PAUSE):
        case (State.RUNNING, Event.PAUSE):
            return await steps.checkpoint(text)  # expect: STP001
        case _:
            return "noop:" + text


@step
async def near_miss_match_in_body(text: str) -> str:
    machine = Machine(State.PAUSED)
    match (machine.state, Event.PAUSE):
        case (State.RUNNING, Event.PAUSE):
            return await steps.checkpoint(text)
        case (State.PAUSED, _):
            return "already-paused:" + text
        case _:
            return "noop:" + text


@step
async def by_strategy_route(text: str) -> str:
    return await route(max(Priority), text)  # expect: STP002


@step
async def near_miss_strategy(text: str) -> str:
    normal = await route(Priority(2), text)  # imprecise: STP002
    low = await STRATEGIES[Priority.LOW](text)  # imprecise: STP001
    return normal + low


@step
async def by_intflag_in(text: str) -> str:
    return await apply(Perm.READ | Perm.WRITE, text)  # expect: STP002


@step
async def near_miss_intflag(text: str) -> str:
    exec_only = await apply(Perm.READ | Perm.EXEC, text)  # imprecise: STP002
    admin = await apply(Perm.OWNER & ~Perm.WRITE, text)  # imprecise: STP002
    return exec_only + admin


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_enum_method(mode), await near_miss_enum_method(mode), await by_enum_callable_value(mode),
        await by_enum_dunder_call(mode), await near_miss_enum_callable_value(mode), await by_transition_table(mode),
        await near_miss_transition_not_taken(mode), await by_match_tuple(mode), await near_miss_match_tuple(mode),
        await by_match_in_body(mode), await near_miss_match_in_body(mode), await by_strategy_route(mode),
        await near_miss_strategy(mode), await by_intflag_in(mode), await near_miss_intflag(mode),
    ]
    return "|".join(parts)
