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

from steplint.frontends.check_options import CheckOptions
from steplint.fixes.apply import without_fixes_of
from steplint.frontends.exit_status import EXIT_CLEAN, EXIT_FINDINGS, UsageError
from steplint.report.format_names import FULL, GROUPED, JSON_FORMATS, TEXT, TEXT_FORMATS


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


def run_check(options: CheckOptions) -> int:
    from steplint.config.settings import ConfigError
    from steplint.source.notebooks import is_notebook

    try:
        settings = _settings(options)
        options = options.resolved(settings)
        if options.show_settings:
            return _show_settings(settings, options)
        if options.show_files:
            return _show_files(settings, options)
        if options.reads_stdin and is_notebook(options.stdin_filename or ""):
            # Its findings are placed by cell from the notebook on disk, which standard input need not be.
            raise UsageError("a notebook cannot be linted from standard input: name the .ipynb file")
        stdin = sys.stdin.buffer.read() if options.reads_stdin else None
        result = _lint(settings, options, stdin)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None

    diagnostics = without_fixes_of(result.diagnostics, settings.unfixable)
    if stdin is None and not result.files and not options.quiet_or_silent:
        click.echo("warning: No Python files found under the given path(s)", err=True)  # ruff's words, exit 0 as in ruff
    _say_target(settings, diagnostics, options)
    if options.add_noqa:
        return _add_noqa(diagnostics, options, stdin)
    outcome = None
    if options.fix or options.diff:
        outcome, done = _fix(diagnostics, settings, options, stdin)
        if done is not None:
            return done
        diagnostics = outcome.remaining
        if options.fix_only:
            return _fix_only_report(outcome, options)
    if options.verbose:
        _explain(settings, result, diagnostics)
    if options.watch and not options.silent:  # a --watch round: the count first, no summary after
        click.echo(watch_header(len(diagnostics)) + ("\n" if diagnostics else ""))
    _report(diagnostics, outcome, options, stdin)
    return _exit_status(diagnostics, outcome, options)


def _lint(settings, options: CheckOptions, stdin: bytes | None):  # noqa: ANN001, ANN202 - Settings; -> RunResult
    from steplint.api import lint_paths, lint_source
    from steplint.run.process_pool import default_jobs

    if stdin is not None:
        return lint_source(stdin, options.stdin_filename or "-", settings, use_noqa=options.use_noqa)
    return lint_paths(
        list(options.paths),
        settings,
        force_exclude=options.force_exclude,
        use_noqa=options.use_noqa,
        jobs=options.jobs or default_jobs(),
        cache=_cache(settings, options),
    )


def watch_header(found: int) -> str:
    """``[12:01:02] Found 2 findings. Watching for file changes.``, as ruff's ``--watch`` says it."""
    import time

    noun = "finding" if found == 1 else "findings"
    return f"[{time.strftime('%H:%M:%S')}] Found {found} {noun}. Watching for file changes."


def settings_for(options: CheckOptions):  # noqa: ANN201 - Settings
    """The settings a run with ``options`` uses (UsageError or ConfigError when they are wrong)."""
    return _settings(options)


def _settings(options: CheckOptions):  # -> Settings
    from steplint.api import load_settings
    from steplint.catalog.selection import check_selectors

    start = options.settings_start
    config_file = Path(options.config_file) if options.config_file else None
    if config_file is not None and not config_file.is_file():
        raise UsageError(f"config file not found: {config_file}")
    settings = load_settings(config_file, start if start.exists() else Path("."), options.isolated, options.inline_settings)
    target = options.target_version
    settings = settings.with_overrides(
        **_selection(settings, options),
        **_fix_and_ignore_overrides(settings, options),
        exclude=options.exclude,
        extend_exclude=settings.extend_exclude + options.extend_exclude if options.extend_exclude else None,
        target_version=_target_version(target),
        max_file_size=options.max_file_size,
        target_version_source="from --target-version" if target else None,
        target_python=_target_python(options.target_python),
        target_python_source="from --target-python" if options.target_python else None,
        respect_gitignore=options.respect_gitignore,
    )
    check_selectors(settings)
    return _known_target(settings, target)


