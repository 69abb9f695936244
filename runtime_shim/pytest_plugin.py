"""pytest plugin: ``pytest --steplint-shim=flat|scoped`` runs the whole session under the shim.

Registered under the ``pytest11`` entry point, so it loads in every pytest run
of an environment where steplint is installed. Without the option it only
adds the option: it imports nothing from agent_framework and patches nothing.
"""

from __future__ import annotations

from typing import Any

from steplint.runtime_shim.installer import MODES

_OPTION = "--steplint-shim"
_INSTALLED_BY_PLUGIN = "_steplint_shim_installed_by_plugin"


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("steplint", "steplint runtime shim")
    group.addoption(
        _OPTION,
        choices=MODES,
        default=None,
        dest="steplint_shim",
        help="install steplint's runtime shim for the whole session: 'flat' makes nested @step calls "
        "raise NestedStepError, 'scoped' gives them parent-scoped cache keys.",
    )
    group.addoption(
        "--steplint-shim-unfingerprintable",
        choices=("allow", "warn", "error"),
        default="allow",
        dest="steplint_shim_unfingerprintable",
        help="with --steplint-shim: on_unfingerprintable policy (default: allow).",
    )


def pytest_configure(config: Any) -> None:
    mode = config.getoption("steplint_shim")
    if mode is None:
        return
    from steplint.runtime_shim.installer import install

    install(mode, on_unfingerprintable=config.getoption("steplint_shim_unfingerprintable"))
    setattr(config, _INSTALLED_BY_PLUGIN, True)


def pytest_unconfigure(config: Any) -> None:
    if getattr(config, _INSTALLED_BY_PLUGIN, False):
        from steplint.runtime_shim.installer import uninstall

        uninstall()


def pytest_report_header(config: Any) -> str | None:
    mode = config.getoption("steplint_shim")
    return None if mode is None else f"steplint runtime shim: installed, mode={mode}"
