"""The pytest11 plugin: inert by default, installs the shim with --steplint-shim."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

pytestmark = pytest.mark.runtime

NESTED_WORKFLOW = """
    import asyncio
    import sys

    import agent_framework as maf
    import pytest

    from steplint import runtime_shim


    @maf.step
    async def inner(label: str) -> str:
        return label.upper()


    @maf.step
    async def outer(label: str) -> str:
        return await inner(label)


    @maf.workflow(name="plugin-check")
    async def nested(label: str) -> str:
        return await outer(label)


    def run_nested():
        return asyncio.run(nested.build().run("x")).get_outputs()
"""

TESTS = {
    "inert": """
        def test_inert():
            assert runtime_shim.installed_mode() is None
            assert run_nested() == ["X"]
        """,
    "scoped": """
        def test_scoped():
            assert runtime_shim.installed_mode() == "scoped"
            assert run_nested() == ["X"]
        """,
    "flat": """
        def test_flat():
            assert runtime_shim.installed_mode() == "flat"
            with pytest.raises(runtime_shim.NestedStepError):
                run_nested()
        """,
}


def run_pytest(tmp_path: Path, test: str, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # keep the project's configuration out
    (tmp_path / "test_plugin_check.py").write_text(textwrap.dedent(NESTED_WORKFLOW) + textwrap.dedent(TESTS[test]))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *options, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )


def test_plugin_is_registered_under_pytest11() -> None:
    plugins = {entry.name: entry.value for entry in metadata.entry_points(group="pytest11")}
    assert plugins.get("steplint-shim") == "steplint.runtime_shim.pytest_plugin"


def test_plugin_is_inert_without_the_option(tmp_path: Path) -> None:
    completed = run_pytest(tmp_path, "inert")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "steplint runtime shim" not in completed.stdout


@pytest.mark.parametrize("mode", ["scoped", "flat"])
def test_option_installs_the_shim_for_the_session(tmp_path: Path, mode: str) -> None:
    completed = run_pytest(tmp_path, mode, f"--steplint-shim={mode}")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert f"steplint runtime shim: installed, mode={mode}" in completed.stdout


def test_unknown_mode_is_a_usage_error(tmp_path: Path) -> None:
    completed = run_pytest(tmp_path, "inert", "--steplint-shim=nested")
    assert completed.returncode == 4
    assert "--steplint-shim" in completed.stderr


def test_plugin_module_imports_nothing_heavy() -> None:
    program = (
        "import sys\n"
        "import steplint.runtime_shim.pytest_plugin\n"
        "assert 'agent_framework' not in sys.modules\n"
    )
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
