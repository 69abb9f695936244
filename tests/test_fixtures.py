"""Lint every fixture and compare with its inline expectations, both ways."""

from __future__ import annotations

import pytest
from expectations import expected_for, fixture_entries, reported_for


@pytest.mark.parametrize("entry", fixture_entries(), ids=lambda p: p.name)
def test_fixture_matches_expectations(entry):
    expected = expected_for(entry)
    reported = reported_for(entry)
    missing = sorted(expected - reported)
    extra = sorted(reported - expected)
    assert not missing and not extra, f"missing: {missing}\nextra: {extra}"


def test_there_are_fixtures_of_every_kind():
    entries = fixture_entries()
    assert any(e.is_dir() for e in entries), "a multi-module fixture project"
    assert len(entries) >= 8
