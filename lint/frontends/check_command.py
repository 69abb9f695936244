"""``steplint check``: resolve the settings, lint, fix or silence if asked, and print what was asked for.

The command line follows ruff's: ``--select`` replaces the configured
selection, ``--extend-select``/``--ignore`` add to it; ``--stdin-filename``
alone reads standard input; exit 0 when clean, 1 on any finding (or on a fix
with ``--exit-non-zero-on-fix``), 2 on a usage or internal error.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
# Rules whose verdict depends on the agent-framework-core release (README, "Target version").
_VERSION_DEPENDENT = frozenset({"STP001", "STP002", "STP010", "STP011", "STP012", "STP013", "STP020", "STP041", "STP050"})
_JSON_FORMATS = ("json", "json-lines")


class UsageError(Exception):
    """A mistake on the command line or in a configuration file: one line on stderr, exit 2."""


def codes(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(code.strip().upper() for code in value.split(",") if code.strip())


def patterns(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(p.strip() for p in value.split(",") if p.strip())


def use_colour(choice: str, stream: object | None) -> bool:
    """``--color``: ``always``/``never`` decide; ``auto`` follows NO_COLOR, then FORCE_COLOR, then whether it is a terminal."""
    if choice in ("always", "never"):
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def run_check(paths: list[str], options: dict) -> int:
    from steplint.api import files_to_lint, lint_paths, lint_source
    from steplint.config.settings import ConfigError
    from steplint.run.process_pool import default_jobs

    stdin_name = options.get("stdin_filename")
    reads_stdin = paths == ["-"] or (not paths and bool(stdin_name))
    if "-" in paths and not reads_stdin:
        raise UsageError("'-' (standard input) cannot be combined with other paths")
    paths = paths or ["."]
    try:
        settings = _settings(paths, options, reads_stdin)
        if options.get("show_settings"):
            return _show_settings(settings, stdin_name if reads_stdin else paths[0], options)
        if options.get("show_files"):
            listed = [stdin_name or "-"] if reads_stdin else files_to_lint(paths, settings, bool(options.get("force_exclude")))
            _echo("".join(f"{file}\n" for file in listed), options)
            return EXIT_CLEAN
        if reads_stdin:
            data = options["stdin_data"] = sys.stdin.buffer.read()
            result = lint_source(data, stdin_name or "-", settings, use_noqa=not options.get("disable_noqa"))
        else:
            result = lint_paths(
                paths,
                settings,
                force_exclude=bool(options.get("force_exclude")),
                use_noqa=not options.get("disable_noqa"),
                jobs=options.get("jobs") or default_jobs(),
                cache=_cache(settings, options),
            )
    except ConfigError as exc:
        raise UsageError(str(exc)) from None

    diagnostics = result.diagnostics
    _say_target(settings, diagnostics, options)
    if options.get("add_noqa"):
        return _add_noqa(diagnostics, options)
    outcome = None
    if options.get("fix") or options.get("diff"):
        outcome, done = _fix(diagnostics, settings, options)
        if done is not None:
            return done
        diagnostics = outcome.remaining
    if options.get("verbose"):
        _explain(settings, result, diagnostics)
    _report(diagnostics, outcome, options)
    if options.get("exit_zero"):
        return EXIT_CLEAN
    if diagnostics or (options.get("exit_non_zero_on_fix") and outcome is not None and outcome.fixed):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _settings(paths: list[str], options: dict, reads_stdin: bool):  # -> Settings
    from steplint.api import load_settings
    from steplint.catalog.selection import check_selectors

    stdin_name = options.get("stdin_filename")
    start = Path(stdin_name).parent if reads_stdin and stdin_name else Path(paths[0] if paths[0] != "-" else ".")
    config_file = Path(options["config_file"]) if options.get("config_file") else None
    if config_file is not None and not config_file.is_file():
        raise UsageError(f"config file not found: {config_file}")
    settings = load_settings(config_file, start if start.exists() else Path("."), bool(options.get("isolated")))
    target = options.get("target_version")
    settings = settings.with_overrides(
        **_selection(settings, options),
        exclude=patterns(options.get("exclude")),
        extend_exclude=(settings.extend_exclude + patterns(options["extend_exclude"]))
        if options.get("extend_exclude")
        else None,
        target_version=_target_version(target),
        max_file_size=options.get("max_file_size"),
        target_version_source="from --target-version" if target else None,
        target_python=_target_python(options.get("target_python")),
        target_python_source="from --target-python" if options.get("target_python") else None,
        respect_gitignore=options.get("respect_gitignore"),
    )
    check_selectors(settings)
    return _known_target(settings, target)


def _selection(settings, options: dict) -> dict:  # noqa: ANN001 - Settings
    """The command line is the last layer, as in ruff: its ``--select`` starts over, else it adds to the file's."""
    select, extend, ignore = codes(options.get("select")), codes(options.get("extend_select")), codes(options.get("ignore"))
    if select is not None:
        return {"select": select, "extend_select": extend or (), "ignore": ignore or ()}
    overrides: dict = {}
    if extend:
        overrides["extend_select"] = settings.extend_select + extend
        # A code selected again on the command line is no longer ignored by the file.
        overrides["ignore"] = tuple(code for code in settings.ignore if code not in extend)
    if ignore:
        overrides["ignore"] = overrides.get("ignore", settings.ignore) + ignore
    return overrides


