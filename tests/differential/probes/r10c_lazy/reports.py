"""Reports whose loaders are built once, on first access, by functools.cached_property."""
import functools
from typing import Awaitable, Callable

from r10c_lazy.lazy import cheap_summary
from r10c_lazy.steps import render


class Report:
    def __init__(self, key: str, offline: bool = False) -> None:
        self.key = key
        self.offline = offline

    @functools.cached_property
    def loader(self) -> Callable[[], Awaitable[str]]:
        if self.offline:

            async def load_cached() -> str:
                return await cheap_summary(self.key)

            return load_cached

        async def load() -> str:
            return await render(self.key)

        return load

    @functools.cached_property
    def renderer(self) -> Callable[[str], Awaitable[str]]:
        return cheap_summary if self.offline else render
