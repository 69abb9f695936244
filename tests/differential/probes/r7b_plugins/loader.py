"""Imports the enabled plugin modules by name, in a loop."""
import importlib

ENABLED_PLUGINS = ["r7b_plugins.plugins.slack", "r7b_plugins.plugins.email"]
DISABLED_PLUGINS = ["r7b_plugins.plugins.sms"]


def load_plugins(names=ENABLED_PLUGINS) -> list:  # noqa: ANN001
    loaded = []
    for name in names:
        loaded.append(importlib.import_module(name))
    return loaded


def resolve(spec: str):  # noqa: ANN201
    module_name, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module_name), attr)


SHORT_NAMES = ("pager",)


def load_short(names=SHORT_NAMES) -> None:  # noqa: ANN001
    for short in names:
        importlib.import_module(f"{__package__}.plugins.{short}")
