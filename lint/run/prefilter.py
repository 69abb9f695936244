"""Which files can hold a finding, decided from bytes, before any parse.

Every finding but STP900 and the suppression rules' needs a step or a
workflow: a name that resolves to ``agent_framework``'s ``step``,
``workflow`` or ``StepWrapper``, or to something made by one. Resolution only
moves between modules through imports (and a package's own submodules), and
the last part of a resolved external name is always text of some module on
the way, where it names another module's binding: in an import, after a dot,
quoted (``getattr``, ``__all__``), or anywhere in a file with a star import
(a *factory reference*; a bare ``workflow = WorkflowBuilder()`` is none). So a
file can hold a finding only if

- it mentions ``agent_framework`` and holds a factory reference (in a package
  named ``agent_framework``, where the factories are defined, any factory word), or
- it holds a factory reference and imports from a package through which an
  ``agent_framework`` name can be reached (``exposing``), or
- it imports from a package that can define steps or workflows (``defining``),
- or it carries a steplint suppression comment (STP100 judges those),
- or its bytes cannot be vouched for (undecodable, an encoding cookie).

``exposing`` and ``defining`` are closed over imports at the granularity of
top-level packages, over every file the run's module loader could load: the
discovered files and the packages on disk under their roots, so a re-export
any number of modules away counts. The scan over-approximates (an import in a
string counts); it never under-approximates.

A file the prefilter skips is not summarized; it is only checked for syntax
errors (a checked module imported it and its summary parsed, its ``__pycache__``
vouches for it, or ``pipeline.parses`` builds its symbol table), and analyzed
after all when that check fails, so a broken file is still an STP900. A file
named on the command line is always analyzed. A rule that can fire on a file
without Agent Framework code must be taught here.
"""

from __future__ import annotations

import operator
import os
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from steplint.analysis.index import EXTERNAL_ROOTS
from steplint.source.module_identity import ModuleFile
from steplint.source.identifier_text import source_nfkc
from steplint.source.reading import declares_encoding, decode_source

MAF = "agent_framework"
_FACTORY_WORDS = ("step", "workflow", "StepWrapper")
# STP100 judges ``# noqa: STPxxx`` and ``# ruff: noqa: STPxxx`` comments; every one matches this (a ``#`` makes
# the search fast).
_NOQA_STP = re.compile(r"#\s*(?:(?:ruff|flake8)\s*:\s*)?noqa[^\n]*stp", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d]\w*")
_MODULE = re.compile(r"\.*[\w.\s]*")
# No ``\b`` in front: it would keep the regex engine from scanning for the literal (10x slower).
_STAR_IMPORT = re.compile(r"import[ \t\\\r\n(]*\*")

@dataclass(frozen=True, slots=True)
class Scan:
    """What the bytes of one file say, without parsing them."""

    mentions: bool  # ``agent_framework`` appears
    factory_word: bool  # ``step``, ``workflow`` or ``StepWrapper`` appears as a word
    factory_reference: bool  # ... where it can name another module's: imported, an attribute, quoted
    heads: frozenset[str]  # the top-level names of its absolute imports
    relative: bool  # it has a relative import
    must_check: bool  # suppression comments, or bytes the scan cannot vouch for


# Bytes that do not decode cannot parse either: the file is checked (it reports STP900)
# but, as the index ignores broken modules, it exposes nothing to its importers.
UNREADABLE_SCAN = Scan(False, False, False, frozenset(), False, True)


def scan(data: bytes) -> Scan:
    """What ``data`` says; one pass per word looked for, and no copy but the decoded text."""
    if data.isascii() and not declares_encoding(data):
        text = data.decode("ascii")
    else:
        # Python reads identifiers NFKC-normalized and in the declared encoding: scan that text.
        try:
            text = decode_source(data)
        except ValueError:
            return UNREADABLE_SCAN
        text = source_nfkc(data, text)
    heads, relative = _imports(text)
    return Scan(
        mentions=MAF in text,
        factory_word=any(_has_word(text, word) for word in _FACTORY_WORDS),
        factory_reference=_factory_reference(text),
        heads=frozenset(heads),
        relative=relative,
        must_check=_suppression_comment(text),
    )


def _factory_reference(text: str) -> bool:
    """A factory word where it can name something another module made: imported, reached as an attribute
    (``af.step``), quoted (``getattr(af, "step")``, ``__all__``), or anywhere in a file with a star import.

    A name is bound from another module only by an import, an attribute or a star import, so a bare
    ``workflow = WorkflowBuilder()`` or a ``step`` parameter cannot be the framework's.
    """
    imports: list[tuple[int, int]] | None = None
    star: bool | None = None  # looked for at the first factory word: most files have none
    for word in _FACTORY_WORDS:
        for at in _word_positions(text, word):
            if star is None:
                star = _star_import(text)
            if star or _after_dot(text, at) or _quoted(text, at, at + len(word)):
                return True
            if imports is None:
                imports = _import_spans(text)
            if any(start <= at < stop for start, stop in imports):
                return True
    return False


