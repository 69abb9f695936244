"""install / uninstall / installed: idempotence, exact restoration, refusals."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata

import pytest
from agent_framework._workflows import _functional
from shim_support import HAS_FINGERPRINTS, MAF_VERSION, run
from shim_trees import Node, crash_and_resume, storage_of

from steplint import runtime_shim
from steplint.runtime_shim import installer

pytestmark = pytest.mark.runtime

PATCHABLE = {
    _functional.StepWrapper: ["__call__", "_get_replay_identity"],
    _functional.RunContext: [
        "_get_step_cache_key",
        "_get_legacy_step_cache_key",
        "_get_automatic_step_cache_key",
        "_get_explicit_step_cache_key",
        "__init__",
        "_import_step_cache",
        "_export_step_cache",
        "_set_cached_result",
        "_get_cached_result",
        "request_info",
        "_export_step_cache_auto_request_info_counts",
        "_import_step_cache_auto_request_info_counts",
    ],
    _functional.FunctionalWorkflow: ["_run_core", "_ensure_not_running", "_release_run_guard", "_restore_replay_state",
                                     "_capture_replay_state", "_execute"],
}


def maf_attributes() -> dict[tuple[type, str], object]:
    return {
        (owner, name): owner.__dict__[name]
        for owner, names in PATCHABLE.items()
        for name in names
        if name in owner.__dict__
    }


N = Node
WRONG_WITHOUT_SHIM = (N("alpha", "a", (N("beta", "a"),)), N("alpha", "b", (N("beta", "b"),)))
CRASH = ((1, 0), "before")


def resumed_output() -> object:
    with storage_of("memory") as storage:
        return run(crash_and_resume(WRONG_WITHOUT_SHIM, "model", CRASH, storage)).output


@pytest.mark.parametrize("mode", ["flat", "scoped"])
def test_uninstall_restores_the_very_same_objects_and_behaviour(mode: str) -> None:
    before = maf_attributes()
    maf_output = resumed_output()
    runtime_shim.install(mode=mode, on_unfingerprintable="error" if HAS_FINGERPRINTS else "allow")
    patched = maf_attributes()
    assert patched[(_functional.StepWrapper, "__call__")] is not before[(_functional.StepWrapper, "__call__")]
    runtime_shim.uninstall()
    after = maf_attributes()
    assert after.keys() == before.keys()
    assert all(after[key] is before[key] for key in before)
    assert resumed_output() == maf_output
    assert runtime_shim.installed_mode() is None


def test_scoped_mode_patches_only_the_key_allocators_the_cache_writer_and_export_of_this_release() -> None:
    before = maf_attributes()
    runtime_shim.install(mode="scoped")
    changed = {name for (_, name), value in maf_attributes().items() if value is not before[(_, name)]}
    if HAS_FINGERPRINTS:
        allocators = {"_get_legacy_step_cache_key", "_get_automatic_step_cache_key", "_get_explicit_step_cache_key"}
    else:
        allocators = {"_get_step_cache_key"}
    # The run guard's wrappers keep the shim from being removed under a running workflow.
    guard = {"_ensure_not_running", "_release_run_guard"}
    # RunContext.__init__ marks the runs that start under the shim: one that started before stays on MAF's code.
    # Verification (on by default) writes its queued records where MAF copies the counts: export, end of the body.
    expected = {"__call__", "__init__", *guard, *allocators, "_get_cached_result", "_set_cached_result",
                "_export_step_cache", "request_info", "_execute"}
    assert changed == expected


def test_verification_off_patches_nothing_for_it() -> None:
    before = maf_attributes()
    runtime_shim.install(mode="flat", on_replay_mismatch="off")
    changed = {name for (_, name), value in maf_attributes().items() if value is not before[(_, name)]}
    assert changed == {"__call__", "__init__", "_ensure_not_running", "_release_run_guard"}


def test_flat_mode_patches_only_the_step_call_the_run_guard_and_replay_verification() -> None:
    before = maf_attributes()
    runtime_shim.install(mode="flat")
    changed = {name for (_, name), value in maf_attributes().items() if value is not before[(_, name)]}
    # Verification reads entries (their records), queues a record with each entry, and writes the queue into the
    # counts where MAF copies them: a checkpoint's export, and the end of the body (for a response-only replay);
    # it records each request that pauses and checks the answer a replay's request finds (answer_check).
    assert changed == {"__call__", "__init__", "_ensure_not_running", "_release_run_guard", "_get_cached_result",
                       "_set_cached_result", "_export_step_cache", "_execute", "request_info"}


def test_install_is_idempotent() -> None:
    runtime_shim.install(mode="scoped")
    patched = maf_attributes()
    runtime_shim.install(mode="scoped")
    runtime_shim.install("scoped", on_unfingerprintable="allow")
    assert maf_attributes() == patched
    runtime_shim.uninstall()
    runtime_shim.uninstall()  # uninstalling twice is harmless
    assert runtime_shim.installed_mode() is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"mode": "scoped"}, {"mode": "flat"}),
        ({"mode": "flat"}, {"mode": "scoped"}),
        ({"mode": "scoped"}, {"mode": "scoped", "on_unfingerprintable": "warn"}),
    ],
)
def test_installing_other_options_while_active_is_an_error(first: dict, second: dict) -> None:
    runtime_shim.install(**first)
    patched = maf_attributes()
    with pytest.raises(runtime_shim.ShimAlreadyInstalledError, match="uninstall") as raised:
        runtime_shim.install(**second)
    assert repr(first["mode"]) in str(raised.value)
    assert maf_attributes() == patched
    assert runtime_shim.installed_mode() == first["mode"]


def test_installed_context_manager() -> None:
    before = maf_attributes()
    with runtime_shim.installed(mode="scoped"):
        assert runtime_shim.installed_mode() == "scoped"
        assert resumed_output() == [[f"alpha.{x}@{i}[beta.{x}@{i}.0[]]" for i, x in enumerate("ab")]]
    assert runtime_shim.installed_mode() is None
    assert maf_attributes() == before


def test_installed_inside_an_application_wide_install_leaves_it_installed() -> None:
    runtime_shim.install(mode="flat")
    with runtime_shim.installed(mode="flat"):
        pass
    assert runtime_shim.installed_mode() == "flat"
    with pytest.raises(runtime_shim.ShimAlreadyInstalledError), runtime_shim.installed(mode="scoped"):
        pass
    assert runtime_shim.installed_mode() == "flat"


@pytest.mark.parametrize(
    "options",
    [{"mode": "nested"}, {"mode": "scoped", "on_unfingerprintable": "ignore"}],
)
def test_unknown_option_values_are_rejected(options: dict) -> None:
    with pytest.raises(ValueError, match="must be one of"):
        runtime_shim.install(**options)
    assert runtime_shim.installed_mode() is None


def test_an_untested_version_is_refused_unless_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(installer, "installed_framework_version", lambda: "1.99.0")
    with pytest.raises(runtime_shim.UnsupportedFrameworkError) as raised:
        runtime_shim.install(mode="scoped")
    assert raised.value.framework_version == "1.99.0"
    assert "1.99.0" in str(raised.value) and "allow_untested=True" in str(raised.value)
    assert runtime_shim.installed_mode() is None
    runtime_shim.install(mode="scoped", allow_untested=True)
    assert runtime_shim.installed_mode() == "scoped"


@pytest.mark.parametrize("allow_untested", [False, True])
def test_a_release_older_than_the_tested_ones_is_refused_in_one_sentence(monkeypatch: pytest.MonkeyPatch,
                                                                          allow_untested: bool) -> None:
    monkeypatch.setattr(installer, "installed_framework_version", lambda: "1.13.0")
    with pytest.raises(runtime_shim.UnsupportedFrameworkError) as raised:
        runtime_shim.install(mode="scoped", allow_untested=allow_untested)
    message = str(raised.value)
    assert raised.value.framework_version == "1.13.0" and message.count(". ") == 0 and message.endswith(".")
    assert "1.18.0 and newer" in message and "1.13.0" in message
    assert runtime_shim.installed_mode() is None


def test_every_tested_version_is_listed() -> None:
    assert MAF_VERSION in runtime_shim.TESTED_VERSIONS
    assert runtime_shim.TESTED_VERSIONS == ("1.18.0", "1.19.0", "1.20.0", "1.21.0", "1.22.0", "1.23.0", "1.26.0")


def test_an_unknown_shape_is_refused_even_when_untested_versions_are_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    allocator = "_get_legacy_step_cache_key" if HAS_FINGERPRINTS else "_get_step_cache_key"
    monkeypatch.delattr(_functional.RunContext, allocator)
    with pytest.raises(runtime_shim.UnsupportedFrameworkError, match="shape") as raised:
        runtime_shim.install(mode="flat", allow_untested=True)
    assert allocator in str(raised.value)
    assert runtime_shim.installed_mode() is None


def test_a_missing_framework_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    with pytest.raises(runtime_shim.UnsupportedFrameworkError, match="not installed") as raised:
        runtime_shim.install(mode="scoped")
    assert raised.value.framework_version is None


def test_a_second_copy_of_the_shim_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    runtime_shim.install(mode="scoped")
    first_copy = installer._active
    monkeypatch.setattr(installer, "_active", None)  # as if the module had been reloaded
    try:
        with pytest.raises(runtime_shim.UnsupportedFrameworkError, match="already patched"):
            runtime_shim.install(mode="scoped")
    finally:
        first_copy.patches.restore()


def test_the_shim_imports_neither_the_linter_nor_its_dependencies() -> None:
    program = (
        "import sys\n"
        "from steplint import runtime_shim\n"
        "assert 'agent_framework' not in sys.modules, 'imported MAF before install()'\n"
        "runtime_shim.install(mode='scoped')\n"
        "runtime_shim.uninstall()\n"
        "import steplint.runtime_shim.pytest_plugin\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('libcst', 'click')\n"
        "    or (m.startswith('steplint.') and not m.startswith(('steplint.runtime_shim', 'steplint._version'))))\n"
        "assert not loaded, loaded\n"
    )
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
