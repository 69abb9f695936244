"""Plugins registered by a metaclass as their classes are created."""
from __future__ import annotations

from typing import Any, ClassVar

from r9b_metaclass import steps


class PluginMeta(type):
    registry: ClassVar[dict[str, type]] = {}

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> PluginMeta:
        cls = super().__new__(mcls, name, bases, namespace)
        key = kwargs.get("key") or namespace.get("key")
        if key:
            mcls.registry[key] = cls
        return cls

    def __init__(cls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(name, bases, namespace)


class Plugin(metaclass=PluginMeta):
    key: ClassVar[str] = ""

    @classmethod
    def create(cls, key: str) -> Plugin:
        return PluginMeta.registry[key]()

    async def run(self, payload: str) -> str:
        return "noop:" + payload


class ExportPlugin(Plugin, key="export"):
    async def run(self, payload: str) -> str:
        return await steps.export_data(payload)


class PreviewPlugin(Plugin):
    key = "preview"

    async def run(self, payload: str) -> str:
        return "preview:" + payload[:10]


class CommandMeta(type):
    """Unknown class attributes resolve through the class's command table."""

    def __getattr__(cls, name: str) -> Any:
        try:
            return cls.__dict__["commands"][name]
        except KeyError:
            raise AttributeError(name) from None


class Commands(metaclass=CommandMeta):
    commands = {"deploy": steps.deploy, "rollback": steps.rollback}
