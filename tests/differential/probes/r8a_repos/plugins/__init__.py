"""Plugins are modules of this package exposing ``on_order_placed`` and ``setup(hooks)``."""
import importlib
from types import ModuleType


def load_plugin(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name}")
