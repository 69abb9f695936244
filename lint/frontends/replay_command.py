"""``steplint replay-check``: will the new code resume each saved checkpoint right, refuse it, or resume it wrong?

The work is steplint.replay's (a runtime package: it imports nothing of the
linter); this module reads the options and prints the verdicts.
Exit status: 0 every verdict ok, 1 any other verdict, 2 a usage error (the
target does not import or is not a workflow, the folder does not exist).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from steplint.frontends.exit_status import EXIT_ERROR, EXIT_FINDINGS


@click.command("replay-check")
@click.argument("target")
@click.option("--checkpoints", "folder", required=True, type=click.Path(file_okay=False),
              help="The FileCheckpointStorage folder whose checkpoints to judge.")
@click.option("--baseline", type=click.Path(exists=True, file_okay=False),
              help="A folder with the code that wrote the checkpoints (TARGET is imported there too).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--latest", is_flag=True, help="Only the latest checkpoint of each run.")
@click.option("--restamp", "restamp_refused", is_flag=True,
              help="Write the new signature hash into each checkpoint proven a false refusal (a backup first).")
def replay_check(target: str, folder: str, baseline: str | None, output_format: str, latest: bool,
                 restamp_refused: bool) -> None:
    """Replay the checkpoints in --checkpoints against TARGET (module:attribute, importable from here).

    No step body runs and the folder is never written; the workflow body runs
    up to its first live step call. Verdicts: ok, refused (with false_refusal),
    wrong, stale, unreadable; wrong and stale need --baseline.
    """
    from steplint.replay import CheckpointsError, TargetError, check_checkpoints, load_target, restamp

    try:
        definition = load_target(target)
        verdicts = check_checkpoints(definition, folder, baseline=baseline, target=target, latest=latest)
    except (TargetError, CheckpointsError) as error:
        click.echo(f"steplint: error: {error}", err=True)
        sys.exit(EXIT_ERROR)
    if output_format == "json":
        click.echo(json.dumps([verdict.to_json() for verdict in verdicts], indent=2))
    else:
        for verdict in verdicts:
            refusal = " (false refusal: a re-stamped resume is right)" if verdict.false_refusal else ""
            click.echo(f"{verdict.checkpoint_id} {verdict.workflow}: {verdict.verdict}{refusal}: {verdict.reason}")
        judged = ", ".join(f"{sum(v.verdict == kind for v in verdicts)} {kind}" for kind in _kinds(verdicts))
        click.echo(f"{len(verdicts)} checkpoint(s): {judged or 'none found'}")
    if restamp_refused:
        restamped, backup = restamp(Path(folder), verdicts)
        click.echo(f"re-stamped {len(restamped)} checkpoint(s)" + (f"; backup in {backup}" if backup else ""), err=True)
    if any(verdict.verdict != "ok" for verdict in verdicts):
        sys.exit(EXIT_FINDINGS)


def _kinds(verdicts: list) -> list[str]:
    return list(dict.fromkeys(verdict.verdict for verdict in verdicts))