def _target_version(text: str | None):  # noqa: ANN202 - a Version or None
    from steplint.core.framework_versions import checked_target

    return _parsed_option("--target-version", text, checked_target)


def _target_python(text: str | None):  # noqa: ANN202 - a (major, minor) or None
    from steplint.config.settings import parse_python_version

    return _parsed_option("--target-python", text, parse_python_version)


def _parsed_option(option: str, text: str | None, parse):  # noqa: ANN001, ANN202
    """``parse(text)``, None when the option was not given; a bad value is a usage error naming the option."""
    if text is None:
        return None
    try:
        return parse(text)
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}") from None


def _known_target(settings, given: str | None):  # noqa: ANN001, ANN202 - Settings
    """A release newer than steplint knows is checked as the newest, with a warning, never silently."""
    from steplint.core.framework_versions import NEWEST, format_version

    version = settings.target_version
    if given is not None and given.strip().lower() == "newest":
        click.echo(f"steplint: warning: checking as agent-framework-core {format_version(NEWEST)}, the newest release "
                   "steplint knows", err=True)
    elif version is not None and version[:2] > NEWEST[:2]:
        click.echo(f"steplint: warning: the project declares agent-framework-core {format_version(version)}, newer "
                   f"than steplint knows; checking as {format_version(NEWEST)}", err=True)
        return settings.with_overrides(target_version=NEWEST)
    return settings


def _say_target(settings, diagnostics: list, options: dict) -> None:  # noqa: ANN001 - Settings
    """Once, on stderr, when a project file chose the release the findings depend on (not under --quiet)."""
    from steplint.report.formats import TEXT_FORMATS

    if _quiet(options) or options.get("verbose") or options.get("output_format") not in TEXT_FORMATS:
        return
    source = settings.target_version_source or ""
    chosen_by_file = source.startswith("from ") and "--target-version" not in source and "[tool.steplint]" not in source
    if chosen_by_file and any(d.code in _VERSION_DEPENDENT for d in diagnostics):
        from steplint.core.framework_versions import format_version

        click.echo(f"steplint: target agent-framework-core {format_version(settings.target_version)}, {source}", err=True)


def _show_settings(settings, linted: str, options: dict) -> int:  # noqa: ANN001 - Settings
    from steplint.report.settings_text import as_settings_json, as_settings_text

    shown = as_settings_json if options.get("output_format") in _JSON_FORMATS else as_settings_text
    _echo(shown(settings, linted or "-"), options)
    return EXIT_CLEAN


