"""The files a run over paths reads: those under the paths, less the settings' excludes and the ignore files."""

from __future__ import annotations

from steplint.config.settings import Settings
from steplint.source.discovery import Excluder, discover
from steplint.source.ignore_files import IgnoreFiles


def excluder_for(settings: Settings) -> Excluder:
    ignore_files = IgnoreFiles() if settings.respect_gitignore else None
    patterns = tuple(settings.exclude) + tuple(settings.extend_exclude)
    return Excluder(patterns, settings.project_root, ignore_files, settings.include)


def files_to_lint(paths: list[str], settings: Settings, force_exclude: bool = False) -> list[str]:
    """The files a run over ``paths`` reads (``--show-files``): excludes and ignore files applied, each once."""
    return discover(paths, excluder_for(settings), force_exclude)
