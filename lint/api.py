"""The public entry points: lint paths or a buffer, and load the settings for them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from steplint.catalog.selection import check_selectors
from steplint.config import settings as config
from steplint.config.settings import Settings
from steplint.run.checking import analyze
from steplint.run.pipeline import LintRun
from steplint.run.results import RunResult
from steplint.run.run_files import files_to_lint
from steplint.summaries.file_summary import summarize_source

__all__ = ["files_to_lint", "lint_paths", "lint_source", "load_settings"]

if TYPE_CHECKING:
    from typing import Callable

    from steplint.core.summary import ModuleSummary
    from steplint.run.cache import Cache


def load_settings(config_file: Path | None, start: Path, isolated: bool = False, inline: tuple[dict, ...] = ()) -> Settings:
    """The settings for linting ``start`` (``config.settings.load_settings``), with every rule selector checked.

    ``inline``: the tables of ``--config 'key = value'``. Raises ``ConfigError`` for a bad file, key, value or selector.
    """
    settings = config.load_settings(config_file, start, isolated, inline)
    check_selectors(settings, str(settings.config_file) if settings.config_file is not None else "")
    return settings


def lint_paths(
    paths: list[str],
    settings: Settings,
    force_exclude: bool = False,
    use_noqa: bool = True,
    *,
    jobs: int = 1,
    cache: "Cache | None" = None,
    prefilter: bool = True,
) -> RunResult:
    """Lint files and folders: ``jobs`` processes build summaries, ``cache`` remembers them.

    The prefilter skips files found in folders that cannot hold a finding
    (``steplint.run.prefilter``); files named in ``paths`` are always analyzed.
    """
    run = LintRun(settings, use_noqa=use_noqa, jobs=jobs, cache=cache, prefilter=prefilter)
    result = run.run(paths, force_exclude)
    result.stats = run.stats
    return result


def lint_source(
    data: bytes, path: str, settings: Settings, use_noqa: bool = True,
    summarize: "Callable[[str], ModuleSummary] | None" = None, summary: ModuleSummary | None = None,
) -> RunResult:
    """Lint a buffer as the file ``path`` in its project (stdin, flake8, an editor's unsaved text).

    ``summarize`` reads the modules it imports (default: from disk; an editor prefers its open buffers).
    ``summary`` is ``data``'s, when the caller has made it already.
    """
    summary = summary if summary is not None else summarize_source(data, path)
    extra = {"summarize": summarize} if summarize is not None else {}
    return RunResult(analyze([summary], settings, use_noqa, sources={path: data}, **extra), 1, {path: summary})
