"""on_unfingerprintable: MAF's silent fallback to call-order keys made loud."""

from __future__ import annotations

import warnings

import agent_framework as maf
import pytest
from shim_support import HAS_FINGERPRINTS, MAF_VERSION, Job, run

from steplint import runtime_shim

pytestmark = pytest.mark.runtime

bodies: list[str] = []


@maf.step
async def takes_model(prefix: str, job: Job, count: int = 1) -> str:
    bodies.append(job.label)
    return prefix + job.label * count


@maf.step
async def takes_plain(prefix: str, payload: dict, ctx: maf.RunContext) -> str:
    return prefix + payload["label"]


@maf.workflow(name="unfingerprintable")
async def unfingerprintable(label: str) -> str:
    return await takes_model("p-", Job(label=label))


@maf.workflow(name="fingerprintable")
async def fingerprintable(label: str) -> str:
    return await takes_plain("p-", {"label": label})


def run_unfingerprintable() -> object:
    bodies.clear()
    return run(unfingerprintable.build(checkpoint_storage=maf.InMemoryCheckpointStorage()).run("x"))


needs_fingerprints = pytest.mark.skipif(not HAS_FINGERPRINTS, reason="argument fingerprints exist from 1.20")
without_fingerprints = pytest.mark.skipif(HAS_FINGERPRINTS, reason="1.18/1.19 behaviour")


@needs_fingerprints
@pytest.mark.parametrize("mode", ["flat", "scoped"])
def test_error_names_the_step_and_the_parameter_before_the_body_runs(mode: str) -> None:
    runtime_shim.install(mode=mode, on_unfingerprintable="error")
    with pytest.raises(runtime_shim.UnfingerprintableArgumentsError) as raised:
        run_unfingerprintable()
    assert bodies == []
    error = raised.value
    assert (error.step, error.parameters, error.framework_version) == ("takes_model", ("job",), MAF_VERSION)
    message = str(error)
    assert "'takes_model'" in message and "parameter 'job' (Job)" in message
    assert "replay_key" in message and "job.model_dump()" in message


@needs_fingerprints
def test_warn_reports_and_lets_maf_fall_back() -> None:
    runtime_shim.install(mode="scoped", on_unfingerprintable="warn")
    with pytest.warns(runtime_shim.UnfingerprintableArgumentsWarning, match="parameter 'job'"):
        result = run_unfingerprintable()
    assert result.get_outputs() == ["p-x"]


@needs_fingerprints
@pytest.mark.parametrize("policy", ["allow", "error"])
def test_fingerprintable_arguments_and_the_context_parameter_pass(policy: str) -> None:
    runtime_shim.install(mode="scoped", on_unfingerprintable=policy)
    with warnings.catch_warnings():
        warnings.simplefilter("error", runtime_shim.UnfingerprintableArgumentsWarning)
        assert run(fingerprintable.build().run("y")).get_outputs() == ["p-y"]


@maf.step(replay_key=lambda prefix, job: prefix + job.label) if HAS_FINGERPRINTS else maf.step
async def keyed_model(prefix: str, job: Job) -> str:
    return prefix + job.label


@maf.workflow(name="keyed-model")
async def keyed_model_workflow(label: str) -> str:
    return await keyed_model("k-", Job(label=label))


@needs_fingerprints
def test_a_replay_key_makes_unfingerprintable_arguments_fine() -> None:
    runtime_shim.install(mode="scoped", on_unfingerprintable="error")
    result = run(keyed_model_workflow.build(checkpoint_storage=maf.InMemoryCheckpointStorage()).run("z"))
    assert result.get_outputs() == ["k-z"]


@needs_fingerprints
def test_allow_is_mafs_behaviour() -> None:
    runtime_shim.install(mode="scoped", on_unfingerprintable="allow")
    with warnings.catch_warnings():
        warnings.simplefilter("error", runtime_shim.UnfingerprintableArgumentsWarning)
        assert run_unfingerprintable().get_outputs() == ["p-x"]


@without_fingerprints
def test_error_refuses_to_install_on_a_release_without_fingerprints() -> None:
    with pytest.raises(runtime_shim.UnfingerprintableArgumentsError) as raised:
        runtime_shim.install(mode="scoped", on_unfingerprintable="error")
    assert raised.value.step is None and raised.value.parameters == ()
    assert MAF_VERSION in str(raised.value) and "agent-framework-core>=1.20.0" in str(raised.value)
    assert runtime_shim.installed_mode() is None


@without_fingerprints
def test_warn_warns_once_at_install_on_a_release_without_fingerprints() -> None:
    warning = runtime_shim.UnfingerprintableArgumentsWarning
    with pytest.warns(warning, match="every @step cache key is a call-order key"):
        runtime_shim.install(mode="scoped", on_unfingerprintable="warn")
    with warnings.catch_warnings():
        warnings.simplefilter("error", runtime_shim.UnfingerprintableArgumentsWarning)
        assert run_unfingerprintable().get_outputs() == ["p-x"]
