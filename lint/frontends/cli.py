"""The ``steplint`` command (click). Exit codes: 0 clean, 1 findings, 2 usage or internal error."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from steplint._version import __version__
from steplint.frontends.exit_status import EXIT_ERROR, EXIT_FINDINGS, UsageError
from steplint.frontends.replay_command import replay_check
from steplint.report.format_names import FORMAT_NAMES
from steplint.rules.stp900_syntax_error import SyntaxErrorRule


class _DefaultToCheck(click.Group):
    """``steplint PATH...`` means ``steplint check PATH...``.

    Subcommand names win over paths of the same name (write ``steplint check rules``
    or ``./rules`` for a folder called ``rules``); ``--version`` and ``--help`` stay
    the group's, and its help lists the options of ``check`` too.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and (args[0] in self.commands or args[0] in ("--version", "--help", "-h")):
            return super().parse_args(ctx, args)
        return super().parse_args(ctx, ["check", *args])

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_help(ctx, formatter)
        check_command = self.commands["check"]
        with click.Context(check_command, info_name="check", parent=ctx) as check_context:
            rows = [p.get_help_record(check_context) for p in check_command.get_params(check_context)
                    if isinstance(p, click.Option)]
        with formatter.section("Options of the default command, check (steplint [check] [OPTIONS] [PATHS]...)"):
            formatter.write_dl([row for row in rows if row is not None and row[0] != "-h, --help"])


@click.group(cls=_DefaultToCheck, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="steplint", message="%(prog)s %(version)s")
def cli() -> None:
    """Find checkpoint-replay hazards in Microsoft Agent Framework workflows.

    Run 'steplint PATH...' (the default command, check), 'steplint rules' to
    list the rules, or 'steplint rule CODE' (or NAME) for one rule's
    documentation. A folder named like a command is 'steplint check rules'
    or 'steplint ./rules'.

    Exit status: 0 no findings, 1 findings (warnings too; --exit-zero: 0), 2 a
    usage, configuration or internal error.
    """


@cli.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--select", help="Comma-separated rule codes, prefixes or ALL to enable; replaces the configured selection.")
@click.option("--extend-select", help="Rule codes or prefixes to enable on top of the selection.")
@click.option("--ignore", help="Rule codes or prefixes to disable.")
@click.option("--exclude", help="Comma-separated glob patterns to exclude (replaces the defaults).")
@click.option("--extend-exclude", help="Glob patterns to exclude on top of the defaults.")
@click.option("--force-exclude/--no-force-exclude", default=None,
              help="Apply excludes and ignore files to files named on the command line too (key: force-exclude).")
@click.option("--respect-gitignore/--no-respect-gitignore", default=None,
              help="Leave out files that .gitignore, .ignore or .git/info/exclude ignore (default: respect).")
@click.option("--format", "--output-format", "output_format", type=click.Choice(FORMAT_NAMES), default=None,
              help="How to print the findings (default: output-format, else text; text is concise, full adds the source line).")