def _star_import(text: str) -> bool:
    """``import *`` (after ``from x``), the keyword as a whole word."""
    return "*" in text and any(
        found.start() == 0 or not _is_word(text[found.start() - 1]) for found in _STAR_IMPORT.finditer(text)
    )


def _after_dot(text: str, at: int) -> bool:
    before = at - 1
    while before >= 0 and text[before] in " \t\r\n\f\\":
        before -= 1
    return before >= 0 and text[before] == "."


def _quoted(text: str, at: int, end: int) -> bool:
    return at > 0 and end < len(text) and text[at - 1] in "'\"" and text[end] == text[at - 1]


def _import_spans(text: str) -> list[tuple[int, int]]:
    """Where each import statement is: its logical line, and a parenthesized ``from`` list to its ``)``."""
    spans = []
    for at in _word_positions(text, "import"):
        end = at + 6
        stop = _line_end(text, end)
        opening = text.find("(", end, stop)
        if opening >= 0 and not text[end:opening].strip():
            closing = text.find(")", opening)
            stop = closing if closing >= 0 else len(text)
        spans.append((_line_start(text, at), stop))
    return spans


def _suppression_comment(text: str) -> bool:
    """A ``steplint:`` directive (case-sensitive, as they are read) or a ``noqa`` naming a STP code, maybe."""
    return "steplint" in text or _NOQA_STP.search(text) is not None


def _imports(text: str) -> tuple[set[str], bool]:
    """The top-level names a file imports, and whether it imports relatively.

    Every ``import`` keyword is looked at on its logical line (continuation
    lines joined): ``from X import ...`` gives X's first name (or marks a
    relative import), anything else gives the first name of each
    comma-separated item after ``import``. A parenthesized ``from`` list names
    attributes, never other packages, so its later lines do not matter.
    """
    heads: set[str] = set()
    relative = False
    for at in _word_positions(text, "import"):
        end = at + 6
        before = _joined(text[_line_start(text, at) : at])
        origin = before.rfind("from")
        module = before[origin + 4 :].strip() if origin >= 0 else ""
        if origin >= 0 and (origin == 0 or not _is_word(before[origin - 1])) and _MODULE.fullmatch(module):
            if module.startswith("."):
                relative = True
            else:
                found = _WORD.match(module)
                if found is not None:
                    heads.add(found.group(0))
        else:
            statement = _joined(text[end : _line_end(text, end)])
            for item in statement.split(";", 1)[0].split("#", 1)[0].split(","):
                found = _WORD.search(item)
                if found is not None:
                    heads.add(found.group(0))
    return heads, relative


def _line_start(text: str, at: int) -> int:
    """Where the logical line holding ``at`` starts (a line ending in a backslash continues)."""
    start = text.rfind("\n", 0, at) + 1
    while start and _continued(text, start - 1):
        start = text.rfind("\n", 0, start - 1) + 1
    return start


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    while end >= 0 and _continued(text, end):
        end = text.find("\n", end + 1)
    return end if end >= 0 else len(text)


def _continued(text: str, newline: int) -> bool:
    """The line break at ``newline`` follows a backslash (``\\\n`` or ``\\\r\n``)."""
    before = text[newline - 2 : newline] if newline >= 2 else text[:newline]
    return before.endswith("\\") or before == "\\\r"


def _joined(line: str) -> str:
    return line.replace("\\\r\n", " ").replace("\\\n", " ") if "\\" in line else line


def _has_word(text: str, word: str) -> bool:
    """``word`` occurs as a whole identifier (``step`` in ``@step``, not in ``steps``)."""
    return next(_word_positions(text, word), None) is not None


def _word_positions(text: str, word: str) -> Iterator[int]:
    """Where ``word`` occurs as a whole identifier, in order."""
    size = len(text)
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not _is_word(text[at - 1])) and (end >= size or not _is_word(text[end])):
            yield at
        at = text.find(word, end)


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


_name = operator.attrgetter("name")


@dataclass
class Verdict:
    """The prefilter's answer: which files to analyze, and what it read to decide."""

    candidates: set[str]  # paths (as discovered) that can hold a finding
    read: dict[str, str] = field(default_factory=dict)  # undiscovered files it scanned: abspath -> path
    walked: list[str] = field(default_factory=list)  # package folders it listed on disk