def _add_noqa(diagnostics: list, options: dict) -> int:
    from steplint.frontends.autofix import write_fixed
    from steplint.frontends.noqa_adder import add_noqa

    if options.get("stdin_data") is not None:
        raise UsageError("--add-noqa edits files: it cannot be used with standard input")
    outcome = add_noqa(diagnostics)
    try:
        write_fixed(outcome)
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename}: {exc.strerror or exc}") from None
    if not options.get("silent"):
        for finding in outcome.skipped:
            click.echo(f"steplint: warning: {finding.path}:{finding.line}: no '# noqa' can go on this line "
                       f"(it ends inside a string or with a backslash); {finding.code} is still reported", err=True)
        click.echo(f"Added {outcome.added} noqa directive{'' if outcome.added == 1 else 's'}.", err=True)
    return EXIT_CLEAN


def _fix(diagnostics: list, settings, options: dict):  # noqa: ANN001 - Settings; -> (FixOutcome, exit code when done)
    """--diff prints the changes; --fix writes them (standard input: prints the fixed text)."""
    from steplint.frontends.autofix import fix_findings, write_fixed
    from steplint.report.text_format import as_concise

    stdin = options.get("stdin_data")
    sources = {diagnostics[0].path: stdin} if stdin is not None and diagnostics else None
    outcome = fix_findings(
        diagnostics, settings, unsafe=bool(options.get("unsafe_fixes")), use_noqa=not options.get("disable_noqa"), sources=sources
    )
    if options.get("diff"):
        if not options.get("silent"):
            click.echo(outcome.diff(), nl=False)
            if not _quiet(options):
                click.echo(outcome.summary(would=True), err=True)
                if options.get("show_fixes"):
                    click.echo(_fixes_listing(outcome, would=True), err=True, nl=False)
        return outcome, EXIT_FINDINGS if outcome.files else EXIT_CLEAN
    if stdin is not None:  # the fixed text is the output; what is left goes to stderr
        click.echo(outcome.files[0].encoded() if outcome.files else stdin, nl=False)
        if not options.get("silent"):
            click.echo(as_concise(outcome.remaining) + ("" if _quiet(options) else outcome.summary() + "\n"), err=True, nl=False)
        if options.get("exit_zero"):
            return outcome, EXIT_CLEAN
        failed = outcome.remaining or (options.get("exit_non_zero_on_fix") and outcome.fixed)
        return outcome, EXIT_FINDINGS if failed else EXIT_CLEAN
    try:
        write_fixed(outcome)
    except OSError as exc:
        raise UsageError(f"cannot write the fixed file {exc.filename}: {exc.strerror or exc}") from None
    return outcome, None


def _fixes_listing(outcome, would: bool = False) -> str:  # noqa: ANN001 - FixOutcome
    """``--show-fixes``: each fixed file and how many findings of each rule its fixes fixed."""
    from steplint.catalog.registry import rule_for

    if not outcome.fixed:
        return "No fixes available.\n" if would else "No fixes applied.\n"
    lines = [f"{'Would fix' if would else 'Fixed'} {outcome.fixed} finding{'' if outcome.fixed == 1 else 's'}:"]
    for file in outcome.files:
        lines.append(f"- {file.path}:")
        for code, count in sorted(file.fixed_codes.items()):
            rule = rule_for(code)
            lines.append(f"    {count} × {code} ({rule.name if rule is not None else '?'})")
    return "\n".join(lines) + "\n"


