"""The layout is the data flow: import-linter's contracts hold, and every stage package is installed."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import tomllib
from package_layout import ROOT, installed_layout, listed_packages, packages_on_disk, stage_packages


def test_import_contracts_hold(tmp_path):
    """Stages import downwards only, no module cycle within a stage, and the shim and the replay check import nothing of the linter."""
    # import-linter finds a package's modules by walking its folder; the editable install maps
    # three top-level folders onto one name, which a walk cannot see: it walks the wheel's layout.
    layout = installed_layout(tmp_path / "layout")
    lint_imports = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint_imports), str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=layout,
        env={"PYTHONPATH": str(layout), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 4 kept, 0 broken." in done.stdout


def test_every_stage_package_is_listed_for_installation():
    """pyproject.toml lists the packages by hand (package-dir maps three folders): a new stage must be listed."""
    assert listed_packages() == packages_on_disk()


def test_every_layer_is_a_stage_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c["layers"] for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    assert set(layers) == stage_packages() | {"steplint.api", "steplint.rules"}


RULE_CODE = re.compile(r"STP\d{3}")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and its functions."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def rule_codes_in_code(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string or name in ``source`` that holds a rule code; docstrings and comments are prose.

    A docstring or comment explains the code to its reader ("a file that fails becomes STP900"); nothing runs on
    it. A string literal or a name is what the program does with a rule, which the rule's class must say.
    """
    tree = ast.parse(source)
    prose = _docstrings(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in prose:
            continue
        for _, value in ast.iter_fields(node):
            for text in value if isinstance(value, list) else [value]:
                if isinstance(text, str) and RULE_CODE.search(text):
                    found.append((getattr(node, "lineno", 0), text))
    return found


def test_the_rule_codes_hold_a_tell_tale_code():
    """The check below can fail: a string and a name are caught, a docstring and a comment are not."""
    source = '"""Reports STP900."""\n# STP001 in a comment\nx = "STP010"\nSTP020_ONLY = f"{x} and STP030"\n'
    assert [line for line, _ in rule_codes_in_code(source)] == [3, 4, 4]


def test_no_module_outside_the_rules_names_a_rule_code():
    """Every fact about a rule is an attribute of its class, found through the registry: none is listed elsewhere."""
    named = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for folder in ("lint", "runtime_shim")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, text in rule_codes_in_code(path.read_text(encoding="utf-8"))
    ]
    assert named == []
