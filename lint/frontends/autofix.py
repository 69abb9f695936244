"""``--fix``, ``--unsafe-fixes`` and ``--diff``: apply the findings' fixes, lint again, report what is left.

Per file: apply every fix that does not overlap another (safe ones, and the
unsafe ones with ``--unsafe-fixes``), lint the new text as that file, and
repeat while fixes remain (at most ``MAX_ROUNDS`` times), as ruff does. A
file's findings depend only on the modules it imports, so one file is
re-linted alone. Files keep their encoding, BOM and line endings; a notebook
gets its changed cells back, the rest of its JSON as it was.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field

from steplint.config.settings import Settings
from steplint.core.diagnostics import Diagnostic
from steplint.api import lint_source
from steplint.fixes.apply import apply_fixes_counted, fixable, without_fixes_of
from steplint.report.text_format import counted as _count
from steplint.source.notebooks import NotebookError, is_notebook, with_cell_code
from steplint.source.reading import DecodeFailure, UnreadableSource, decode_keeping_encoding, read_file, readable_bytes

MAX_ROUNDS = 10


@dataclass
class FixedFile:
    path: str
    original: str
    fixed: str
    encoding: str
    fixed_codes: Counter  # code -> findings of that rule whose fix went in

    @property
    def fixes(self) -> int:
        return sum(self.fixed_codes.values())

    def encoded(self) -> bytes:
        if is_notebook(self.path):  # the fixed code goes back into the notebook's cells, the rest of its JSON kept
            try:
                return with_cell_code(read_file(self.path, None), self.fixed)
            except (NotebookError, UnreadableSource) as exc:  # changed on disk meanwhile
                raise OSError(0, f"it changed since it was read ({exc})", self.path) from None
        return self.fixed.encode(self.encoding)

    def diff(self) -> str:
        lines = difflib.unified_diff(
            self.original.splitlines(keepends=True), self.fixed.splitlines(keepends=True), self.path, self.path
        )
        return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)


@dataclass
class FixOutcome:
    remaining: list[Diagnostic]
    files: list[FixedFile] = field(default_factory=list)
    unsafe: bool = False

    @property
    def fixed(self) -> int:
        return sum(file.fixes for file in self.files)

    def diff(self) -> str:
        return "".join(file.diff() for file in self.files)

    def summary(self, would: bool = False) -> str:
        """``Fixed 2 findings in 1 file; 1 remaining.`` (``Would fix`` for --diff), with a hint about unsafe fixes."""
        if self.fixed:
            verb = "Would fix" if would else "Fixed"
            text = f"{verb} {_count(self.fixed, 'finding')} in {_count(len(self.files), 'file')}"
        else:
            text = "No fixes available" if would else "No fixes applied"
        if not would:
            text += f"; {len(self.remaining)} remaining"
        hidden = len(fixable(self.remaining, unsafe=True)) - len(fixable(self.remaining))
        if hidden and not self.unsafe:
            text += f" ({_count(hidden, 'unsafe fix', 'unsafe fixes')} available with --unsafe-fixes)"
        return text + "."


def fix_findings(
    diagnostics: list[Diagnostic],
    settings: Settings,
    unsafe: bool = False,
    use_noqa: bool = True,
    sources: dict[str, bytes] | None = None,
) -> FixOutcome:
    """Fix the files of ``diagnostics`` in memory (``sources`` holds text that is not on disk, e.g. stdin)."""
    outcome = FixOutcome(remaining=[], unsafe=unsafe)
    by_path: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        by_path.setdefault(diagnostic.path, []).append(diagnostic)
    for path, findings in by_path.items():
        fixed = None
        if fixable(findings, unsafe):
            data = (sources or {}).get(path)
            data = data if data is not None else readable_bytes(path, settings.max_file_size)
            fixed, findings = _fix_file(path, data, findings, settings, unsafe, use_noqa)
        if fixed is not None:
            outcome.files.append(fixed)
        outcome.remaining.extend(findings)
    outcome.remaining.sort(key=Diagnostic.sort_key)
    return outcome


def _fix_file(
    path: str, data: bytes | None, findings: list[Diagnostic], settings: Settings, unsafe: bool, use_noqa: bool
) -> tuple[FixedFile | None, list[Diagnostic]]:
    if data is None:
        return None, findings
    try:
        original, encoding = decode_keeping_encoding(data)
    except DecodeFailure:
        return None, findings
    text, fixed_codes = original, Counter()
    for _ in range(MAX_ROUNDS):
        chosen = fixable(findings, unsafe)
        if not chosen:
            break
        new, applied = apply_fixes_counted(text, chosen)
        if new == text:
            break
        try:
            encoded = new.encode(encoding)
        except UnicodeEncodeError:  # a replacement the file's declared encoding cannot hold
            break
        text = new
        fixed_codes.update(applied)
        findings = without_fixes_of(lint_source(encoded, path, settings, use_noqa).diagnostics, settings.unfixable)
    if text == original:
        return None, findings
    return FixedFile(path, original, text, encoding, fixed_codes), findings


def write_fixed(outcome: FixOutcome) -> None:
    """Write every fixed file back (raises OSError naming the file it could not write)."""
    for file in outcome.files:
        payload = file.encoded()  # before the file is truncated: a notebook's is made from what the file holds
        with open(file.path, "wb") as handle:
            handle.write(payload)
