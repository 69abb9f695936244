"""The ``# fixture:`` header that lets a fixture declare its own settings."""

from __future__ import annotations

import pytest
from expectations import FixtureHeaderError, header_settings, parse_header, settings_for


def test_no_header_means_default_settings(tmp_path):
    source = tmp_path / "plain.py"
    source.write_text("x = 1  # fixture: target-version=1.19 is not a header here\n")
    settings = settings_for(source)
    assert settings.target_version is None and settings.select is None and settings.extend_select == ()


def test_header_sets_version_and_code_lists():
    fields = parse_header('"""Doc."""\n# fixture: target-version=1.19, extend-select=STP011, STP012, ignore=STP001\n')
    assert fields == {"target_version": (1, 19, 0), "extend_select": ("STP011", "STP012"), "ignore": ("STP001",)}


def test_header_is_only_read_near_the_top():
    assert parse_header("\n" * 10 + "# fixture: select=STP001\n") == {}


@pytest.mark.parametrize("header", ["# fixture: colour=red", "# fixture: STP011", "# fixture: target-version=new"])
def test_bad_header_is_an_error(header):
    with pytest.raises(ValueError):
        parse_header(header + "\n")


def test_folder_fixture_takes_the_header_of_any_file(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("# fixture: target-version=1.19\n")
    assert header_settings(tmp_path) == {"target_version": (1, 19, 0)}


def test_folder_fixture_headers_must_agree(tmp_path):
    (tmp_path / "a.py").write_text("# fixture: target-version=1.21\n")
    (tmp_path / "b.py").write_text("# fixture: target-version=1.19\n")
    with pytest.raises(FixtureHeaderError):
        header_settings(tmp_path)


def test_overrides_win_over_the_header(tmp_path):
    source = tmp_path / "versioned.py"
    source.write_text("# fixture: target-version=1.19, extend-select=STP011\n")
    settings = settings_for(source, target_version=(1, 23, 0))
    assert settings.target_version == (1, 23, 0)
    assert settings.extend_select == ("STP011",)
