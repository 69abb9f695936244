"""``--show-settings``: the settings a run resolved, and where each came from, as text or JSON."""

from __future__ import annotations

import json
import sys

from steplint.catalog.selection import selected_rules
from steplint.config.settings import Settings
from steplint.core.framework_versions import NEWEST, format_version


def settings_record(settings: Settings, linted: str) -> dict:
    """The resolved settings for linting ``linted``, one key per setting."""
    version = settings.target_version or NEWEST
    declared = settings.release_target if settings.target_version is None else None
    python = settings.target_python or sys.version_info[:2]
    return {
        "linted": linted,
        "config_file": str(settings.config_file) if settings.config_file is not None else None,
        "project_root": str(settings.project_root),
        "target_version": declared.shown() if declared is not None else format_version(version),
        "target_version_source": settings.target_version_source or "the newest steplint knows",
        "target_releases": [format_version(v) for v in (declared.releases if declared is not None else (version,))],
        "target_versions_below": _targets_below(settings),
        "target_python": f"{python[0]}.{python[1]}",
        "target_python_source": settings.target_python_source or "the running interpreter",
        "select": list(settings.select) if settings.select is not None else None,
        "extend_select": list(settings.extend_select),
        "ignore": list(settings.ignore),
        "per_file_ignores": {pattern: list(codes) for pattern, codes in settings.per_file_ignores.items()},
        "enabled_rules": [f"{rule.code} {rule.name}" for rule in selected_rules(settings)],
        "exclude": list(settings.exclude),
        "extend_exclude": list(settings.extend_exclude),
        "respect_gitignore": settings.respect_gitignore,
        "max_file_size": settings.max_file_size,
        # The keys that set what a flag sets (a flag given on the command line wins over them).
        "include": list(settings.include) if settings.include is not None else None,
        "force_exclude": settings.force_exclude,
        "unfixable": list(settings.unfixable),
        "fix": bool(settings.fix),
        "unsafe_fixes": bool(settings.unsafe_fixes),
        "output_format": settings.output_format,
        "cache_dir": str(settings.cache_dir) if settings.cache_dir is not None else None,
    }


def _targets_below(settings: Settings) -> list[dict]:
    """Each other target a folder under the linted path declares for its files (``-v`` names them too)."""
    if settings.target_version is not None:
        return []
    found: dict[tuple, dict] = {}
    for _, target in settings.releases_by_folder:
        if target != settings.release_target:
            found.setdefault((target.releases, target.source), {
                "target_version": target.shown(), "target_releases": [format_version(v) for v in target.releases],
                "source": target.source})
    return sorted(found.values(), key=lambda t: t["source"])


def as_settings_json(settings: Settings, linted: str) -> str:
    return json.dumps(settings_record(settings, linted), indent=2) + "\n"


def as_settings_text(settings: Settings, linted: str) -> str:
    record = settings_record(settings, linted)
    select = record["select"]
    lines = [
        f"Settings for: {linted}",
        f"config file: {record['config_file'] or 'none (the defaults)'}",
        f"project root: {record['project_root']}",
        f"target-version: {record['target_version']} ({record['target_version_source']})",
        *(f"target-version for files below it: {t['target_version']} ({t['source']})"
          for t in record["target_versions_below"]),
        f"target-python: {record['target_python']} ({record['target_python_source']})",
        f"select: {_listed(select) if select is not None else '(the default set)'}",
        f"extend-select: {_listed(record['extend_select'])}",
        f"ignore: {_listed(record['ignore'])}",
        "per-file-ignores:" + ("" if record["per_file_ignores"] else " []"),
        *(f"    {pattern} = {_listed(codes)}" for pattern, codes in record["per_file_ignores"].items()),
        f"enabled rules ({len(record['enabled_rules'])}):",
        *(f"    {rule}" for rule in record["enabled_rules"]),
        f"exclude: {_listed(record['exclude'])}",
        f"extend-exclude: {_listed(record['extend_exclude'])}",
        f"respect-gitignore: {'true' if record['respect_gitignore'] else 'false'}",
        f"max-file-size: {record['max_file_size']} bytes" + (" (no limit)" if not record["max_file_size"] else ""),
        f"include: {_listed(record['include']) if record['include'] is not None else '(every .py and .pyi file)'}",
        f"force-exclude: {_flag(record['force_exclude'])}",
        f"unfixable: {_listed(record['unfixable'])}",
        f"fix: {_flag(record['fix'])}",
        f"unsafe-fixes: {_flag(record['unsafe_fixes'])}",
        f"output-format: {record['output_format'] or '(text)'}",
        f"cache-dir: {record['cache_dir'] or '(.steplint_cache in the project root)'}",
    ]
    return "\n".join(lines) + "\n"


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _listed(values: list[str]) -> str:
    return "[" + ", ".join(values) + "]"
