"""Settings without pydantic: fields read from the environment with defaults, once, at import time."""
from __future__ import annotations

import dataclasses
import os


@dataclasses.dataclass(frozen=True)
class Settings:
    database_backend: str = dataclasses.field(default_factory=lambda: os.environ.get("R8A_REPOS_BACKEND", "postgres"))
    default_shipping: str = dataclasses.field(default_factory=lambda: os.environ.get("R8A_REPOS_SHIPPING", "express"))
    plugin: str = dataclasses.field(default_factory=lambda: os.environ.get("R8A_REPOS_PLUGIN", "loyalty"))
    debug: bool = dataclasses.field(default_factory=lambda: os.environ.get("R8A_REPOS_DEBUG", "0") == "1")

    def override(self, **changes: object) -> "Settings":
        return dataclasses.replace(self, **changes)


settings = Settings()
