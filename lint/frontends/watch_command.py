"""``steplint check --watch``: lint, then lint again whenever a linted file or the configuration changes, as ruff's
``--watch`` does.

Each round clears the screen (on a terminal), says ``Starting linter in watch
mode...`` (later ``File change detected...``), then ``[12:01:02] Found 2
findings. Watching for file changes.`` and the findings, without the closing
summary. A round is an ordinary run with the cache, so only the files whose
content changed are summarized again and only the findings that depend on them
are made again (``steplint.run``'s cache). Changes are found by polling, with
the standard library: every ``POLL_SECONDS``, the files a run would lint
(created and deleted ones too) and the configuration file are compared by
modification time and size. Ctrl-C stops it the way it stops ruff: the process
ends by SIGINT (a shell shows 130), without a traceback.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from dataclasses import replace

import click

from steplint.frontends.check_options import CheckOptions
from steplint.frontends.exit_status import UsageError

POLL_SECONDS = 0.5
CLEAR_SCREEN = "\033[2J\033[3J\033[H"


def run_watch(options: CheckOptions) -> int:
    from steplint.frontends.check_command import run_check

    if options.reads_stdin:
        raise UsageError("--watch lints files and waits for them to change: it cannot read standard input")
    if options.add_noqa or options.diff or options.show_settings or options.show_files:
        flag = next(name for name, given in (("--add-noqa", options.add_noqa), ("--diff", options.diff),
                                             ("--show-settings", options.show_settings),
                                             ("--show-files", options.show_files)) if given)
        raise UsageError(f"--watch cannot be combined with {flag}")
    each_round = replace(options, watch=True, quiet=True)  # the round's header says the count, not a summary
    interrupted: list[int] = []

    def _interrupt(signum: int, frame: object) -> None:
        # Noted as well as raised: a KeyboardInterrupt raised where Python only reports it (a __del__, a weakref
        # or GC callback) is swallowed, and the loop must still end at its next check.
        interrupted.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, _interrupt)
    try:
        said = "Starting linter in watch mode..."
        while not interrupted:
            if sys.stdout.isatty():
                click.echo(CLEAR_SCREEN, nl=False)
            if not options.silent:
                click.echo(said)
            seen = _watched(options)  # before the round: a change made while it runs starts the next one
            try:
                run_check(each_round)
            except UsageError as exc:  # a configuration saved half-way: say so and wait for the next change
                click.echo(f"steplint: error: {exc}", err=True)
            sys.stdout.flush()
            while not interrupted and _watched(options) == seen:
                time.sleep(POLL_SECONDS)
            said = "File change detected..."
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        sys.stdout.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)  # end as ruff does on Ctrl-C: by the signal
        return 130  # where the signal does not end the process (Windows)


def _watched(options: CheckOptions) -> dict[str, tuple[int, int]]:
    """(modification time, size) of each file a run would lint, and of the configuration files that apply."""
    from steplint.api import files_to_lint
    from steplint.frontends.check_command import settings_for

    try:
        settings = settings_for(options)
        files = files_to_lint(list(options.paths), settings, options.resolved(settings).force_exclude)
        watched = [*files, *([str(settings.config_file)] if settings.config_file is not None else [])]
    except (UsageError, ValueError):  # a broken configuration: watch it until it is mended
        watched = [str(path) for path in _config_candidates(options)]
    found = {}
    for path in watched:
        try:
            info = os.stat(path)
        except OSError:
            continue
        found[path] = (info.st_mtime_ns, info.st_size)
    return found


def _config_candidates(options: CheckOptions) -> list:
    from pathlib import Path

    start = options.settings_start.resolve()
    folders = [start, *start.parents] if start.is_dir() else list(start.parents)
    return [folder / "pyproject.toml" for folder in folders] + ([Path(options.config_file)] if options.config_file else [])
