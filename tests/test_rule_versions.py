"""Rules that depend on the target version, run on one fixture under two versions."""

from __future__ import annotations

import pytest
from expectations import FIXTURES, reported_for, settings_for

from steplint.api import lint_paths

OLD = (1, 19, 0)
NEW = (1, 23, 0)


def codes(entry, version, **settings) -> set[str]:
    return {code for _, _, code in reported_for(entry, settings_for(entry, target_version=version, **settings))}


def test_replay_key_is_reported_on_1_19_only():
    entry = FIXTURES / "stp041_replay_key_unsupported.py"
    assert "STP041" in codes(entry, OLD)
    assert "STP041" not in codes(entry, NEW)


def test_replay_identity_rules_wake_up_on_1_20():
    """The 1.19 fixture's opaque argument, mutable default, closure and gather are findings on 1.23."""
    entry = FIXTURES / "stp041_replay_key_unsupported.py"
    assert not {"STP010", "STP012", "STP013", "STP020"} & codes(entry, OLD)
    assert {"STP010", "STP012", "STP013", "STP020"} <= codes(entry, NEW)


@pytest.mark.parametrize(
    "fixture, code",
    [
        ("stp011_unknown_fingerprint.py", "STP011"),
        ("stp012_closure_state.py", "STP012"),
        ("stp013_mutable_defaults.py", "STP013"),
        ("stp020_concurrency", "STP020"),
    ],
)
def test_replay_identity_rules_are_silent_before_1_20(fixture, code):
    entry = FIXTURES / fixture
    assert code in codes(entry, NEW)
    assert code not in codes(entry, OLD)


@pytest.mark.parametrize("fixture, code", [("stp042_step_on_method.py", "STP042"), ("stp030_nondeterminism", "STP030")])
def test_method_and_nondeterminism_rules_hold_on_every_version(fixture, code):
    entry = FIXTURES / fixture
    assert code in codes(entry, OLD) and code in codes(entry, NEW)


@pytest.mark.parametrize("version, story", [
    ((1, 2, 0), "is handed the cached result of the call that had its name"),
    (OLD, "is handed the cached result of the call that had its name"),
    (NEW, "miss their cached results and run again"),
])
def test_a_step_name_from_a_set_order_tells_its_release_story(version, story):
    """What tests/runtime/test_unstable_step_name.py shows: results swap before 1.20, steps rerun from 1.20."""
    entry = FIXTURES / "stp015_unstable_step_name.py"
    found = [d for d in lint_paths([str(entry)], settings_for(entry, target_version=version)).diagnostics
             if d.code == "STP015"]
    findings = [d for d in found if "set of strings" in d.message]
    assert len(findings) == 3 and all(story in d.message for d in findings)
    others = [d for d in found if "set of strings" not in d.message]
    assert len(others) == 5 and all("refuses the checkpoint" in d.message for d in others)


@pytest.mark.parametrize("version", [(1, 20, 0), (1, 26, 0)])
def test_checkpoint_changes_result_keeps_subclasses_out_from_1_20(version):
    """STP052's fixture marks the subclass cases "(before 1.20)": from 1.20 MAF pickles them with their class
    (tests/runtime/test_checkpoint_changes_result.py shows both), so only the other lines are reported there."""
    entry = FIXTURES / "stp052_checkpoint_changes_result.py"
    lines = entry.read_text().splitlines()
    every = {number for number, line in enumerate(lines, 1) if line.endswith("# expect: STP052")}
    before = {number for number, line in enumerate(lines, 1) if line.endswith("# expect: STP052 (before 1.20)")}
    assert every and before
    reported = {line for _, line, code in reported_for(entry, settings_for(entry, target_version=version))
                if code == "STP052"}
    assert reported == every