def _fix_and_ignore_overrides(settings, options: CheckOptions) -> dict:  # noqa: ANN001 - Settings
    """``--unfixable`` adds to the configured ``unfixable``; ``--extend-per-file-ignores`` to ``per-file-ignores``
    (its patterns relative to the current folder, as ruff's command-line patterns are)."""
    from steplint.config.settings import anchored_pattern, extended_ignores

    overrides: dict = {}
    if options.unfixable:
        overrides["unfixable"] = settings.unfixable + options.unfixable
    if options.extend_per_file_ignores:
        here = Path.cwd()
        extra = {anchored_pattern(pattern, here): codes for pattern, codes in options.extend_per_file_ignores}
        overrides["per_file_ignores"] = extended_ignores(settings.per_file_ignores, extra)
    return overrides


def _fix_only_report(outcome, options: CheckOptions) -> int:  # noqa: ANN001 - FixOutcome
    """``--fix-only``: fix, say how many were fixed, and leave the findings that are left unreported (exit 0, or 1
    with ``--exit-non-zero-on-fix`` when something was fixed), as ruff does."""
    from steplint.report.text_format import counted

    if not options.quiet_or_silent:
        said = f"Fixed {counted(outcome.fixed, 'finding')}." if outcome.fixed else "No fixes applied."
        click.echo(said, err=options.output_format not in TEXT_FORMATS)
        if options.show_fixes:
            click.echo(_fixes_listing(outcome), nl=False, err=options.output_format not in TEXT_FORMATS)
    fixed_something = options.exit_non_zero_on_fix and outcome.fixed
    return EXIT_FINDINGS if fixed_something and not options.exit_zero else EXIT_CLEAN


def _selection(settings, options: CheckOptions) -> dict:  # noqa: ANN001 - Settings
    """The command line is the last layer, as in ruff: its ``--select`` starts over, else it adds to the file's."""
    select, extend, ignore = options.select, options.extend_select, options.ignore
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

    declared = settings.release_target
    if given is not None and given.strip().lower() == "newest":
        click.echo(f"steplint: warning: checking as agent-framework-core {format_version(NEWEST)}, the newest release "
                   "steplint knows", err=True)
    elif settings.target_version is None and declared is not None and declared.newer is not None:
        click.echo(f"steplint: warning: the project declares agent-framework-core {format_version(declared.newer)}, "
                   f"newer than steplint knows; checking as {format_version(NEWEST)}", err=True)
    return settings


def _say_target(settings, diagnostics: list, options: CheckOptions) -> None:  # noqa: ANN001 - Settings
    """Once, on stderr, when a project file chose the releases the findings depend on (not under --quiet)."""
    if options.quiet_or_silent or options.verbose or options.output_format not in TEXT_FORMATS:
        return
    declared = settings.release_target
    chosen_by_file = settings.target_version is None and declared is not None and declared.source.startswith("from ")
    if chosen_by_file and any(d.code in _version_dependent_codes() for d in diagnostics):
        click.echo(f"steplint: target agent-framework-core {declared.shown()}, {declared.source}", err=True)


def _version_dependent_codes() -> frozenset[str]:
    """The rules whose verdict depends on the agent-framework-core release (README, "Target version")."""
    from steplint.catalog.registry import all_rules

    return frozenset(rule.code for rule in all_rules() if rule.version_dependent)


def _show_settings(settings, options: CheckOptions) -> int:  # noqa: ANN001 - Settings
    from steplint.report.settings_text import as_settings_json, as_settings_text

    from steplint.api import files_to_lint
    from steplint.config.release_targets import with_release_targets

    shown = as_settings_json if options.output_format in JSON_FORMATS else as_settings_text
    linted = options.stdin_filename if options.reads_stdin else options.paths[0]
    if not options.reads_stdin:  # the folders under the paths whose own declaration decides for their files
        settings = with_release_targets(settings, files_to_lint(list(options.paths), settings, options.force_exclude))
    _echo(shown(settings, linted or "-"), options)
    return EXIT_CLEAN


def _show_files(settings, options: CheckOptions) -> int:  # noqa: ANN001 - Settings
    from steplint.api import files_to_lint

    if options.reads_stdin:
        listed = [options.stdin_filename or "-"]
    else:
        listed = files_to_lint(list(options.paths), settings, options.force_exclude)
    _echo("".join(f"{file}\n" for file in listed), options)
    return EXIT_CLEAN


