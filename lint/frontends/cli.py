"""The ``steplint`` command (click). Exit codes: 0 clean, 1 findings, 2 usage or internal error."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from steplint._version import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
# The keys of steplint.report.formats.FORMATTERS, listed here so that --help does not import every rule.
FORMAT_NAMES = ("text", "json", "json-lines", "pylint", "github", "sarif")


def _codes(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(code.strip().upper() for code in value.split(",") if code.strip())


def _patterns(value: str | None) -> tuple[str, ...] | None:
    if value is None:
        return None
    return tuple(p.strip() for p in value.split(",") if p.strip())


class _DefaultToCheck(click.Group):
    """``steplint PATH...`` means ``steplint check PATH...``.

    Subcommand names win over paths of the same name (write ``./rules`` for a
    folder called ``rules``); ``--version`` and ``--help`` stay the group's.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and (args[0] in self.commands or args[0] in ("--version", "--help", "-h")):
            return super().parse_args(ctx, args)
        return super().parse_args(ctx, ["check", *args])


@click.group(cls=_DefaultToCheck, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="steplint", message="%(prog)s %(version)s")
def cli() -> None:
    """Find checkpoint-replay hazards in Microsoft Agent Framework workflows.

    Run ``steplint PATH...`` (the default command, ``check``), ``steplint rules``
    to list the rules, or ``steplint rule CODE`` for one rule's documentation.
    """


@cli.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--select", help="Comma-separated rule codes or prefixes to enable (replaces the default set).")
@click.option("--extend-select", help="Rule codes or prefixes to enable on top of the selection.")
@click.option("--ignore", help="Rule codes or prefixes to disable.")
@click.option("--exclude", help="Comma-separated glob patterns to exclude (replaces the defaults).")
@click.option("--extend-exclude", help="Glob patterns to exclude on top of the defaults.")
@click.option("--force-exclude", is_flag=True, help="Apply excludes to files named on the command line too.")
@click.option("--format", "output_format", type=click.Choice(FORMAT_NAMES), default="text", show_default=True)
@click.option("--output-file", type=click.Path(dir_okay=False), help="Write the findings to this file.")
@click.option("--statistics", is_flag=True, help="Print a count per rule instead of each finding.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Read settings from this TOML file.")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
@click.option("--target-version", help="The agent-framework-core version the code runs on, e.g. 1.19.")
@click.option("--target-python", help="The Python version the code runs on, e.g. 3.11 (default: requires-python's lowest, else this Python).")
@click.option("--stdin-filename", help="With '-', lint standard input as if it were this file.")
@click.option("--disable-noqa", is_flag=True, help="Ignore '# noqa' comments ('# steplint: disable=' still applies).")
@click.option("--fix", is_flag=True, help="Apply the safe fixes, then report what is left.")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix or --diff, apply the unsafe fixes too.")
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff instead of writing them (exit 1 if any).")
@click.option(
    "-j", "--jobs", type=click.IntRange(min=1), help="Processes that build summaries (default: one per CPU; 1: in-process)."
)
@click.option("--no-cache", is_flag=True, envvar="STEPLINT_NO_CACHE", help="Neither read nor write the cache.")
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False),
    envvar="STEPLINT_CACHE_DIR",
    help="Where the cache lives (default: .steplint_cache in the project root).",
)
@click.option(
    "--max-file-size",
    callback=lambda ctx, param, value: _size(value),
    help='Report files larger than this as STP900 instead of analyzing them: bytes, or e.g. "10MB" (default), 0: no limit.',
)
@click.option("-v", "--verbose", is_flag=True, help="Explain what happens; show tracebacks of internal errors.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the findings (no notes on stderr, no summary).")
def check(paths: tuple[str, ...], **options: object) -> None:
    """Lint PATHS (default: the current folder); '-' reads standard input."""
    verbose = bool(options.get("verbose"))
    try:
        code = _check(list(paths), options)
    except click.exceptions.Exit:
        raise
    except _UsageError as exc:
        click.echo(f"steplint: error: {exc}", err=True)
        code = EXIT_ERROR
    except Exception as exc:  # an internal error: one line, no traceback unless asked
        if verbose:
            import traceback

            traceback.print_exc()
        click.echo(f"steplint: internal error: {type(exc).__name__}: {exc}", err=True)
        code = EXIT_ERROR
    sys.exit(code)


