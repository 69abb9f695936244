"""Settings from ``[tool.steplint]`` in the nearest pyproject.toml, and from the CLI.

The file is parsed with tomllib only. Unknown keys and bad values are errors
that name the key; the CLI turns them into exit code 2. Without a
``target-version``, the project's own declaration of agent-framework-core
decides (``steplint.config.project_version``); ``target_version_source`` says why.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from steplint.config.project_version import ReleaseTarget, release_target
from steplint.config.toml_files import load_toml
from steplint.core.framework_versions import Version, checked_target

#: Folders and files never linted unless named (``exclude`` replaces them, ``extend-exclude`` adds).
DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".venv", "venv", ".env", "env", "build", "dist", "__pycache__",
    "node_modules", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".steplint_cache",
    "*.egg-info", "site-packages",
)
#: The default ``max-file-size``: generated files beyond it are not worth a parse.
DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    extend_exclude: tuple[str, ...] = ()
    target_version: Version | None = None  # one release forced by configuration; None: the project's declaration
    target_version_source: str = ""  # where the target came from, for -v
    release_target: ReleaseTarget | None = None  # what the project declares where the run starts; None: the newest
    releases_by_folder: tuple[tuple[str, ReleaseTarget], ...] = ()  # each linted folder's, once files are found
    target_python: tuple[int, int] | None = None  # None: the running interpreter's
    target_python_source: str = ""
    max_file_size: int = DEFAULT_MAX_FILE_SIZE  # bytes; a larger file is STP900, 0: no limit
    respect_gitignore: bool = True  # .gitignore, .ignore and .git/info/exclude leave files out of discovery
    config_file: Path | None = None
    project_root: Path = field(default_factory=Path.cwd)

    def with_overrides(self, **overrides: object) -> "Settings":
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})  # type: ignore[arg-type]


_LIST_KEYS = {"select", "extend-select", "ignore", "exclude", "extend-exclude"}
_KNOWN_KEYS = _LIST_KEYS | {"per-file-ignores", "target-version", "target-python", "max-file-size", "respect-gitignore", "extend"}


def find_pyproject(start: Path) -> tuple[Path | None, Path | None]:
    """(the nearest pyproject.toml with [tool.steplint], the nearest pyproject.toml at all)."""
    nearest_any: Path | None = None
    directory = start if start.is_dir() else start.parent
    for candidate_dir in (directory, *directory.parents):
        candidate = candidate_dir / "pyproject.toml"
        if candidate.is_file():
            nearest_any = nearest_any or candidate
            try:
                if "[tool.steplint" in candidate.read_text(encoding="utf-8", errors="replace"):
                    return candidate, nearest_any
            except OSError:
                continue
    return None, nearest_any


def read_toml(path: Path) -> dict:
    try:
        return load_toml(path)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except UnicodeDecodeError as exc:  # tomllib decodes before it parses
        raise ConfigError(f"{path}: invalid TOML: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except RecursionError:  # tomllib nests arrays and inline tables by recursion
        raise ConfigError(f"{path}: invalid TOML: values nested too deeply to read") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None


def load_settings(config_file: Path | None, start: Path, isolated: bool = False) -> Settings:
    """The settings for linting ``start``; ``isolated`` reads no file at all (the newest target version)."""
    if isolated:
        return Settings(
            project_root=Path(os.path.abspath(start if start.is_dir() else start.parent)),
            target_version_source="the newest: --isolated reads no project file",
        )
    nearest_any: Path | None = None
    if config_file is None:
        config_file, nearest_any = find_pyproject(Path(os.path.abspath(start)))
    if config_file is None:
        root = nearest_any.parent if nearest_any else Path(os.path.abspath(start if start.is_dir() else start.parent))
        return with_detected_target(Settings(project_root=root), start)
    data = read_toml(config_file)
    table = data.get("tool", {}).get("steplint", {}) if config_file.name == "pyproject.toml" else data.get(
        "tool", {}
    ).get("steplint", data)
    return with_detected_target(settings_from_table(table, config_file), start)


def with_detected_target(settings: Settings, start: Path) -> Settings:
    """``settings`` with the target versions the project declares, unless the configuration sets them."""
    if settings.target_version is None:
        target = release_target(Path(os.path.abspath(start)))
        if target.problem:
            raise ConfigError(target.problem)
        settings = replace(settings, release_target=target, target_version_source=target.source)
    if settings.target_python is None:
        found = detect_python(Path(os.path.abspath(start)))
        if found is not None:
            settings = replace(settings, target_python=found[0], target_python_source=found[1])
    return settings


def parse_python_version(text: str) -> tuple[int, int]:
    """``3.11`` -> (3, 11). Raises ValueError on anything else."""
    match = re.fullmatch(r"\s*(\d+)\.(\d+)(?:\.\d+)?\s*", text)
    if match is None:
        raise ValueError(f"not a Python version such as 3.11: {text!r}")
    return int(match.group(1)), int(match.group(2))


def lowest_python(spec: str) -> tuple[int, int] | None:
    """The lowest Python ``requires-python`` (``>=3.10,<4``, ``~=3.11``, ``^3.10``, ``==3.12.*``) allows."""
    lowest: tuple[int, int] | None = None
    for part in spec.split(","):
        match = re.match(r"\s*(>=|~=|==|\^|>)?\s*(\d+)\.(\d+)", part)
        if match is None or (match.group(1) is None and not part.strip()[0].isdigit()):
            continue
        version = (int(match.group(2)), int(match.group(3)) + (1 if match.group(1) == ">" else 0))
        if match.group(1) in (">=", "~=", "==", "^", ">", None):
            lowest = version if lowest is None or version > lowest else lowest
    return lowest


def detect_python(start: Path) -> tuple[tuple[int, int], str] | None:
    """The lowest Python the nearest ``pyproject.toml`` with ``requires-python`` allows, with where it says so."""
    directory = start if start.is_dir() else start.parent
    for folder in (directory, *directory.parents):
        candidate = folder / "pyproject.toml"
        if not candidate.is_file():
            continue
        try:
            data = read_toml(candidate)
        except ConfigError:
            return None
        spec = data.get("project", {}).get("requires-python") if isinstance(data.get("project"), dict) else None
        if isinstance(spec, str):
            found = lowest_python(spec)
            if found is not None:
                return found, f"from {candidate} [project].requires-python: {spec}"
        if (folder / ".git").exists():
            return None
    return None


def settings_from_table(table: dict, config_file: Path, _chain: tuple[Path, ...] = ()) -> Settings:
    if not isinstance(table, dict):
        raise ConfigError(f"{config_file}: [tool.steplint] must be a table")
    if "extend" in table:
        table = _extended(table, config_file, _chain)
    unknown = sorted(set(table) - _KNOWN_KEYS)
    if unknown:
        close = difflib.get_close_matches(unknown[0], sorted(_KNOWN_KEYS), n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else f" (known keys: {', '.join(sorted(_KNOWN_KEYS))})"
        raise ConfigError(f"{config_file}: unknown key '{unknown[0]}' in [tool.steplint]{hint}")
    values: dict[str, object] = {}
    for key in _LIST_KEYS & set(table):
        values[key.replace("-", "_")] = _string_list(table[key], key, config_file)
    if "per-file-ignores" in table:
        raw = table["per-file-ignores"]
        if not isinstance(raw, dict):
            raise ConfigError(f"{config_file}: 'per-file-ignores' must be a table of glob = [codes]")
        values["per_file_ignores"] = {
            str(pattern): _string_list(codes, f"per-file-ignores.{pattern}", config_file) for pattern, codes in raw.items()
        }
    if "target-version" in table:
        raw_version = table["target-version"]
        if not isinstance(raw_version, str):  # 1.20 as a TOML number is the float 1.2
            raise ConfigError(f"{config_file}: 'target-version' must be a quoted version such as \"1.21\", not {raw_version!r}")
        try:
            values["target_version"] = checked_target(str(raw_version))
            values["target_version_source"] = f"from {config_file} [tool.steplint] target-version"
        except ValueError as exc:
            raise ConfigError(f"{config_file}: 'target-version': {exc}") from None
    if "target-python" in table:
        raw_python = table["target-python"]
        try:
            if not isinstance(raw_python, str):
                raise ValueError
            values["target_python"] = parse_python_version(raw_python)
            values["target_python_source"] = f"from {config_file} [tool.steplint] target-python"
        except ValueError:
            raise ConfigError(f"{config_file}: 'target-python' must be a quoted version such as \"3.11\", not {raw_python!r}") from None
    if "respect-gitignore" in table:
        if not isinstance(table["respect-gitignore"], bool):
            raise ConfigError(f"{config_file}: 'respect-gitignore' must be true or false")
        values["respect_gitignore"] = table["respect-gitignore"]
    if "max-file-size" in table:
        try:
            values["max_file_size"] = parse_size(table["max-file-size"])
        except ValueError as exc:
            raise ConfigError(f"{config_file}: 'max-file-size' {exc}") from None
    return Settings(config_file=config_file, project_root=config_file.parent, **values)  # type: ignore[arg-type]


def _extended(table: dict, config_file: Path, chain: tuple[Path, ...]) -> dict:
    """``extend = "../base.toml"``: the base file's table (its own ``extend`` first), overridden key by key.

    The base's ``per-file-ignores`` patterns stay relative to the base file's folder (made absolute here).
    """
    raw = table["extend"]
    if not isinstance(raw, str):
        raise ConfigError(f"{config_file}: 'extend' must be the path of another configuration file")
    base_file = (config_file.parent / raw).resolve()
    if base_file in chain or base_file == config_file.resolve():
        raise ConfigError(f"{config_file}: 'extend' makes a loop through {base_file}")
    if not base_file.is_file():
        raise ConfigError(f"{config_file}: 'extend' names {raw}, which does not exist")
    data = read_toml(base_file)
    base = data.get("tool", {}).get("steplint", {}) if base_file.name == "pyproject.toml" else data.get("tool", {}).get("steplint", data)
    if not isinstance(base, dict):
        raise ConfigError(f"{base_file}: [tool.steplint] must be a table")
    if "extend" in base:
        base = _extended(base, base_file, (*chain, config_file.resolve()))
    base = dict(base)
    if isinstance(base.get("per-file-ignores"), dict):
        base["per-file-ignores"] = {
            _anchored(pattern, base_file.parent): codes for pattern, codes in base["per-file-ignores"].items()
        }
    merged = {**base, **{k: v for k, v in table.items() if k != "extend"}}
    # The selection chains as in ruff: a file's own ``select`` starts over, else its ``extend-select``
    # and ``ignore`` add to the base's (a code it selects again is no longer ignored).
    if "select" not in table:
        added = _listed(table.get("extend-select"))
        merged["extend-select"] = _listed(base.get("extend-select")) + added
        merged["ignore"] = [c for c in _listed(base.get("ignore")) if c not in added] + _listed(table.get("ignore"))
    else:
        for key in ("extend-select", "ignore"):
            if key not in table:
                merged.pop(key, None)
    if "exclude" not in table:
        merged["extend-exclude"] = _listed(base.get("extend-exclude")) + _listed(table.get("extend-exclude"))
    if isinstance(base.get("per-file-ignores"), dict) and isinstance(table.get("per-file-ignores"), dict):
        merged["per-file-ignores"] = {**base["per-file-ignores"], **table["per-file-ignores"]}
    return merged


def _anchored(pattern: str, folder: Path) -> str:
    """A base file's per-file-ignores pattern, made absolute from its folder; a bare name (``test_*.py``) matches
    anywhere and stays as it is."""
    if "/" not in pattern.strip().rstrip("/") or pattern.startswith("/"):
        return pattern
    tail = "/" if pattern.endswith("/") else ""
    return Path(os.path.normpath(folder / pattern)).as_posix() + tail


def _listed(value: object) -> list:
    """A list-valued key as a list (a lone string is one item; a bad value is left for ``_string_list`` to report)."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value) if isinstance(value, list) else [value]


def _string_list(value: object, key: str, config_file: Path) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{config_file}: '{key}' must be a list of strings")
    return tuple(value)


_SIZE = re.compile(r"(?P<number>\d+)\s*(?P<unit>(?:[kmg]i?)?b?)", re.IGNORECASE)
_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


def parse_size(value: object) -> int:
    """Bytes for ``max-file-size``: an integer, or a string such as "10MB", "512 KiB" (1024-based); 0 means no limit.

    Raises ``ValueError`` with what is accepted.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    match = _SIZE.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None:
        raise ValueError(f'must be a number of bytes or a size such as "10MB" or "512KB" (0: no limit), not {value!r}')
    return int(match.group("number")) * _UNITS[match.group("unit").lower()[:1]]
