"""``steplint replay-check``'s verdicts as text, JSON, SARIF or GitHub annotations.

The verdicts are steplint.replay's (duck-typed here: ``checkpoint_id``,
``workflow``, ``verdict``, ``reason``, ``false_refusal``, ``warnings``,
``to_json()``). SARIF and GitHub follow the linter's writers: the same schema,
levels, escaping and ``%SRCROOT%``-relative locations; a checkpoint's location
is the workflow definition's file and line. A verdict other than ``ok`` is a
result (``wrong``, ``refused`` and ``unreadable`` errors, ``stale`` and ``unjudged`` warnings:
the exit status, not the level, says whether it fails); each warning (a call that runs live before the resume
point, a cached result the new code no longer uses) is a warning result.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from steplint._version import __version__
from steplint.report.github_format import escape_data, escape_property
from steplint.report.sarif_format import FINGERPRINT_KEY, INFORMATION_URI, SCHEMA_URI, SRCROOT, artifact_location

LEVELS = {"wrong": "error", "refused": "error", "unreadable": "error", "stale": "warning", "unjudged": "warning"}
RULES = {
    "wrong": "the new code resumes the checkpoint and serves a cached value to another call (or runs a completed call again)",
    "refused": "MAF refuses to resume the checkpoint with the new code",
    "unreadable": "the checkpoint cannot be read or decoded",
    "stale": "cached values were computed by code or data that changed since the checkpoint",
    "unjudged": "the new code resumes the checkpoint, but whether every cached value goes to its call cannot be judged",
    "live-call": "a call runs live before the resume point, or a cached result is no longer used",
}


def results(verdicts: Sequence[Any]) -> list[tuple[str, str, str, Any]]:
    """(rule, level, message, verdict) for every verdict other than ok and every warning."""
    found = []
    for verdict in verdicts:
        if verdict.verdict != "ok":
            refusal = " (false refusal: a re-stamped resume is right; see --restamp)" if verdict.false_refusal else ""
            message = f"checkpoint {verdict.checkpoint_id}: {verdict.verdict}{refusal}: {verdict.reason}"
            found.append((verdict.verdict, LEVELS.get(verdict.verdict, "error"), message, verdict))
        for warning in verdict.warnings:
            found.append(("live-call", "warning", f"checkpoint {verdict.checkpoint_id}: {warning}", verdict))
    return found


def as_text(verdicts: Sequence[Any]) -> str:
    lines = []
    for verdict in verdicts:
        refusal = " (false refusal: a re-stamped resume is right)" if verdict.false_refusal else ""
        lines.append(f"{verdict.checkpoint_id} {verdict.workflow}: {verdict.verdict}{refusal}: {verdict.reason}")
        lines += [f"  warning: {warning}" for warning in verdict.warnings]
    kinds = list(dict.fromkeys(verdict.verdict for verdict in verdicts))
    judged = ", ".join(f"{sum(v.verdict == kind for v in verdicts)} {kind}" for kind in kinds)
    warned = sum(len(verdict.warnings) for verdict in verdicts)
    lines.append(f"{len(verdicts)} checkpoint(s): {judged or 'none found'}" + (f"; {warned} warning(s)" if warned else ""))
    return "\n".join(lines) + "\n"


def as_json(verdicts: Sequence[Any]) -> str:
    return json.dumps([verdict.to_json() for verdict in verdicts], indent=2) + "\n"


def as_github(verdicts: Sequence[Any], location: tuple[str, int]) -> str:
    path, line = location
    out = []
    for rule, level, message, _ in results(verdicts):
        properties = f"title={escape_property(f'steplint replay-check ({rule})')},file={escape_property(path)},line={line}"
        out.append(f"::{level} {properties}::{escape_data(message)}\n")
    return "".join(out)


def as_sarif(verdicts: Sequence[Any], location: tuple[str, int]) -> str:
    base = Path.cwd()
    path, line = location
    rule_ids = list(RULES)
    sarif_results = []
    for rule, level, message, verdict in results(verdicts):
        identity = "\0".join((verdict.checkpoint_id, rule, message))
        sarif_results.append({
            "ruleId": rule,
            "ruleIndex": rule_ids.index(rule),
            "level": level,
            "message": {"text": message},
            "locations": [{"physicalLocation": {"artifactLocation": artifact_location(path, base),
                                                "region": {"startLine": line}}}],
            "partialFingerprints": {FINGERPRINT_KEY: hashlib.sha256(identity.encode()).hexdigest()[:32]},
            "properties": {"checkpoint_id": verdict.checkpoint_id, "verdict": verdict.verdict,
                           "false_refusal": verdict.false_refusal},
        })
    driver = {
        "name": "steplint replay-check",
        "version": __version__,
        "semanticVersion": __version__,
        "informationUri": INFORMATION_URI,
        "rules": [{"id": rule, "name": rule, "shortDescription": {"text": text},
                   "defaultConfiguration": {"level": LEVELS.get(rule, "warning")}} for rule, text in RULES.items()],
    }
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver},
                  "originalUriBaseIds": {SRCROOT: {"uri": base.as_uri().rstrip("/") + "/"}},
                  "results": sarif_results}],
    }
    return json.dumps(log, indent=2) + "\n"
