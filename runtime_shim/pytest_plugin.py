"""pytest plugin: ``pytest --steplint-shim=flat|scoped`` runs the whole session under the shim.

``--steplint-shim-replay=error|warn|rerun|off`` sets its replay-mismatch
policy (default: the mode's own), ``--steplint-shim-mutation=warn|error``
what a step that changes its arguments gets (default: warn), and the terminal summary ends with the
session's replay report (hits verified, mismatched, unrecorded, undigestable).

Registered under the ``pytest11`` entry point, so it loads in every pytest run
of an environment where steplint is installed. Without the option it only
adds the option: it imports nothing from agent_framework and patches nothing.
"""

from __future__ import annotations

from typing import Any

from steplint.runtime_shim.installer import MODES
from steplint.runtime_shim.replay_check import MUTATION_POLICIES, REPLAY_POLICIES

_OPTION = "--steplint-shim"
_INSTALLED_BY_PLUGIN = "_steplint_shim_installed_by_plugin"
_HOLDER = "pytest-plugin"  # the plugin's own hold: an application's uninstall() in a test cannot end it


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
    group.addoption(
        "--steplint-shim-replay",
        choices=REPLAY_POLICIES,
        default=None,
        dest="steplint_shim_replay",
        help="with --steplint-shim: on_replay_mismatch policy, what a resumed call about to take another "
        "call's cached result gets (default: error in flat mode, rerun in scoped mode).",
    )
    group.addoption(
        "--steplint-shim-mutation",
        choices=MUTATION_POLICIES,
        default="warn",
        dest="steplint_shim_mutation",
        help="with --steplint-shim: on_argument_mutation policy, what a step whose body changes its recorded "
        "arguments gets: ArgumentMutatedWarning, or ArgumentMutatedError (default: warn).",
    )


def pytest_configure(config: Any) -> None:
    mode = config.getoption("steplint_shim")
    if mode is None:
        return
    from steplint.runtime_shim.installer import hold

    hold(
        _HOLDER,
        mode,
        on_unfingerprintable=config.getoption("steplint_shim_unfingerprintable"),
        on_replay_mismatch=config.getoption("steplint_shim_replay"),
        on_argument_mutation=config.getoption("steplint_shim_mutation"),
    )
    setattr(config, _INSTALLED_BY_PLUGIN, True)


def pytest_unconfigure(config: Any) -> None:
    if getattr(config, _INSTALLED_BY_PLUGIN, False):
        from steplint.runtime_shim.installer import let_go

        let_go(_HOLDER)


def pytest_report_header(config: Any) -> str | None:
    mode = config.getoption("steplint_shim")
    if mode is None:
        return None
    from steplint.runtime_shim.installer import installed_mode
    from steplint.runtime_shim.replay_check import DEFAULT_POLICY

    replay = config.getoption("steplint_shim_replay") or DEFAULT_POLICY[mode]
    state = "installed" if installed_mode() == mode else "not installed"
    mutation = config.getoption("steplint_shim_mutation")
    return (f"steplint runtime shim: {state}, mode={mode}, on_replay_mismatch={replay}, "
            f"on_argument_mutation={mutation}")


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    if not getattr(config, _INSTALLED_BY_PLUGIN, False):
        return
    from steplint.runtime_shim.replay_check import replay_report

    terminalreporter.write_sep("-", "steplint runtime shim")
    terminalreporter.write_line(replay_report().describe())
