"""Requests, responses and an ASGI-like application built from a list of middleware classes."""
from __future__ import annotations

import dataclasses
import functools
from typing import Awaitable, Callable


@dataclasses.dataclass
class Request:
    path: str
    user: str
    headers: dict[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Response:
    body: str
    status: int = 200
    headers: dict[str, str] = dataclasses.field(default_factory=dict)


Endpoint = Callable[[Request], Awaitable[Response]]


def build_app(endpoint: Endpoint, middleware: list[type]) -> Endpoint:
    """The first middleware in the list is the outermost, as in Starlette."""
    return functools.reduce(lambda app, cls: cls(app), reversed(middleware), endpoint)