class Prefilter:
    """Decides over discovered files, scanning on-disk packages they may import from.

    ``scan_file(path) -> Scan`` reads and scans one file (a cache may answer).
    """

    def __init__(self, files: list[ModuleFile], scans: dict[str, Scan], scan_file: Callable[[str], Scan]):
        self.files = files
        self.scans = scans
        self.scan_file = scan_file
        self.roots: list[str] = []
        for file in files:
            if file.root not in self.roots:
                self.roots.append(file.root)
        self._by_head: dict[str, list[tuple[str, Scan]]] = {}
        self._seen: set[str] = set()
        self._listings: dict[str, frozenset[str]] = {}
        self._by_name: dict[str, list[str]] | None = None
        self.verdict = Verdict(set())
        for file in files:
            self._add(file.head, os.path.abspath(file.path), scans[file.path])

    def _add(self, head: str, absolute: str, found: Scan) -> None:
        if absolute not in self._seen:
            self._seen.add(absolute)
            self._by_head.setdefault(head, []).append((absolute, found))

    def decide(self) -> Verdict:
        own_heads = {file.path: self._imported_heads(file) for file in self.files}
        heads_needed = set().union(*own_heads.values()) if own_heads else set()
        self._load_packages(heads_needed)
        exposing = self._closure(lambda scans: any(s.mentions for s in scans))
        defining = self._closure(lambda scans: any(s.factory_reference for s in scans), within=exposing)
        for file in self.files:
            found = self.scans[file.path]
            heads = own_heads[file.path]
            # The framework's own files define the factories: there a bare ``def step`` counts too.
            factory = found.factory_word if file.head == MAF else found.factory_reference
            mentions = found.mentions or file.head == MAF
            if (
                found.must_check
                or (mentions and factory)
                or (factory and heads & exposing)
                or heads & defining
            ):
                self.verdict.candidates.add(file.path)
        return self.verdict

    def _imported_heads(self, file: ModuleFile) -> set[str]:
        found = self.scans[file.path]
        heads = set(found.heads)
        # Relative imports, and a package's unbound names, reach into its own top-level package.
        if file.head not in heads and (
            found.relative or file.is_package or os.path.isdir(os.path.splitext(file.path)[0])
        ):
            heads.add(file.head)
        return {head for head in heads if head not in EXTERNAL_ROOTS}

    def _load_packages(self, heads: set[str]) -> None:
        """Scan every file on disk that the loader could import under ``heads`` (and what those import)."""
        pending = sorted(heads)
        done: set[str] = set()
        while pending:
            head = pending.pop()
            if head in done or head in EXTERNAL_ROOTS:
                continue
            done.add(head)
            for path in self._package_files(head):  # absolute, as the roots are
                if path in self._seen:
                    continue
                found = self.scan_file(path)
                self.verdict.read[path] = path
                self._add(head, path, found)
                pending.extend(h for h in found.heads | ({head} if found.relative else set()) if h not in done)

    def _package_files(self, head: str) -> Iterable[str]:
        for root in self._roots_holding(head):
            names = self._listing(root)
            for suffix in (".py", ".pyi"):
                if head + suffix in names:
                    yield os.path.join(root, head + suffix)
            if head in names:
                yield from self._walk(os.path.join(root, head))

    def _roots_holding(self, head: str) -> list[str]:
        """The roots, in order, that hold a module or folder named ``head`` (one index for all heads)."""
        if self._by_name is None:
            self._by_name = {}
            for root in self.roots:
                for name in self._listing(root):
                    stem = name[: -len(".pyi")] if name.endswith(".pyi") else name[: -len(".py")] if name.endswith(".py") else name
                    holders = self._by_name.setdefault(stem, [])
                    if not holders or holders[-1] != root:
                        holders.append(root)
        return self._by_name.get(head, [])

    def _listing(self, folder: str) -> frozenset[str]:
        found = self._listings.get(folder)
        if found is None:
            try:
                found = frozenset(os.listdir(folder))
            except OSError:
                found = frozenset()
            self._listings[folder] = found
        return found

    def _walk(self, folder: str, visited: set[tuple[int, int]] | None = None) -> Iterable[str]:
        """Every Python file the loader could reach under ``folder`` (identifier-named folders only).

        A folder reached twice through links (a loop, or two links to one place) is walked once, and a path
        the OS refuses (a link loop, a vanished entry, no permission) is left out: it is that path's problem,
        never the run's.
        """
        visited = set() if visited is None else visited
        try:
            status = os.stat(folder)
            entries = sorted(os.scandir(folder), key=_name)
        except OSError:
            return
        if (status.st_dev, status.st_ino) in visited:
            return
        visited.add((status.st_dev, status.st_ino))
        self.verdict.walked.append(folder)
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                continue
            if entry.name.endswith((".py", ".pyi")) and not is_dir:
                yield entry.path
            elif is_dir and entry.name.isidentifier():
                yield from self._walk(entry.path, visited)

    def _closure(
        self,
        seed: Callable[[list[Scan]], bool],
        within: set[str] | None = None,
    ) -> set[str]:
        """Top-level packages where ``seed`` holds (among ``within``), or that import one, to a fixpoint."""
        scans_by_head = {head: [s for _, s in entries] for head, entries in self._by_head.items()}
        imports = {
            head: {h for s in scans for h in s.heads if h not in EXTERNAL_ROOTS} | ({head} if any(s.relative for s in scans) else set())
            for head, scans in scans_by_head.items()
        }
        found = {
            head
            for head, scans in scans_by_head.items()
            if (within is None or head in within) and (seed(scans) or head == MAF)
        }
        changed = True
        while changed:
            changed = False
            for head, imported in imports.items():
                if head not in found and imported & found:
                    found.add(head)
                    changed = True
        return found
