"""What an editor session keeps between lints: its options, and the summaries of the modules open files import.

The language server lints a document on every pause in typing, so the
modules it imports are summarized once and kept: by the file's (mtime, size)
on disk, or by the editor's version of a buffer that is open (its unsaved
text is what the user sees, so it is what an importer is checked against).
A watched-file event forgets a path, and a created or deleted file is seen
by the next lint, whose import search lists the folders afresh.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from steplint.fixes.apply import fixable, without_fixes_of
from steplint.api import lint_source, load_settings
from steplint.config.settings import Settings, parse_python_version
from steplint.core.diagnostics import Diagnostic
from steplint.core.framework_versions import Version, checked_target
from steplint.core.summary import ModuleSummary
from steplint.frontends.autofix import fix_findings
from steplint.frontends.unsaved_buffer import buffer_bytes
from steplint.source.module_identity import forget_folders, module_of
from steplint.summaries.file_summary import summarize_path
from steplint.summaries.open_document import OpenDocument

SEVERITIES = ("error", "warning", "information", "hint")
OPTION_KEYS = ("severity", "targetVersion", "targetPython")


@dataclass(frozen=True)
class EditorOptions:
    """``initializationOptions`` (or ``workspace/didChangeConfiguration``'s ``steplint`` section)::

        {"severity": {"STP001": "error", "STP03": "hint"}, "targetVersion": "1.21", "targetPython": "3.11"}

    ``severity`` maps a code or a prefix (the longest wins) to how the editor shows it.
    """

    severity: dict[str, str] = field(default_factory=dict)
    target_version: Version | None = None
    target_python: tuple[int, int] | None = None

    @classmethod
    def parse(cls, raw: object) -> tuple["EditorOptions", list[str]]:
        """The options in ``raw``, and a message for each one that is wrong (it is left out)."""
        problems: list[str] = []
        if raw is None:
            return cls(), problems
        if not isinstance(raw, dict):
            return cls(), [f"initialization options must be an object, not {type(raw).__name__}"]
        raw = raw.get("steplint", raw) if isinstance(raw.get("steplint"), dict) else raw
        problems.extend(f"unknown option '{key}' (known: {', '.join(OPTION_KEYS)})" for key in raw if key not in OPTION_KEYS)
        severity: dict[str, str] = {}
        for code, level in (raw.get("severity") or {}).items() if isinstance(raw.get("severity"), dict) else ():
            if isinstance(level, str) and level.lower() in SEVERITIES:
                severity[str(code).upper()] = level.lower()
            else:
                problems.append(f"option severity of {code}: {level!r} is not one of {', '.join(SEVERITIES)}")
        if "severity" in raw and not isinstance(raw["severity"], dict):
            problems.append("option 'severity' must map rule codes to error, warning, information or hint")
        target_version = target_python = None
        if raw.get("targetVersion") is not None:
            try:
                target_version = checked_target(str(raw["targetVersion"]))
            except ValueError as exc:
                problems.append(f"option targetVersion: {exc}")
        if raw.get("targetPython") is not None:
            try:
                target_python = parse_python_version(str(raw["targetPython"]))
            except ValueError as exc:
                problems.append(f"option targetPython: {exc}")
        return cls(severity, target_version, target_python), problems

    def severity_for(self, code: str, default: str) -> str:
        chosen = max((prefix for prefix in self.severity if code.startswith(prefix)), key=len, default=None)
        return self.severity[chosen] if chosen is not None else default

    def settings_for(self, path: str) -> Settings:
        """The project's settings for ``path``, with the editor's target versions on top (ConfigError if bad)."""
        settings = load_settings(None, Path(path).parent)
        if self.target_version is not None:
            settings = settings.with_overrides(target_version=self.target_version,
                                               target_version_source="from the editor's targetVersion option")
        if self.target_python is not None:
            settings = settings.with_overrides(target_python=self.target_python,
                                               target_python_source="from the editor's targetPython option")
        return settings


Buffers = dict[str, tuple[int | None, str]]  # absolute path -> (the editor's version, its text)


class ModuleSummaries:
    """The summaries of modules that open documents import, kept between lints: open buffers by version, files on
    disk by (mtime, size, module name). ``reader(buffers)`` is the ``summarize`` of one lint, given the buffers open when it
    started (a lint runs in a worker thread; the editor's buffers change in the event loop's)."""

    def __init__(self) -> None:
        self._buffers: dict[str, tuple[int | None, ModuleSummary]] = {}
        # Each buffer's summary is remade per version only where the edit reaches.
        self._documents: dict[str, OpenDocument] = {}
        self._disk: dict[str, tuple[tuple[int, int, tuple[str, bool]], ModuleSummary]] = {}

    def reader(self, buffers: Buffers) -> Callable[[str], ModuleSummary]:
        return lambda path: self.summary(path, buffers)

    def summary(self, path: str, buffers: Buffers) -> ModuleSummary:
        absolute = os.path.abspath(path)
        buffer = buffers.get(absolute)
        if buffer is not None:
            return self.buffer_summary(path, *buffer)
        try:
            stat = os.stat(absolute)
            # The module name is part of the key: a new __init__.py above the file renames it.
            key = (stat.st_mtime_ns, stat.st_size, module_of(absolute))
        except OSError:
            self._disk.pop(absolute, None)
            return summarize_path(path)  # says why it cannot be read
        kept_on_disk = self._disk.get(absolute)
        if kept_on_disk is not None and kept_on_disk[0] == key:
            return kept_on_disk[1]
        summary = summarize_path(path)
        self._disk[absolute] = (key, summary)
        return summary

    def buffer_summary(self, path: str, version: int | None, text: str) -> ModuleSummary:
        """The summary of an open buffer's ``text`` (``version`` None: not kept by version)."""
        absolute = os.path.abspath(path)
        kept = self._buffers.get(absolute)
        if kept is not None and kept[0] == version and version is not None:
            return kept[1]
        document = self._documents.get(absolute)
        if document is None:
            document = self._documents.setdefault(absolute, OpenDocument(path))
        summary = document.summary(buffer_bytes(text))
        self._buffers[absolute] = (version, summary)
        return summary

    def forget(self, path: str) -> None:
        absolute = os.path.abspath(path)
        self._disk.pop(absolute, None)
        self._buffers.pop(absolute, None)
        self._documents.pop(absolute, None)

    def forget_all(self) -> None:
        self._disk.clear()
        self._buffers.clear()
        self._documents.clear()

    def __len__(self) -> int:
        return len(self._disk) + len(self._buffers)


def lint_document(
    text: str, path: str, options: EditorOptions, summaries: ModuleSummaries, buffers: Buffers
) -> tuple[list[Diagnostic], Settings]:
    """The findings in an open document, its imports read from ``buffers`` or disk via ``summaries``
    (raises ConfigError)."""
    forget_folders()  # which folders are packages: files may have been created or deleted since the last lint
    settings = options.settings_for(path)
    # Not kept by version: the document's module name is worked out afresh (a package may have appeared above it).
    summary = summaries.buffer_summary(path, None, text)
    found = lint_source(buffer_bytes(text), path, settings, summarize=summaries.reader(buffers), summary=summary)
    return without_fixes_of(found.diagnostics, settings.unfixable), settings  # `unfixable`: no quick fix either


def fixed_text(text: str, path: str, findings: list[Diagnostic], settings: Settings) -> str | None:
    """``source.fixAll``: the document with every safe fix applied (repeated as ``--fix`` does), or None."""
    if not fixable(findings):
        return None
    outcome = fix_findings(findings, settings, unsafe=False, sources={path: buffer_bytes(text)})
    return outcome.files[0].fixed if outcome.files else None



