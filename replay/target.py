"""A workflow named as ``module:attribute`` (uvicorn's app spec), imported from a folder."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any


class TargetError(Exception):
    """The target cannot be imported or is not a workflow: one line that says which."""


def load_target(spec: str, folder: Path | None = None) -> Any:
    """The ``@workflow`` definition *spec* names, imported with *folder* (default: the current one) first on sys.path."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise TargetError(f"{spec!r} is not module:attribute (e.g. myapp.flows:pipeline)")
    root = str((folder or Path.cwd()).resolve())
    if root not in sys.path:
        sys.path.insert(0, root)
    try:
        module = importlib.import_module(module_name)
    except Exception as error:
        raise TargetError(f"cannot import {module_name} from {root}: {type(error).__name__}: {error}") from error
    value: Any = module
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise TargetError(f"{module_name} has no attribute {attribute}")
        value = getattr(value, part)
    if not callable(getattr(value, "build", None)) and not callable(getattr(value, "run", None)):
        raise TargetError(f"{spec} is a {type(value).__name__}, not a @workflow definition")
    return value


def spec_of(definition: Any) -> str:
    """The ``module:attribute`` a ``@workflow`` definition is reachable by (its function's module and name)."""
    return f"{definition.__module__}:{definition.__name__}"
