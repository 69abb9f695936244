"""``steplint replay-check``: will the new code resume each saved checkpoint right, refuse it, or resume it wrong?

The work is steplint.replay's (a runtime package: it imports nothing of the
linter); this module reads the options, makes the ``--baseline-ref`` worktree
and prints the verdicts (steplint.report.replay_formats).
Exit status: 0 when every verdict is ok (stale too with ``--allow-stale``;
warnings fail only with ``--strict``), 1 otherwise, 2 a usage error (the target
does not import or is not a workflow, the folder does not exist, a bad
``--baseline-ref``).
"""

from __future__ import annotations

import inspect
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from steplint.frontends.exit_status import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS
from steplint.report import replay_formats


class BaselineRefError(Exception):
    """--baseline-ref cannot be checked out: one line."""


@click.command("replay-check")
@click.argument("target")
@click.option("--checkpoints", "folder", required=True, type=click.Path(file_okay=False),
              help="The FileCheckpointStorage folder whose checkpoints to judge.")
@click.option("--baseline", type=click.Path(exists=True, file_okay=False),
              help="A folder with the code that wrote the checkpoints (TARGET is imported there too).")
@click.option("--baseline-ref", "baseline_ref", metavar="REV",
              help="A git revision with the code that wrote the checkpoints, checked out into a temporary worktree.")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "sarif", "github"]), default="text",
              show_default=True)
@click.option("--latest", is_flag=True, help="Only the latest checkpoint of each run.")
@click.option("--allow-stale", is_flag=True, help="A stale verdict does not fail the check.")
@click.option("--strict", is_flag=True, help="Warnings (calls that run live before the resume point) fail the check.")
@click.option("--restamp", "restamp_refused", is_flag=True,
              help="Write the new signature hash into each checkpoint proven a false refusal (a backup first).")
def replay_check(target: str, folder: str, baseline: str | None, baseline_ref: str | None, output_format: str,
                 latest: bool, allow_stale: bool, strict: bool, restamp_refused: bool) -> None:
    """Replay the checkpoints in --checkpoints against TARGET (module:attribute, importable from here).

    No step body runs and the folder is never written (except by --restamp); the
    workflow body runs until it uses the result of a call that would run live.
    Verdicts: ok, refused (with false_refusal), wrong, stale, unreadable,
    unjudged; wrong and stale need --baseline or --baseline-ref, and a
    baseline that cannot replay a checkpoint makes it unjudged, never ok.
    """
    from steplint.replay import CheckpointsError, TargetError, check_checkpoints, load_target, restamp

    if baseline and baseline_ref:
        _fail("give --baseline or --baseline-ref, not both")
    try:
        definition = load_target(target)
        with _baseline_folder(baseline, baseline_ref) as baseline_path:
            verdicts = check_checkpoints(definition, folder, baseline=baseline_path, target=target, latest=latest)
    except (TargetError, CheckpointsError, BaselineRefError) as error:
        _fail(str(error))
    location = _location(definition)
    if output_format == "json":
        click.echo(replay_formats.as_json(verdicts), nl=False)
    elif output_format == "sarif":
        click.echo(replay_formats.as_sarif(verdicts, location), nl=False)
    elif output_format == "github":
        click.echo(replay_formats.as_github(verdicts, location), nl=False)
    else:
        click.echo(replay_formats.as_text(verdicts), nl=False)
    if restamp_refused:
        restamped, backup = restamp(Path(folder), verdicts)
        click.echo(f"re-stamped {len(restamped)} checkpoint(s)" + (f"; backup in {backup}" if backup else ""), err=True)
    sys.exit(exit_status(verdicts, allow_stale=allow_stale, strict=strict))


def exit_status(verdicts: list[Any], *, allow_stale: bool = False, strict: bool = False) -> int:
    """0 when every verdict passes (ok; stale with allow_stale; warnings only without strict), else 1."""
    passing = {"ok", "stale"} if allow_stale else {"ok"}
    if any(verdict.verdict not in passing for verdict in verdicts):
        return EXIT_FINDINGS
    if strict and any(verdict.warnings for verdict in verdicts):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _fail(message: str) -> None:
    click.echo(f"steplint: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


def _location(definition: Any) -> tuple[str, int]:
    """The workflow definition's file (relative to here when it is below) and line."""
    function = getattr(definition, "_func", None) or getattr(definition, "func", None) or definition
    code = getattr(inspect.unwrap(function), "__code__", None)
    if code is None:
        return "", 1
    path = os.path.relpath(code.co_filename) if not os.path.relpath(code.co_filename).startswith("..") else code.co_filename
    return path, code.co_firstlineno


@contextmanager
def _baseline_folder(baseline: str | None, baseline_ref: str | None) -> Iterator[str | None]:
    """The baseline folder: --baseline, or the current folder's place in a temporary worktree of --baseline-ref."""
    if not baseline_ref:
        yield baseline
        return
    here = Path.cwd()
    top = _git(here, "rev-parse", "--show-toplevel", what="the current folder is not in a git repository")
    commit = _git(here, "rev-parse", "--verify", "--quiet", f"{baseline_ref}^{{commit}}",
                  what=f"--baseline-ref {baseline_ref} is not a revision of {top}")
    scratch = Path(tempfile.mkdtemp(prefix="steplint-baseline-"))
    worktree = scratch / "tree"
    _git(here, "worktree", "add", "--detach", str(worktree), commit, what=f"cannot check out {baseline_ref}")
    try:
        yield str(worktree / here.resolve().relative_to(Path(top).resolve()))
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=here, capture_output=True, check=False)
        shutil.rmtree(scratch, ignore_errors=True)
        subprocess.run(["git", "worktree", "prune"], cwd=here, capture_output=True, check=False)


def _git(folder: Path, *arguments: str, what: str) -> str:
    try:
        completed = subprocess.run(["git", *arguments], cwd=folder, capture_output=True, text=True, check=False)
    except OSError as error:
        raise BaselineRefError(f"{what} (git: {error})") from error
    if completed.returncode != 0:
        raise BaselineRefError(what)
    return completed.stdout.strip()
