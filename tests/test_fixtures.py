"""Lint every fixture and compare with its inline expectations, both ways (and columns where given)."""

from __future__ import annotations

import pytest
from expectations import expected_columns_for, expected_for, fixture_entries, reported_columns_for


@pytest.mark.parametrize("entry", fixture_entries(), ids=lambda p: p.name)
def test_fixture_matches_expectations(entry):
    expected = expected_for(entry)
    reported_at = reported_columns_for(entry)
    reported = {(path, line, code) for path, line, code, _ in reported_at}
    missing = sorted(expected - reported)
    extra = sorted(reported - expected)
    assert not missing and not extra, f"missing: {missing}\nextra: {extra}"
    columns = expected_columns_for(entry)
    wrong = sorted(columns - reported_at)
    assert not wrong, f"reported at another column: {wrong}"
