"""A small FastAPI-like dependency resolver: ``Depends(provider)`` markers in default arguments are resolved by
inspecting signatures, recursively, with per-request caching and test overrides."""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable


class Depends:
    def __init__(self, dependency: Callable[..., Any], *, use_cache: bool = True) -> None:
        self.dependency = dependency
        self.use_cache = use_cache

    def __repr__(self) -> str:
        return f"Depends({getattr(self.dependency, '__name__', self.dependency)!r})"


dependency_overrides: dict[Callable[..., Any], Callable[..., Any]] = {}


async def solve(call: Callable[..., Any], params: dict[str, Any], cache: dict[Any, Any],
                overrides: dict[Callable[..., Any], Callable[..., Any]]) -> dict[str, Any]:
    """Keyword arguments for *call*: request parameters by name, dependencies by calling their providers."""
    values: dict[str, Any] = {}
    for name, parameter in inspect.signature(call).parameters.items():
        if isinstance(parameter.default, Depends):
            marker = parameter.default
            provider = overrides.get(marker.dependency, marker.dependency)
            if marker.use_cache and provider in cache:
                values[name] = cache[provider]
                continue
            sub_values = await solve(provider, params, cache, overrides)
            value = provider(**sub_values)
            if inspect.isawaitable(value):
                value = await value
            if marker.use_cache:
                cache[provider] = value
            values[name] = value
        elif name in params:
            values[name] = params[name]
    return values


async def resolve(handler: Callable[..., Any], overrides: dict | None = None, **params: Any) -> Any:
    """Call *handler* the way a router would: dependencies solved, then the handler awaited."""
    active = {**dependency_overrides, **(overrides or {})}
    values = await solve(handler, params, {}, active)
    result = handler(**values)
    if inspect.isawaitable(result):
        result = await result
    return result


def inject(handler: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator form: the wrapped handler takes only its request parameters."""
    @functools.wraps(handler)
    async def wrapper(**params: Any) -> Any:
        return await resolve(handler, **params)
    return wrapper
