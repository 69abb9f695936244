"""``steplint check``'s command line, parsed once from click's values into one typed, frozen object.

Comma-separated lists are split here; values whose parsing depends on the
settings (``--target-version``, ``--target-python``) stay text until the
settings are resolved, so that their errors come in the order they always did.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Mapping, Sequence

from steplint.frontends.exit_status import UsageError


def codes(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(code.strip().upper() for code in value.split(",") if code.strip())


def patterns(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(p.strip() for p in value.split(",") if p.strip())


@dataclass(frozen=True)
class CheckOptions:
    paths: tuple[str, ...]  # "." when none was given
    reads_stdin: bool  # '-' alone, or --stdin-filename without paths
    stdin_filename: str | None = None
    # what is linted, and how the settings are found
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] | None = None
    force_exclude: bool = False
    respect_gitignore: bool | None = None
    config_file: str | None = None
    isolated: bool = False
    target_version: str | None = None
    target_python: str | None = None
    max_file_size: int | None = None
    disable_noqa: bool = False
    jobs: int | None = None
    no_cache: bool = False
    cache_dir: str | None = None
    # what is done with the findings
    show_settings: bool = False
    show_files: bool = False
    add_noqa: bool = False
    fix: bool = False
    diff: bool = False
    unsafe_fixes: bool = False
    # what is printed, and the exit status
    output_format: str = "text"
    output_file: str | None = None
    color: str = "auto"
    statistics: bool = False
    show_fixes: bool = False
    exit_zero: bool = False
    exit_non_zero_on_fix: bool = False
    verbose: bool = False
    quiet: bool = False
    silent: bool = False

    @classmethod
    def parse(cls, paths: Sequence[str], values: Mapping[str, object]) -> "CheckOptions":
        """The options click parsed (``values``: its keyword arguments); UsageError when the paths conflict."""
        stdin_filename = values.get("stdin_filename")
        reads_stdin = list(paths) == ["-"] or (not paths and bool(stdin_filename))
        if "-" in paths and not reads_stdin:
            raise UsageError("'-' (standard input) cannot be combined with other paths")
        split = {"select": codes, "extend_select": codes, "ignore": codes, "exclude": patterns, "extend_exclude": patterns}
        given = {
            option.name: split[option.name](values.get(option.name)) if option.name in split else values.get(option.name)
            for option in fields(cls)
            if option.name not in ("paths", "reads_stdin") and values.get(option.name) is not None
        }
        return cls(paths=tuple(paths) or (".",), reads_stdin=reads_stdin, **given)  # type: ignore[arg-type]

    @property
    def use_noqa(self) -> bool:
        return not self.disable_noqa

    @property
    def quiet_or_silent(self) -> bool:
        """No notes on stderr and no summary (``--quiet``; ``--silent`` prints nothing at all)."""
        return self.quiet or self.silent

    @property
    def settings_start(self) -> Path:
        """Where the search for a configuration file starts: the standard input's name's folder, or the first path."""
        if self.reads_stdin and self.stdin_filename:
            return Path(self.stdin_filename).parent
        return Path(self.paths[0] if self.paths[0] != "-" else ".")
