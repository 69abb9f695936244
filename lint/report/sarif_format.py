"""SARIF 2.1.0, the format GitHub code scanning and other dashboards import.

One run: ``tool.driver`` describes steplint and every rule (``ruleIndex``
points into that list); each finding is a result with a physical location
relative to ``%SRCROOT%`` (the working folder, where code scanning expects the
repository root) and a partial fingerprint that survives lines moving, so a
dashboard keeps tracking an alert when code is added above it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from pathlib import Path
from urllib.parse import quote

from steplint._version import __version__
from steplint.core.diagnostics import ERROR, WARNING, Diagnostic
from steplint.rules.base import Rule
from steplint.catalog.registry import all_rules

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/steplint/steplint"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "steplint/v1"
_LEVEL = {ERROR: "error", WARNING: "warning"}


def level(severity: str) -> str:
    return _LEVEL.get(severity, "note")


def _section(doc: str, title: str) -> str:
    """The text under one ``## title`` heading of a rule's doc page."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", doc, re.MULTILINE | re.DOTALL)
    return " ".join(match.group(1).split()) if match else ""


def rule_descriptor(rule: type[Rule]) -> dict:
    doc = rule.doc()
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": _section(doc, "What it does") or rule.summary},
        "help": {"text": doc, "markdown": doc},
        "helpUri": rule.help_uri(),
        "defaultConfiguration": {"level": level(rule.severity), "enabled": rule.default_enabled},
    }


def artifact_location(path: str, base: Path) -> dict:
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(base)
    except ValueError:
        return {"uri": absolute.as_uri()}
    return {"uri": quote(relative.as_posix()), "uriBaseId": SRCROOT}


def fingerprint(d: Diagnostic) -> str:
    """What the finding is about, without its line: the path, the code and the message naming the functions."""
    identity = "\0".join((d.path.replace(os.sep, "/"), d.code, d.message, *(d.chain or ())))
    return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:32]


def as_sarif(diagnostics: list[Diagnostic]) -> str:
    base = Path.cwd()
    rule_index = {rule.code: index for index, rule in enumerate(all_rules())}
    occurrences: Counter[str] = Counter()
    results = []
    for d in diagnostics:
        key = fingerprint(d)
        occurrences[key] += 1
        result: dict = {
            "ruleId": d.code,
            "level": level(d.severity),
            "message": {"text": d.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": artifact_location(d.path, base),
                        "region": {
                            "startLine": d.line,
                            "startColumn": d.column,
                            "endLine": d.end_line,
                            "endColumn": d.end_column,
                        },
                    }
                }
            ],
            # Identical findings in one file are told apart by their order.
            "partialFingerprints": {FINGERPRINT_KEY: f"{key}:{occurrences[key]}"},
        }
        if d.code in rule_index:
            result["ruleIndex"] = rule_index[d.code]
        if d.chain is not None:
            result["properties"] = {"chain": list(d.chain)}
        results.append(result)
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "steplint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [rule_descriptor(rule) for rule in all_rules()],
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": base.as_uri().rstrip("/") + "/"}},
                # steplint counts columns in characters (code points), not UTF-16 units.
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2) + "\n"
