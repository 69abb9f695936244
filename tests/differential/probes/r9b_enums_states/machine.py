"""A job state machine: a transition table keyed by (state, event), and a match-based reaction function."""
from __future__ import annotations

from enum import Enum, auto
from typing import Awaitable, Callable

from r9b_enums_states import steps


class State(Enum):
    IDLE = auto()
    RUNNING = auto()
    PAUSED = auto()
    DONE = auto()


class Event(Enum):
    START = auto()
    PAUSE = auto()
    RESUME = auto()
    STOP = auto()


Transition = Callable[["Machine", str], Awaitable[str]]


class Machine:
    def __init__(self, state: State = State.IDLE) -> None:
        self.state = state
        self.history: list[tuple[State, Event]] = []

    async def _start(self, payload: str) -> str:
        self.state = State.RUNNING
        return await steps.start_job(payload)

    async def _pause(self, payload: str) -> str:
        self.state = State.PAUSED
        return "paused:" + payload

    async def _resume(self, payload: str) -> str:
        self.state = State.RUNNING
        return "resumed:" + payload

    async def _stop(self, payload: str) -> str:
        self.state = State.DONE
        return "stopped:" + payload

    TABLE: dict[tuple[State, Event], Transition] = {
        (State.IDLE, Event.START): _start,
        (State.RUNNING, Event.PAUSE): _pause,
        (State.PAUSED, Event.RESUME): _resume,
        (State.RUNNING, Event.STOP): _stop,
        (State.PAUSED, Event.STOP): _stop,
    }

    async def fire(self, event: Event, payload: str) -> str:
        transition = self.TABLE.get((self.state, event))
        if transition is None:
            return f"ignored:{self.state.name}/{event.name}"
        self.history.append((self.state, event))
        return await transition(self, payload)


async def react(state: State, event: Event, payload: str) -> str:
    match (state, event):
        case (State.RUNNING, Event.PAUSE):
            return await steps.checkpoint(payload)
        case (State.IDLE, Event.START) | (State.PAUSED, Event.RESUME):
            return "go:" + payload
        case (_, Event.STOP):
            return "halt:" + payload
        case _:
            return "noop:" + payload
