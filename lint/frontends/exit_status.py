"""How a command ends: 0 clean, 1 findings (or a fix with ``--exit-non-zero-on-fix``), 2 a usage or internal error."""

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    """A mistake on the command line or in a configuration file: one line on stderr, exit 2."""