@click.option("--output-file", "-o", type=click.Path(dir_okay=False), help="Write the findings to this file.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour in the text layouts (auto: on a terminal, unless NO_COLOR; FORCE_COLOR forces it).")
@click.option("--statistics", is_flag=True, help="Print a count per rule instead of each finding (JSON with --format json).")
@click.option("--show-fixes", is_flag=True, help="List the fixes --fix applied (without --fix: what it would fix), by file and rule.")
@click.option("--show-settings", is_flag=True, help="Print the resolved settings and where each came from, then exit.")
@click.option("--show-files", is_flag=True, help="Print the files a run would lint, then exit.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="With --fix, exit 1 when a file was fixed, even if nothing is left.")
@click.option("--config", "config_file", multiple=True, metavar="FILE | KEY=VALUE",
              help="Read settings from this TOML file, or set one as a TOML line, e.g. 'target-version = \"1.21\"' (repeatable).")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
@click.option("--target-version", help="The agent-framework-core version the code runs on, e.g. 1.19.")
@click.option("--target-python", help="The Python version the code runs on, e.g. 3.11 (default: requires-python's lowest, else this Python).")
@click.option("--stdin-filename", help="Lint standard input as if it were this file (no PATHS needed; '-' also reads it).")
@click.option("--disable-noqa", is_flag=True, help="Ignore '# noqa' comments ('# steplint: disable=' still applies).")
@click.option("--add-noqa", is_flag=True, help="Add a '# noqa: CODE' to every line with a finding, then exit.")
@click.option("--fix/--no-fix", default=None, help="Apply the safe fixes, then report what is left (key: fix).")
@click.option("--fix-only", is_flag=True, help="Apply the fixes, report nothing that is left, exit 0 (implies --fix).")
@click.option("--unsafe-fixes/--no-unsafe-fixes", default=None,
              help="With --fix or --diff, apply the unsafe fixes too (key: unsafe-fixes).")
@click.option("--unfixable", help="Rule codes or prefixes whose fixes are never applied (adds to the unfixable key).")
@click.option("--extend-per-file-ignores", metavar="PATTERN:CODE,...",
              help="Per-file ignores on top of the configured ones, e.g. 'tests/*:STP0' (a glob, a colon, a code or prefix).")
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
    help=f"Report files larger than this as {SyntaxErrorRule.code} instead of analyzing them: bytes, or e.g. "
    '"10MB" (default), 0: no limit.',
)
@click.option("-v", "--verbose", is_flag=True, help="Explain what happens; show tracebacks of internal errors.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the findings (no notes on stderr, no summary).")
@click.option("-s", "--silent", is_flag=True, help="Print nothing; the exit status still says whether there were findings.")
@click.option("-w", "--watch", is_flag=True, help="Lint again whenever a linted file or the configuration changes (Ctrl-C stops).")
def check(paths: tuple[str, ...], **options: object) -> None:
    """Lint PATHS (default: the current folder); '-' or --stdin-filename alone reads standard input."""
    from steplint.frontends.check_command import run_check
    from steplint.frontends.check_options import CheckOptions
    from steplint.frontends.watch_command import run_watch

    verbose = bool(options.get("verbose"))
    try:
        parsed = CheckOptions.parse(paths, options)
        code = run_watch(parsed) if parsed.watch else run_check(parsed)
    except click.exceptions.Exit:
        raise
    except UsageError as exc:
        click.echo(f"steplint: error: {exc}", err=True)
        code = EXIT_ERROR
    except BrokenPipeError:  # `steplint . | head`: the reader left; say nothing more
        _quiet_broken_pipe()
        code = EXIT_FINDINGS
    except Exception as exc:  # an internal error: one line, no traceback unless asked
        if verbose:
            import traceback

            traceback.print_exc()
        click.echo(f"steplint: internal error: {type(exc).__name__}: {exc}", err=True)
        code = EXIT_ERROR
    sys.exit(code)


def _quiet_broken_pipe() -> None:
    # Python flushes stdout again at exit; point it at /dev/null so that flush cannot fail too
    # (exit 1, as Python's documentation on SIGPIPE advises).
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _size(value: str | None) -> int | None:
    from steplint.config.settings import parse_size

    if value is None:
        return None
    try:
        return parse_size(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@cli.command("version")
@click.option("--output-format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def version(output_format: str) -> None:
    """Print steplint's version (as 'steplint --version'; JSON with --output-format json), as 'ruff version' does."""
    if output_format == "json":
        import json

        click.echo(json.dumps({"version": __version__}))
    else:
        click.echo(f"steplint {__version__}")


@cli.command("rules")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "markdown"]), default="text",
              show_default=True, help="A table, JSON (one object per rule), or the README's Markdown table.")
@click.option("--markdown", is_flag=True, help="The same as --format markdown.")
def list_rules(output_format: str, markdown: bool) -> None:
    """List every rule: code, name, default severity, whether it is on by default, and whether it has a fix."""
    import json

    from steplint.catalog.docs import markdown_table
    from steplint.catalog.registry import all_rules

    if markdown or output_format == "markdown":
        click.echo(markdown_table(), nl=False)
        return
    if output_format == "json":
        rows = [
            {"code": rule.code, "name": rule.name, "severity": rule.severity, "default_enabled": rule.default_enabled,
             "fix": rule.fix, "summary": rule.summary, "url": rule.help_uri()}
            for rule in all_rules()
        ]
        click.echo(json.dumps(rows, indent=2))
        return
    for rule in all_rules():
        state = "on" if rule.default_enabled else "opt-in"
        click.echo(f"{rule.code}  {rule.name:<28} {rule.severity:<8} {state:<7} {rule.summary}")


