"""Every rule steplint has, in code order. A rule not listed here does not exist."""

from __future__ import annotations

from steplint.rules.base import Rule
from steplint.rules.stp001_step_calls_step import StepCallsStep
from steplint.rules.stp002_step_reaches_step import StepReachesStep
from steplint.rules.stp010_unfingerprintable_param import UnfingerprintableParam
from steplint.rules.stp011_unknown_fingerprint import UnknownFingerprint
from steplint.rules.stp012_closure_state_step import ClosureStateStep
from steplint.rules.stp013_mutable_default_step import MutableDefaultStep
from steplint.rules.stp020_concurrent_unkeyed_step import ConcurrentUnkeyedStep
from steplint.rules.stp030_nondeterministic_workflow import NondeterministicWorkflow
from steplint.rules.stp040_sync_step import SyncStep
from steplint.rules.stp041_replay_key_unsupported import ReplayKeyUnsupported
from steplint.rules.stp042_step_on_method import StepOnMethod
from steplint.rules.stp100_unused_noqa import UnusedNoqa
from steplint.rules.stp900_syntax_error import SyntaxErrorRule

RULES: tuple[type[Rule], ...] = (
    StepCallsStep,
    StepReachesStep,
    UnfingerprintableParam,
    UnknownFingerprint,
    ClosureStateStep,
    MutableDefaultStep,
    ConcurrentUnkeyedStep,
    NondeterministicWorkflow,
    SyncStep,
    ReplayKeyUnsupported,
    StepOnMethod,
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