def _size(value: str | None) -> int | None:
    from steplint.config.settings import parse_size

    if value is None:
        return None
    try:
        return parse_size(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


class _UsageError(Exception):
    pass


def _target_version(text: str | None):  # noqa: ANN202 - a Version or None
    if text is None:
        return None
    from steplint.core.framework_versions import checked_target

    try:
        return checked_target(text)
    except ValueError as exc:
        raise _UsageError(f"--target-version: {exc}") from None


def _target_python(text: str | None):  # noqa: ANN202 - a (major, minor) or None
    if text is None:
        return None
    from steplint.config.settings import parse_python_version

    try:
        return parse_python_version(text)
    except ValueError as exc:
        raise _UsageError(f"--target-python: {exc}") from None


def _check(paths: list[str], options: dict) -> int:
    from steplint.api import lint_paths, lint_source, load_settings
    from steplint.config.settings import ConfigError
    from steplint.source.discovery import MissingPath
    from steplint.run.process_pool import default_jobs
    from steplint.report.formats import FORMATTERS, statistics
    paths = paths or ["."]
    stdin_name = options.get("stdin_filename")
    start = Path(stdin_name).parent if stdin_name and paths == ["-"] else Path(paths[0] if paths[0] != "-" else ".")
    try:
        config_file = Path(options["config_file"]) if options.get("config_file") else None
        if config_file is not None and not config_file.is_file():
            raise _UsageError(f"config file not found: {config_file}")
        settings = load_settings(config_file, start if start.exists() else Path("."), bool(options.get("isolated")))
        target = options.get("target_version")
        settings = settings.with_overrides(
            select=_codes(options.get("select")),
            extend_select=_codes(options.get("extend_select")),
            ignore=(settings.ignore + _codes(options["ignore"])) if options.get("ignore") else None,
            exclude=_patterns(options.get("exclude")),
            extend_exclude=(settings.extend_exclude + _patterns(options["extend_exclude"]))
            if options.get("extend_exclude")
            else None,
            target_version=_target_version(target),
            max_file_size=options.get("max_file_size"),
            target_version_source="from --target-version" if target else None,
            target_python=_target_python(options.get("target_python")),
            target_python_source="from --target-python" if options.get("target_python") else None,
        )
        settings = _known_target(settings, target)
        if paths == ["-"]:
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
        raise _UsageError(str(exc)) from None
    except MissingPath as exc:
        raise _UsageError(f"path not found: {exc}") from None

    diagnostics = result.diagnostics
    _say_target(settings, diagnostics, options)
    outcome = None
    if options.get("fix") or options.get("diff"):
        outcome, done = _fix(diagnostics, settings, options)
        if done is not None:
            return done
        diagnostics = outcome.remaining
    if options.get("verbose"):
        click.echo(f"steplint: target agent-framework-core {_target(settings)}", err=True)
        python = settings.target_python or sys.version_info[:2]
        click.echo(f"steplint: target Python {python[0]}.{python[1]} ({settings.target_python_source or 'the running interpreter'})", err=True)
        click.echo(f"steplint: {result.files} file(s) checked, {len(diagnostics)} finding(s)", err=True)
        if result.stats is not None:
            click.echo(f"steplint: {_work_done(result.stats)}", err=True)
    text = statistics(diagnostics) if options.get("statistics") else FORMATTERS[options["output_format"]](diagnostics)
    if outcome is not None:  # "Fixed 2 findings in 1 file; 0 remaining.": in text output, else on stderr
        if options["output_format"] == "text" and not options.get("output_file"):
            text += outcome.summary() + "\n"
        else:
            click.echo(outcome.summary(), err=True)
    output_file = options.get("output_file")
    if output_file:
        try:
            Path(output_file).parent.mkdir(parents=True, exist_ok=True)
            Path(output_file).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise _UsageError(f"cannot write --output-file {output_file}: {exc.strerror or exc}") from None
    elif text:
        click.echo(text, nl=False)
    if diagnostics and not options.get("exit_zero"):
        return EXIT_FINDINGS
    return EXIT_CLEAN


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


# Rules whose verdict depends on the agent-framework-core release (README, "Target version").
_VERSION_DEPENDENT = frozenset({"STP001", "STP002", "STP010", "STP011", "STP012", "STP013", "STP020", "STP041", "STP050"})


def _say_target(settings, diagnostics: list, options: dict) -> None:  # noqa: ANN001 - Settings
    """Once, on stderr, when a project file chose the release the findings depend on (not under --quiet)."""
    if options.get("quiet") or options.get("verbose") or options.get("output_format") != "text":
        return
    source = settings.target_version_source or ""
    chosen_by_file = source.startswith("from ") and "--target-version" not in source and "[tool.steplint]" not in source
    if chosen_by_file and any(d.code in _VERSION_DEPENDENT for d in diagnostics):
        from steplint.core.framework_versions import format_version

        click.echo(f"steplint: target agent-framework-core {format_version(settings.target_version)}, {source}", err=True)


def _fix(diagnostics: list, settings, options: dict):  # -> (FixOutcome, exit code when done)
    """--diff prints the changes; --fix writes them (standard input: prints the fixed text)."""
    from steplint.frontends.autofix import fix_findings, write_fixed

    stdin = options.get("stdin_data")
    sources = {diagnostics[0].path: stdin} if stdin is not None and diagnostics else None
    outcome = fix_findings(
        diagnostics, settings, unsafe=bool(options.get("unsafe_fixes")), use_noqa=not options.get("disable_noqa"), sources=sources
    )
    if options.get("diff"):
        click.echo(outcome.diff(), nl=False)
        click.echo(outcome.summary(would=True), err=True)
        return outcome, EXIT_FINDINGS if outcome.files else EXIT_CLEAN
    if stdin is not None:
        from steplint.report.formats import as_text

        click.echo(outcome.files[0].encoded() if outcome.files else stdin, nl=False)
        click.echo(as_text(outcome.remaining) + outcome.summary(), err=True)
        return outcome, EXIT_FINDINGS if outcome.remaining and not options.get("exit_zero") else EXIT_CLEAN
    try:
        write_fixed(outcome)
    except OSError as exc:
        raise _UsageError(f"cannot write the fixed file {exc.filename}: {exc.strerror or exc}") from None
    return outcome, None


def _target(settings) -> str:
    from steplint.core.framework_versions import NEWEST, format_version

    return f"{format_version(settings.target_version or NEWEST)} ({settings.target_version_source or 'the newest'})"


def _cache(settings, options: dict):  # -> steplint.run.cache.Cache | None
    if options.get("no_cache"):
        return None
    from steplint.run.cache import CACHE_DIR_NAME, Cache

    return Cache(options.get("cache_dir") or settings.project_root / CACHE_DIR_NAME)


@cli.command("rules")
@click.option("--markdown", is_flag=True, help="Print the README's rule table.")
def list_rules(markdown: bool) -> None:
    """List every rule: code, name, default severity, and whether it is on by default."""
    from steplint.catalog.docs import markdown_table
    from steplint.catalog.registry import all_rules

    if markdown:
        click.echo(markdown_table(), nl=False)
        return
    for rule in all_rules():
        state = "on" if rule.default_enabled else "opt-in"
        click.echo(f"{rule.code}  {rule.name:<28} {rule.severity:<8} {state:<7} {rule.summary}")


@cli.command("rule")
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Print every rule's documentation, in code order.")
def show_rule(code: str | None, show_all: bool) -> None:
    """Print the documentation of rule CODE (or of every rule, with --all)."""
    from steplint.catalog.registry import all_rules, rule_for

    if show_all == (code is not None):
        click.echo("steplint: error: give one rule code, or --all (see 'steplint rules')", err=True)
        sys.exit(EXIT_ERROR)
    rules = all_rules() if show_all else (rule_for(code or ""),)
    if rules[0] is None:
        click.echo(f"steplint: error: unknown rule code '{code}' (see 'steplint rules')", err=True)
        sys.exit(EXIT_ERROR)
    for number, rule in enumerate(rules):
        if number:
            click.echo()
        click.echo(f"# {rule.code} {rule.name} ({rule.severity}, {'on by default' if rule.default_enabled else 'opt-in'})\n")
        click.echo(rule.doc())


@cli.command("graph")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--workflow", help="Draw only this workflow (its name, its name= or module.name).")
@click.option("--format", "output_format", type=click.Choice(["mermaid", "dot", "json", "html"]), default="mermaid",
              show_default=True)
@click.option("--output-file", type=click.Path(dir_okay=False), help="Write the graph to this file.")
@click.option("--helpers", is_flag=True, help="Draw the plain helpers between steps instead of naming them on edges.")
@click.option("--all", "whole", is_flag=True, help="Every workflow and step, grouped by module.")
@click.option("--calls", is_flag=True, help="The plain call graph instead: each function's callees (with --format json).")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
def graph(paths: tuple[str, ...], workflow: str | None, output_format: str, output_file: str | None, helpers: bool,
          whole: bool, calls: bool, isolated: bool) -> None:
    """Draw each workflow: the steps it runs, what they reach, and the hazards on the way."""
    import json

    from steplint.api import load_settings
    from steplint.config.settings import ConfigError
    from steplint.report import graph_formats
    from steplint.run.graph_run import call_graph_for, workflow_graph_for

    targets = list(paths) or ["."]
    missing = [p for p in targets if not os.path.exists(p)]
    if missing:
        click.echo(f"steplint: error: no such file or folder: {missing[0]}", err=True)
        sys.exit(EXIT_ERROR)
    if calls and output_format != "json":
        click.echo("steplint: error: --calls prints JSON: add --format json", err=True)
        sys.exit(EXIT_ERROR)
    try:
        settings = load_settings(None, Path(targets[0]), isolated)
        if calls:
            text = json.dumps(call_graph_for(targets, settings), indent=2, sort_keys=True) + "\n"
        else:
            drawn = workflow_graph_for(targets, settings, workflow, helpers, whole)
            base = Path(output_file).resolve().parent if output_file else Path.cwd()
            text = graph_formats.FORMATS[output_format](drawn, base)
    except (ConfigError, LookupError) as exc:
        click.echo(f"steplint: error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    if output_file:
        Path(output_file).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


@cli.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk over standard input and output (the only transport; accepted for clients that pass it).")
def lsp(stdio: bool) -> None:
    """Start the language server on standard input and output (needs: pip install 'steplint[lsp]')."""
    try:
        from steplint.frontends.lsp_server import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        click.echo("steplint: error: the language server needs pygls: pip install 'steplint[lsp]'", err=True)
        sys.exit(EXIT_ERROR)
    serve()


def _work_done(stats) -> str:  # noqa: ANN001 - a steplint.run.results.RunStats
    if stats.replayed:
        return "nothing changed since the last run: its findings were replayed from the cache"
    return (
        f"{stats.read} file(s) read, {stats.summarized} summarized, {stats.checked} reported, "
        f"{stats.analyzed} analyzed (the others' findings were kept from the cache)"
    )


def main() -> None:
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(EXIT_ERROR)
