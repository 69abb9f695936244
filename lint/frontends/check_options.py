"""``steplint check``'s command line, parsed once from click's values into one typed, frozen object.

Comma-separated lists are split here; values whose parsing depends on the
settings (``--target-version``, ``--target-python``) stay text until the
settings are resolved, so that their errors come in the order they always did.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
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


def per_file_ignores(value: str | None) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    """``--extend-per-file-ignores 'tests/*:STP010,legacy/*:STP0'``: (pattern, codes) pairs, as ruff writes them."""
    if value is None:
        return None
    pairs: dict[str, tuple[str, ...]] = {}
    for item in (part.strip() for part in value.split(",") if part.strip()):
        pattern, colon, code = item.rpartition(":")
        if not colon or not pattern.strip() or not code.strip():
            raise UsageError(f"--extend-per-file-ignores: {item!r} is not PATTERN:CODE "
                             "(a glob, a colon, a rule code or prefix, e.g. 'tests/*:STP0')")
        pairs[pattern.strip()] = pairs.get(pattern.strip(), ()) + (code.strip().upper(),)
    return tuple(pairs.items())


def config_arguments(values: Sequence[str]) -> tuple[str | None, tuple[dict, ...]]:
    """``--config``, as ruff reads it: an existing file, else a TOML ``key = value`` line (one file at most)."""
    from steplint.config.command_keys import InlineSettingError, inline_table

    files = [value for value in values if os.path.isfile(value) or "=" not in value]
    if len(files) > 1:
        raise UsageError(f"--config: give one configuration file, not {files[0]} and {files[1]}")
    try:
        inline = tuple(inline_table(value) for value in values if value not in files)
    except InlineSettingError as exc:
        raise UsageError(str(exc)) from None
    return (files[0] if files else None), inline


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
    force_exclude: bool | None = None  # None until resolved: the configuration's, else False
    respect_gitignore: bool | None = None
    config_file: str | None = None
    inline_settings: tuple[dict, ...] = ()  # --config 'key = value', each a TOML table
    extend_per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] | None = None
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
    fix: bool | None = None
    fix_only: bool = False
    diff: bool = False
    unsafe_fixes: bool | None = None
    unfixable: tuple[str, ...] | None = None
    # what is printed, and the exit status
    output_format: str | None = None  # None until resolved: the configuration's, else text
    output_file: str | None = None
    color: str = "auto"
    statistics: bool = False
    show_fixes: bool = False
    exit_zero: bool = False
    exit_non_zero_on_fix: bool = False
    verbose: bool = False
    quiet: bool = False
    silent: bool = False
    watch: bool = False  # --watch: lint again on every change (frontends/watch_command.py)

    @classmethod
    def parse(cls, paths: Sequence[str], values: Mapping[str, object]) -> "CheckOptions":
        """The options click parsed (``values``: its keyword arguments); UsageError when the paths conflict."""
        stdin_filename = values.get("stdin_filename")
        reads_stdin = list(paths) == ["-"] or (not paths and bool(stdin_filename))
        if "-" in paths and not reads_stdin:
            raise UsageError("'-' (standard input) cannot be combined with other paths")
        split = {"select": codes, "extend_select": codes, "ignore": codes, "exclude": patterns, "extend_exclude": patterns,
                 "unfixable": codes, "extend_per_file_ignores": per_file_ignores}
        values = dict(values)
        values["config_file"], values["inline_settings"] = config_arguments(values.get("config_file") or ())
        given = {
            option.name: split[option.name](values.get(option.name)) if option.name in split else values.get(option.name)
            for option in fields(cls)
            if option.name not in ("paths", "reads_stdin") and values.get(option.name) is not None
        }
        return cls(paths=tuple(paths) or (".",), reads_stdin=reads_stdin, **given)  # type: ignore[arg-type]

    def resolved(self, settings) -> "CheckOptions":  # noqa: ANN001 - Settings
        """The flags the configuration may set (``fix = true``, ``output-format``...), taken from it where not given."""
        from steplint.report.format_names import FORMAT_NAMES, TEXT

        configured_format = settings.output_format
        if self.output_format is None and configured_format is not None and configured_format not in FORMAT_NAMES:
            raise UsageError(f"{settings.config_file or '--config'}: 'output-format' must be one of "
                             f"{', '.join(FORMAT_NAMES)}, not {configured_format!r}")
        fix = self.fix if self.fix is not None else bool(settings.fix)
        return replace(
            self,
            output_format=self.output_format or configured_format or TEXT,
            fix=fix or self.fix_only,
            unsafe_fixes=self.unsafe_fixes if self.unsafe_fixes is not None else bool(settings.unsafe_fixes),
            force_exclude=self.force_exclude if self.force_exclude is not None else settings.force_exclude,
            cache_dir=self.cache_dir or (str(settings.cache_dir) if settings.cache_dir is not None else None),
        )

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
