"""A name -> processor registry filled by a decorator at import time."""
from typing import Awaitable, Callable

Processor = Callable[[str], Awaitable[str]]

_PROCESSORS: dict[str, Processor] = {}


def register(name: str) -> Callable[[Processor], Processor]:
    def decorator(func: Processor) -> Processor:
        _PROCESSORS[name] = func
        return func

    return decorator


def resolve(name: str, default: Processor | None = None) -> Processor:
    found = _PROCESSORS.get(name, default)
    if found is None:
        raise KeyError(name)
    return found
