"""The configuration keys that set what a command-line flag sets, under ruff's names and with ruff's meaning.

``fix = true`` is ``--fix``, ``output-format = "json"`` is ``--output-format json``
and so on: the flag, when given, wins. ``[tool.steplint.lint]`` holds the
keys ruff keeps in ``[tool.ruff.lint]`` (the selection, the per-file ignores,
``unfixable``); they may stay at the top level too, and the ``lint`` table's win.
``--config KEY=VALUE`` is one TOML line read as if it were in the file.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

#: Keys ruff keeps under ``[tool.ruff.lint]``: the same keys go under ``[tool.steplint.lint]``.
LINT_TABLE_KEYS = frozenset({"select", "extend-select", "ignore", "per-file-ignores", "extend-per-file-ignores", "unfixable"})
_FLAG_KEYS = {"fix": "fix", "unsafe-fixes": "unsafe_fixes", "force-exclude": "force_exclude"}
COMMAND_KEYS = frozenset({*_FLAG_KEYS, "include", "output-format", "cache-dir", "unfixable"})


class InlineSettingError(ValueError):
    pass


def flattened(table: dict, where: str) -> dict:
    """``table`` with its ``lint`` sub-table's keys moved to the top (they win over the top level's); ValueError names
    a key that does not belong in ``lint``."""
    lint = table.get("lint")
    if lint is None:
        return table
    if not isinstance(lint, dict):
        raise ValueError(f"{where}: [tool.steplint.lint] must be a table")
    stray = sorted(set(lint) - LINT_TABLE_KEYS)
    if stray:
        raise ValueError(f"{where}: unknown key '{stray[0]}' in [tool.steplint.lint] (it holds: {', '.join(sorted(LINT_TABLE_KEYS))})")
    return {**{k: v for k, v in table.items() if k != "lint"}, **lint}


def command_values(table: dict, config_file: Path) -> dict[str, object]:
    """The Settings fields the command keys of ``table`` set (ValueError, naming the key, on a bad value)."""
    values: dict[str, object] = {}
    for key, name in _FLAG_KEYS.items():
        if key in table:
            if not isinstance(table[key], bool):
                raise ValueError(f"'{key}' must be true or false")
            values[name] = table[key]
    if "output-format" in table:
        if not isinstance(table["output-format"], str):
            raise ValueError("'output-format' must be the name of a format, e.g. \"json\"")
        values["output_format"] = table["output-format"]
    if "cache-dir" in table:
        if not isinstance(table["cache-dir"], str):
            raise ValueError("'cache-dir' must be a path")
        # Relative to the configuration's folder, as ruff's is to the project's root.
        values["cache_dir"] = Path(os.path.normpath(config_file.parent / os.path.expanduser(table["cache-dir"])))
    return values


def inline_table(text: str) -> dict:
    """``--config 'KEY = VALUE'``: one TOML line, e.g. ``target-version = "1.21"`` or ``lint.select = ["STP0"]``."""
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InlineSettingError(
            f"--config {text!r} is neither a file nor a TOML 'key = value' setting ({exc}); "
            "strings need quotes: --config 'target-version = \"1.21\"'"
        ) from None
    if not parsed:
        raise InlineSettingError(f"--config {text!r} sets nothing: give a file or a 'key = value' setting")
    return parsed


def merged_tables(base: dict, *overrides: dict) -> dict:
    """``base`` with each override's keys on top; a ``lint`` table merges key by key."""
    merged = dict(base)
    for override in overrides:
        for key, value in override.items():
            if key == "lint" and isinstance(value, dict) and isinstance(merged.get("lint"), dict):
                merged["lint"] = {**merged["lint"], **value}
            else:
                merged[key] = value
    return merged