@cli.command("rule")
@click.argument("code", required=False, metavar="CODE_OR_NAME")
@click.option("--all", "show_all", is_flag=True, help="Print every rule's documentation, in code order.")
def show_rule(code: str | None, show_all: bool) -> None:
    """Print the documentation of one rule, by code (STP001) or name (step-calls-step), or of every rule (--all)."""
    from steplint.catalog.registry import all_rules, rule_for

    if show_all == (code is not None):
        click.echo("steplint: error: give one rule code or name, or --all (see 'steplint rules')", err=True)
        sys.exit(EXIT_ERROR)
    rules = all_rules() if show_all else (rule_for(code or ""),)
    if rules[0] is None:
        click.echo(f"steplint: error: unknown rule '{code}': not a code or a name (see 'steplint rules')", err=True)
        sys.exit(EXIT_ERROR)
    for number, rule in enumerate(rules):
        if number:
            click.echo()
        click.echo(f"# {rule.code} {rule.name} ({rule.severity}, {'on by default' if rule.default_enabled else 'opt-in'})\n")
        click.echo(rule.doc())


@cli.command("graph")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--workflow", help="Draw only this workflow (its name, its name= or module.name).")
@click.option("--format", "output_format", type=click.Choice(["mermaid", "dot", "json", "html"]), default=None,
              help="mermaid (default), dot, json or html; --calls: json, its only format.")
@click.option("--output-file", type=click.Path(dir_okay=False), help="Write the graph to this file.")
@click.option("--helpers", is_flag=True, help="Draw the plain helpers between steps instead of naming them on edges.")
@click.option("--all", "whole", is_flag=True, help="Every workflow and step, grouped by module.")
@click.option("--calls", is_flag=True, help="The plain call graph instead: each function's callees, as JSON.")
@click.option("--isolated", is_flag=True, help="Ignore all configuration files.")
def graph(paths: tuple[str, ...], workflow: str | None, output_format: str | None, output_file: str | None, helpers: bool,
          whole: bool, calls: bool, isolated: bool) -> None:
    """Draw each workflow: the steps it runs, what they reach, and the hazards on the way.

    A path that does not exist, or a file that cannot be read or parsed, is its STP900 finding on stderr (exit 1).
    """
    from steplint.frontends.graph_command import run_graph

    drawing = {"workflow": workflow, "helpers": helpers, "whole": whole}
    sys.exit(run_graph(list(paths) or ["."], output_format, output_file, calls, isolated, drawing))


@cli.command("clean")
@click.argument("paths", nargs=-1, type=click.Path(file_okay=False))
@click.option("--cache-dir", type=click.Path(file_okay=False), envvar="STEPLINT_CACHE_DIR",
              help="Remove this cache folder too (the --cache-dir a run was given).")
def clean(paths: tuple[str, ...], cache_dir: str | None) -> None:
    """Remove the caches under PATHS (default: the current folder), as 'ruff clean' does."""
    from steplint.run.cache import CACHE_DIR_NAME, is_cache_folder, remove_tree

    found: list[Path] = [Path(cache_dir)] if cache_dir and Path(cache_dir).is_dir() else []
    for top in paths or (".",):
        for directory, folders, _ in os.walk(top):
            if CACHE_DIR_NAME in folders:
                found.append(Path(directory) / CACHE_DIR_NAME)
            folders[:] = [f for f in folders if f not in (CACHE_DIR_NAME, ".git", "node_modules") and not f.startswith(".venv")]
    for folder in dict.fromkeys(found):
        if not is_cache_folder(folder):
            click.echo(f"steplint: warning: {folder} does not look like a steplint cache; left alone", err=True)
            continue
        click.echo(f"Removing cache at: {folder}")
        remove_tree(folder)


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


cli.add_command(replay_check)


def main() -> None:
    from steplint.core import gc_pause

    # A process that runs one command and exits. Put back as a run ended, the default thresholds would have the next
    # allocation scan every object the run made (0.3 s of agent-framework's 4 s); at exit, what is left (the
    # analysis' cycles) need not be scanned either. In-process callers (the API, tests) keep their own collector.
    gc_pause.use_batch_thresholds()
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover
        sys.exit(EXIT_ERROR)
    except BrokenPipeError:  # `steplint rules | head`: the reader left; exit quietly, as ruff does
        _quiet_broken_pipe()
        sys.exit(EXIT_FINDINGS)
    finally:
        gc_pause.leave_to_exit()
