"""The runtime shim tests install and uninstall the shim themselves."""

from __future__ import annotations

import pytest

from steplint import runtime_shim


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Under `pytest --steplint-shim=...` the session owns the shim; these tests
    # compare MAF with and without it, so they cannot run there.
    if config.getoption("steplint_shim", default=None) is None:
        return
    skip = pytest.mark.skip(reason="runtime shim tests manage the shim themselves; run them without --steplint-shim")
    for item in items:
        if "tests/runtime/" in item.nodeid.replace("\\", "/") or item.path.parent.name == "runtime":
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _maf_unpatched_around_each_test() -> object:
    runtime_shim.uninstall()
    yield
    runtime_shim.uninstall()
