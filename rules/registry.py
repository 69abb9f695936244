"""Every rule steplint has, in code order. A rule not listed here does not exist."""

from __future__ import annotations

from steplint.rules.base import Rule
from steplint.rules.stp001_step_calls_step import StepCallsStep
from steplint.rules.stp002_step_reaches_step import StepReachesStep
from steplint.rules.stp010_unfingerprintable_param import UnfingerprintableParam
from steplint.rules.stp040_sync_step import SyncStep
from steplint.rules.stp100_unused_noqa import UnusedNoqa
from steplint.rules.stp900_syntax_error import SyntaxErrorRule

RULES: tuple[type[Rule], ...] = (
    StepCallsStep,
    StepReachesStep,
    UnfingerprintableParam,
    SyncStep,
    UnusedNoqa,
    SyntaxErrorRule,
)

_BY_CODE = {rule.code: rule for rule in RULES}


def rule_for(code: str) -> type[Rule] | None:
    return _BY_CODE.get(code.upper())


def all_codes() -> list[str]:
    return [rule.code for rule in RULES]


def markdown_table() -> str:
    """The README's rule table, generated so that it cannot drift from the code."""
    rows = ["| code | name | default severity | on by default | what it finds |", "|---|---|---|---|---|"]
    for rule in RULES:
        state = "yes" if rule.default_enabled else "opt-in"
        rows.append(f"| {rule.code} | {rule.name} | {rule.severity} | {state} | {rule.summary} |")
    return "\n".join(rows) + "\n"
