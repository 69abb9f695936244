"""steplint as a flake8 plugin: ``flake8 --select STP``.

flake8 hands over the file's lines (the buffer it checks, which may be
standard input); they are linted as that file in its project, so imports of
the project's other modules are resolved from disk, with the project's
``[tool.steplint]`` settings, exactly as ``steplint check`` would. Only
``# noqa`` is left to flake8 (it applies its own rules to every plugin);
``# steplint: disable=`` comments and per-file ignores still hold.
"""

from __future__ import annotations

import ast
from typing import Iterator

from steplint._version import __version__
from steplint.frontends.unsaved_buffer import lint_buffer

Finding = tuple[int, int, str, type]


class Plugin:
    name = "steplint"
    version = __version__

    def __init__(self, tree: ast.AST, lines: list[str], filename: str):
        # Asking for ``tree`` makes flake8 run this as an AST plugin; steplint parses the lines itself.
        # The lint runs here, not in run(): flake8 turns an exception raised while it builds
        # the plugin (a bad [tool.steplint]) into a one-line message, one from run() into a traceback.
        self.findings = lint_buffer("".join(lines), filename, use_noqa=False)

    def run(self) -> Iterator[Finding]:
        for d in self.findings:
            # flake8 takes 0-based columns and prints them 1-based, as steplint does.
            yield d.line, d.column - 1, f"{d.code} {d.message}", type(self)