def _add_noqa(diagnostics: list, options: CheckOptions, stdin: bytes | None) -> int:
    from steplint.frontends.autofix import write_fixed
    from steplint.frontends.noqa_adder import add_noqa
    from steplint.report.text_format import counted

    if stdin is not None:
        raise UsageError("--add-noqa edits files: it cannot be used with standard input")
    outcome = add_noqa(diagnostics)
    try:
        write_fixed(outcome)
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename}: {exc.strerror or exc}") from None
    if not options.silent:
        for finding in outcome.skipped:
            click.echo(f"steplint: warning: {finding.path}:{finding.line}: no '# noqa' can go on this line "
                       f"(it ends inside a string or with a backslash); {finding.code} is still reported", err=True)
        click.echo(f"Added {counted(outcome.added, 'noqa directive')}.", err=True)
    return EXIT_CLEAN


def _fix(diagnostics: list, settings, options: CheckOptions, stdin: bytes | None):  # noqa: ANN001, ANN202 - Settings
    """--diff prints the changes; --fix writes them (standard input: prints the fixed text).

    (the FixOutcome, the exit status when nothing more is to be printed, else None)."""
    from steplint.frontends.autofix import fix_findings, write_fixed
    from steplint.report.text_format import as_concise

    sources = {diagnostics[0].path: stdin} if stdin is not None and diagnostics else None
    outcome = fix_findings(diagnostics, settings, unsafe=options.unsafe_fixes, use_noqa=options.use_noqa, sources=sources)
    if options.diff:
        if not options.silent:
            click.echo(outcome.diff(), nl=False)
            if not options.quiet_or_silent:
                click.echo(outcome.summary(would=True), err=True)
                if options.show_fixes:
                    click.echo(_fixes_listing(outcome, would=True), err=True, nl=False)
        return outcome, EXIT_FINDINGS if outcome.files else EXIT_CLEAN
    if stdin is not None:  # the fixed text is the output; what is left goes to stderr
        click.echo(outcome.files[0].encoded() if outcome.files else stdin, nl=False)
        if not options.silent:
            after = "" if options.quiet_or_silent else outcome.summary() + "\n"
            click.echo(as_concise(outcome.remaining) + after, err=True, nl=False)
        return outcome, _exit_status(outcome.remaining, outcome, options)
    try:
        write_fixed(outcome)
    except OSError as exc:
        raise UsageError(f"cannot write the fixed file {exc.filename}: {exc.strerror or exc}") from None
    return outcome, None


def _exit_status(remaining: list, outcome, options: CheckOptions) -> int:  # noqa: ANN001 - FixOutcome | None
    """1 for a finding left (or, with --exit-non-zero-on-fix, a fix made), unless --exit-zero."""
    if options.exit_zero:
        return EXIT_CLEAN
    if remaining or (options.exit_non_zero_on_fix and outcome is not None and outcome.fixed):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _fixes_listing(outcome, would: bool = False) -> str:  # noqa: ANN001 - FixOutcome
    """``--show-fixes``: each fixed file and how many findings of each rule its fixes fixed."""
    from steplint.catalog.registry import rule_for
    from steplint.report.text_format import counted

    if not outcome.fixed:
        return "No fixes available.\n" if would else "No fixes applied.\n"
    lines = [f"{'Would fix' if would else 'Fixed'} {counted(outcome.fixed, 'finding')}:"]
    for file in outcome.files:
        lines.append(f"- {file.path}:")
        for code, count in sorted(file.fixed_codes.items()):
            rule = rule_for(code)
            lines.append(f"    {count} × {code} ({rule.name if rule is not None else '?'})")
    return "\n".join(lines) + "\n"


def _report(diagnostics: list, outcome, options: CheckOptions, stdin: bytes | None) -> None:  # noqa: ANN001
    """The findings (or --statistics) on stdout or --output-file; in the text layouts the closing summary follows
    them, in the others the fix summary goes to stderr. ``outcome``: the FixOutcome of --fix, if any."""
    from steplint.report import text_format

    if options.silent:
        return
    colour = use_colour(options.color, None if options.output_file else sys.stdout)
    by_person = options.output_format in TEXT_FORMATS and not options.statistics
    text = _findings_text(diagnostics, options, stdin, colour)
    aside = ""
    if not options.quiet_or_silent:
        listing = ""
        if options.show_fixes:
            listing = _fixes_listing(outcome) if outcome is not None else _would_fix(diagnostics, options.unsafe_fixes)
        if by_person:
            fixed = outcome.fixed if outcome is not None else None
            text += text_format.summary(diagnostics, options.unsafe_fixes, colour, fixed=fixed) + listing
        else:
            aside = (outcome.summary() + "\n" if outcome is not None else "") + listing
    if options.output_file:
        try:
            Path(options.output_file).parent.mkdir(parents=True, exist_ok=True)
            Path(options.output_file).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write --output-file {options.output_file}: {exc.strerror or exc}") from None
    elif text:
        click.echo(text, nl=False, color=colour)
    if aside:
        click.echo(aside, nl=False, err=True)


