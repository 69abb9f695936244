"""A service locator: factories registered by type or by string key, optionally as singletons."""
from __future__ import annotations

from typing import Any, Callable


class Container:
    def __init__(self) -> None:
        self._factories: dict[Any, Callable[["Container"], Any]] = {}
        self._singletons: set[Any] = set()
        self._instances: dict[Any, Any] = {}

    def register(self, key: Any, factory: Callable[["Container"], Any], *, singleton: bool = False) -> None:
        self._factories[key] = factory
        if singleton:
            self._singletons.add(key)

    def provides(self, key: Any, *, singleton: bool = False) -> Callable[[Callable], Callable]:
        def decorator(factory: Callable[["Container"], Any]) -> Callable[["Container"], Any]:
            self.register(key, factory, singleton=singleton)
            return factory
        return decorator

    def resolve(self, key: Any) -> Any:
        if key in self._instances:
            return self._instances[key]
        try:
            factory = self._factories[key]
        except KeyError:
            raise LookupError(f"nothing registered for {key!r}") from None
        instance = factory(self)
        if key in self._singletons:
            self._instances[key] = instance
        return instance

    __getitem__ = resolve
