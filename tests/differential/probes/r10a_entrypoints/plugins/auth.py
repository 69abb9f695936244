"""An auth plugin exposed through a classmethod factory (`module:Class.method`)."""
from typing import Any

from r10a_entrypoints import steps


class TokenAuth:
    def __init__(self, verify: bool) -> None:
        self.verify = verify

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> "TokenAuth":
        return cls(bool(settings.get("verify", True)))

    async def authenticate(self, token: str) -> str:
        if self.verify:
            return await steps.verify_token(token)
        return "trusted:" + token
