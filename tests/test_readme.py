"""The README says what the code does: its example is the real output, every option of the command is
documented, and the pre-commit revision it names is a commit that exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import click
import pytest
import yaml
from cli_samples import steplint
from integrations import snippet

from steplint.frontends.cli import cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_example_is_the_real_output():
    block = re.search(r"```console\n\$ (steplint [^\n]*)\n(.*?)```", _section("Example"), re.DOTALL)
    command, shown = block.group(1).split(), block.group(2)
    done = steplint(*command[1:], "--no-cache", cwd=ROOT)
    assert done.stdout == shown


@pytest.mark.parametrize("command", sorted(cli.commands))
def test_every_option_of_every_command_is_in_the_readme(command):
    with click.Context(cli.commands[command], info_name=command) as context:
        names = [name for param in cli.commands[command].get_params(context) if isinstance(param, click.Option)
                 for name in (*param.opts, *param.secondary_opts) if name.startswith("--") and name != "--help"]
    missing = [name for name in names if not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", README)]
    assert missing == [], f"steplint {command}: options the README does not mention"


def test_the_pre_commit_revision_is_a_commit_of_this_repository():
    (entry,) = yaml.safe_load(snippet("pre-commit", "yaml"))["repos"]
    revision = entry["rev"]
    assert re.fullmatch(r"[0-9a-f]{40}", revision), "until there are release tags, pin a full commit sha"
    if not (ROOT / ".git").exists():
        pytest.skip("an unpacked sdist has no history to look the commit up in")
    known = subprocess.run(["git", "cat-file", "-e", f"{revision}^{{commit}}"], cwd=ROOT, capture_output=True)
    assert known.returncode == 0, f"the README's pre-commit rev {revision} is not a commit of this repository"