def _findings_text(diagnostics: list, options: CheckOptions, stdin: bytes | None, colour: bool) -> str:
    """The findings in ``--format``, or their count per rule (``--statistics``)."""
    from steplint.report import text_format
    from steplint.report.formats import FORMATTERS

    output_format, unsafe = options.output_format, options.unsafe_fixes
    if options.statistics:
        if output_format not in TEXT_FORMATS + JSON_FORMATS:
            raise UsageError(f"--statistics prints text or JSON, not {output_format}: use --format text, json or json-lines")
        return text_format.statistics(diagnostics, TEXT if output_format in TEXT_FORMATS else output_format, unsafe)
    if output_format == FULL:
        sources = _stdin_sources(diagnostics, stdin)
        return text_format.as_full(diagnostics, lambda p: sources.get(p) or text_format.source_from_disk(p), colour, unsafe)
    if output_format == GROUPED:
        return text_format.as_grouped(diagnostics, colour, unsafe)
    if output_format in TEXT_FORMATS:
        return text_format.as_concise(diagnostics, colour, unsafe)
    return FORMATTERS[output_format](diagnostics)


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


def _stdin_sources(diagnostics: list, stdin: bytes | None) -> dict[str, str]:
    if stdin is None or not diagnostics:
        return {}
    from steplint.source.reading import decode_source

    try:
        return {diagnostics[0].path: decode_source(stdin)}
    except ValueError:
        return {}


def _explain(settings, result, diagnostics: list) -> None:  # noqa: ANN001 - Settings, RunResult
    python = settings.target_python or sys.version_info[:2]
    click.echo(f"steplint: target agent-framework-core {_target(settings)}", err=True)
    for target in result.stats.release_targets if result.stats is not None else ():
        if target != settings.release_target:  # a requirement file nearer to some of the files
            click.echo(f"steplint: target agent-framework-core {target.shown()} for files below it ({target.source})",
                       err=True)
    click.echo(f"steplint: target Python {python[0]}.{python[1]} ({settings.target_python_source or 'the running interpreter'})", err=True)
    click.echo(f"steplint: {result.files} file(s) checked, {len(diagnostics)} finding(s)", err=True)
    if result.stats is not None:
        click.echo(f"steplint: {_work_done(result.stats)}", err=True)


def _work_done(stats) -> str:  # noqa: ANN001 - a steplint.run.results.RunStats
    if stats.replayed:
        return "nothing changed since the last run: its findings were replayed from the cache"
    kept = stats.checked - stats.analyzed
    return (
        f"{stats.read} file(s) read, {stats.summarized} summarized, {stats.checked} reported, "
        f"{stats.analyzed} analyzed" + (f" ({kept} file(s)' findings were kept from the cache)" if kept > 0 else "")
    )


def _target(settings) -> str:  # noqa: ANN001 - Settings
    from steplint.core.framework_versions import NEWEST, format_version

    if settings.target_version is None and settings.release_target is not None:
        return f"{settings.release_target.shown()} ({settings.release_target.source})"
    return f"{format_version(settings.target_version or NEWEST)} ({settings.target_version_source or 'the newest'})"


def _cache(settings, options: CheckOptions):  # noqa: ANN001 - Settings; -> steplint.run.cache.Cache | None
    # --isolated reads nothing of the project, so it writes nothing into it either: a cache only where asked.
    if options.no_cache or (options.isolated and not options.cache_dir):
        return None
    from steplint.run.cache import CACHE_DIR_NAME, Cache

    return Cache(options.cache_dir or settings.project_root / CACHE_DIR_NAME)


def _echo(text: str, options: CheckOptions) -> None:
    if options.output_file:
        Path(options.output_file).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