def _report(diagnostics: list, outcome, options: dict) -> None:  # noqa: ANN001 - FixOutcome | None
    """The findings (or --statistics) on stdout or --output-file; in the text layouts the closing summary follows
    them, in the others the fix summary goes to stderr."""
    from steplint.report import text_format
    from steplint.report.formats import FORMATTERS, TEXT_FORMATS

    if options.get("silent"):
        return
    output_format = options["output_format"]
    output_file = options.get("output_file")
    colour = use_colour(options.get("color") or "auto", None if output_file else sys.stdout)
    unsafe = bool(options.get("unsafe_fixes"))
    by_person = output_format in TEXT_FORMATS and not options.get("statistics")
    if options.get("statistics"):
        if output_format not in TEXT_FORMATS + _JSON_FORMATS:
            raise UsageError(f"--statistics prints text or JSON, not {output_format}: use --format text, json or json-lines")
        text = text_format.statistics(diagnostics, "text" if output_format in TEXT_FORMATS else output_format, unsafe)
    elif output_format == "full":
        sources = _stdin_sources(diagnostics, options)
        text = text_format.as_full(diagnostics, lambda p: sources.get(p) or text_format.source_from_disk(p), colour, unsafe)
    elif by_person:
        text = text_format.as_concise(diagnostics, colour, unsafe)
    else:
        text = FORMATTERS[output_format](diagnostics)
    aside = ""
    if not _quiet(options):
        listing = ""
        if options.get("show_fixes"):
            listing = _fixes_listing(outcome) if outcome is not None else _would_fix(diagnostics, unsafe)
        if by_person:
            fixed = outcome.fixed if outcome is not None else None
            text += text_format.summary(diagnostics, unsafe, colour, fixed=fixed) + listing
        else:
            aside = (outcome.summary() + "\n" if outcome is not None else "") + listing
    if output_file:
        try:
            Path(output_file).parent.mkdir(parents=True, exist_ok=True)
            Path(output_file).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write --output-file {output_file}: {exc.strerror or exc}") from None
    elif text:
        click.echo(text, nl=False, color=colour)
    if aside:
        click.echo(aside, nl=False, err=True)


def _would_fix(diagnostics: list, unsafe: bool) -> str:
    """``--show-fixes`` without ``--fix``: what ``--fix`` would fix, by file and rule."""
    from collections import Counter

    from steplint.fixes.apply import fixable
    from steplint.frontends.autofix import FixedFile, FixOutcome

    by_path: dict[str, Counter] = {}
    for finding in fixable(diagnostics, unsafe):
        by_path.setdefault(finding.path, Counter())[finding.code] += 1
    outcome = FixOutcome(remaining=[], files=[FixedFile(path, "", "", "utf-8", counts) for path, counts in by_path.items()])
    return _fixes_listing(outcome, would=True)


def _stdin_sources(diagnostics: list, options: dict) -> dict[str, str]:
    data = options.get("stdin_data")
    if data is None or not diagnostics:
        return {}
    from steplint.source.reading import decode_source

    try:
        return {diagnostics[0].path: decode_source(data)}
    except ValueError:
        return {}


def _explain(settings, result, diagnostics: list) -> None:  # noqa: ANN001 - Settings, RunResult
    python = settings.target_python or sys.version_info[:2]
    click.echo(f"steplint: target agent-framework-core {_target(settings)}", err=True)
    click.echo(f"steplint: target Python {python[0]}.{python[1]} ({settings.target_python_source or 'the running interpreter'})", err=True)
    click.echo(f"steplint: {result.files} file(s) checked, {len(diagnostics)} finding(s)", err=True)
    if result.stats is not None:
        click.echo(f"steplint: {_work_done(result.stats)}", err=True)


def _work_done(stats) -> str:  # noqa: ANN001 - a steplint.run.results.RunStats
    if stats.replayed:
        return "nothing changed since the last run: its findings were replayed from the cache"
    return (
        f"{stats.read} file(s) read, {stats.summarized} summarized, {stats.checked} reported, "
        f"{stats.analyzed} analyzed (the others' findings were kept from the cache)"
    )


def _target(settings) -> str:  # noqa: ANN001 - Settings
    from steplint.core.framework_versions import NEWEST, format_version

    return f"{format_version(settings.target_version or NEWEST)} ({settings.target_version_source or 'the newest'})"


def _cache(settings, options: dict):  # noqa: ANN001 - Settings; -> steplint.run.cache.Cache | None
    if options.get("no_cache"):
        return None
    from steplint.run.cache import CACHE_DIR_NAME, Cache

    return Cache(options.get("cache_dir") or settings.project_root / CACHE_DIR_NAME)


def _quiet(options: dict) -> bool:
    return bool(options.get("quiet") or options.get("silent"))


def _echo(text: str, options: dict) -> None:
    output_file = options.get("output_file")
    if output_file:
        Path(output_file).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
