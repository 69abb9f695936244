"""Configuration errors: exit 2 with one line that names the problem, never a traceback."""

from __future__ import annotations

import pytest
from cli_samples import steplint

CLEAN = "from agent_framework import step\n\n@step\nasync def tick(x: str) -> str:\n    return x\n"



@pytest.mark.parametrize(
    "config, message",
    [
        ('[tool.steplint]\nextend-selct = ["STP011"]\n', "unknown key 'extend-selct' in [tool.steplint] (did you mean 'extend-select'?)"),
        ('[tool.steplint]\ncolour = "red"\n', "unknown key 'colour' in [tool.steplint] (known keys: cache-dir, exclude, extend, extend-exclude,"),
        ("[tool.steplint]\nselect = [1]\n", "'select' must be a list of strings"),
        ('[tool.steplint]\nper-file-ignores = ["tests/*"]\n', "'per-file-ignores' must be a table of glob = [codes]"),
        ("[tool.steplint]\ntarget-version = 1.20\n", "'target-version' must be a quoted version"),
        ('[tool.steplint]\nignore = ["STP01O"]\n', "unknown rule selector 'STP01O' in ignore"),
        ('[tool.steplint.per-file-ignores]\n"tests/*" = ["E501"]\n', "unknown rule selector 'E501' in per-file-ignores \"tests/*\""),
        ("[tool.steplint\nselect = []\n", "invalid TOML: Expected ']' at the end of a table declaration (at line 1, column 15)"),
        ('[tool.steplint]\nselect = ["STP"\n', "invalid TOML"),
    ],
)
def test_a_bad_configuration_exits_2_with_one_line(tmp_path, config, message):
    (tmp_path / "pyproject.toml").write_text(config)
    (tmp_path / "a.py").write_text(CLEAN)
    result = steplint("a.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("steplint: error: ") and "pyproject.toml" in lines[0]
    assert message in lines[0]
    assert "Traceback" not in result.stderr


def test_an_explicit_config_file_is_checked_the_same_way(tmp_path):
    (tmp_path / "lint.toml").write_text("[tool.steplint]\nignore = 3\n")
    (tmp_path / "a.py").write_text(CLEAN)
    result = steplint("--config", "lint.toml", "a.py", cwd=tmp_path)
    assert result.returncode == 2 and "lint.toml: 'ignore' must be a list of strings" in result.stderr
