"""``steplint graph``: the drawing (or ``--calls``' call graph) on stdout, and a file that could not be read or parsed,
or a path that does not exist, as its STP900 finding on stderr (exit 1), as the linter reports it."""

from __future__ import annotations

import json
from pathlib import Path

import click

from steplint.frontends.exit_status import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS

CALLS_FORMAT = "json"  # the one layout of --calls, so --calls implies it


def run_graph(targets: list[str], output_format: str | None, output_file: str | None, calls: bool, isolated: bool,
              drawing: dict) -> int:
    """``drawing``: the workflow graph's choices (workflow, helpers, whole). Returns the exit status."""
    from steplint.api import load_settings
    from steplint.config.settings import ConfigError
    from steplint.report import graph_formats
    from steplint.report.text_format import as_concise
    from steplint.run.graph_run import call_graph_for, workflow_graph_for

    if calls and output_format not in (None, CALLS_FORMAT):
        click.echo(f"steplint: error: --calls prints JSON, not {output_format}: leave out --format", err=True)
        return EXIT_ERROR
    start = Path(targets[0])
    try:
        settings = load_settings(None, start if start.exists() else Path("."), isolated)
        if calls:
            result = call_graph_for(targets, settings)
            text = json.dumps(result.graph, indent=2, sort_keys=True) + "\n"
        else:
            result = workflow_graph_for(targets, settings, drawing["workflow"], drawing["helpers"], drawing["whole"])
            base = Path(output_file).resolve().parent if output_file else Path.cwd()
            text = graph_formats.FORMATS[output_format or "mermaid"](result.graph, base)
    except (ConfigError, LookupError) as exc:
        click.echo(f"steplint: error: {exc}", err=True)
        return EXIT_ERROR
    if output_file:
        Path(output_file).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
    if result.unreadable:
        click.echo(as_concise(result.unreadable), err=True, nl=False)
        return EXIT_FINDINGS
    return EXIT_CLEAN
