"""Enums with behaviour: methods that branch on the member, and members whose values are callables."""
from __future__ import annotations

from enum import Enum, member, unique

from r9b_enums_states import steps


@unique
class Channel(Enum):
    EMAIL = "email"
    SMS = "sms"
    PUSH = "push"

    @classmethod
    def parse(cls, label: str) -> Channel:
        return cls(label.lower())

    @property
    def is_urgent(self) -> bool:
        return self in (Channel.SMS, Channel.PUSH)

    async def deliver(self, message: str) -> str:
        if self is Channel.SMS:
            return await steps.send_sms(message)
        return f"{self.value}:{message}"


class Operation(Enum):
    UPLOAD = member(steps.upload)
    PREVIEW = member(steps.preview)

    async def __call__(self, payload: str) -> str:
        return await self.value(payload)

    @property
    def label(self) -> str:
        return self.name.lower()
