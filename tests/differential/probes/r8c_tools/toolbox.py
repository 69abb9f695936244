"""A hand-written @tool decorator: functions are registered with JSON-schema-ish metadata into a toolbox."""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Callable

_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


@dataclass
class ToolSpec:
    name: str
    fn: Callable[..., Any]
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)

    def to_openai(self) -> dict[str, Any]:
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.parameters}}


class Toolbox(dict):
    """name -> ToolSpec."""

    def describe(self) -> list[dict[str, Any]]:
        return [spec.to_openai() for spec in self.values()]

    def get_tool(self, name: str) -> ToolSpec:
        try:
            return self[name]
        except KeyError:
            raise LookupError(f"model asked for unknown tool {name!r}") from None


TOOLS = Toolbox()


def _schema_for(fn: Callable[..., Any]) -> dict[str, Any]:
    properties, required = {}, []
    for param in inspect.signature(fn).parameters.values():
        properties[param.name] = {"type": _JSON_TYPES.get(param.annotation, "string")}
        if param.default is inspect.Parameter.empty:
            required.append(param.name)
    return {"type": "object", "properties": properties, "required": required}


def tool(name: str | None = None, *, description: str = "", box: Toolbox = TOOLS):
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        spec_name = name or fn.__name__
        box[spec_name] = ToolSpec(spec_name, fn, description or (fn.__doc__ or "").strip(), _schema_for(fn))
        return fn
    return register


def with_retries(fn: Callable[..., Any], attempts: int = 2) -> Callable[..., Any]:
    """Wrap a tool so a transient failure is retried (the wrapper is a plain coroutine function)."""
    async def retrying(**kwargs: Any) -> Any:
        last: Exception | None = None
        for _ in range(attempts):
            try:
                return await fn(**kwargs)
            except ConnectionError as error:
                last = error
        raise RuntimeError("tool kept failing") from last
    retrying.__name__ = getattr(fn, "__name__", "retrying")
    return retrying
