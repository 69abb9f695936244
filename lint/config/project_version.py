"""Which agent-framework-core version the linted project runs on, read from its own files.

Walking up from the linted path (to the repository root, the folder holding
``.git``), the first folder whose files mention ``agent-framework-core`` (or
the ``agent-framework`` meta-package, whose versions follow core's) decides.
In that folder, the first of these that mentions it wins:

1. ``uv.lock``, ``poetry.lock``: the resolved version;
2. ``pyproject.toml``: ``[project].dependencies``, Poetry's main
   dependencies, then ``[project.optional-dependencies]``,
   ``[dependency-groups]`` and Poetry's groups, each in file order;
3. ``requirements.txt``, then the other ``requirements*.txt`` by name;
4. the ``*.txt`` files of a ``requirements/`` folder by name (``requirements/base.txt``,
   ``requirements/maf.txt``: pip-tools' and many projects' layout).

A declaration counts by its exact pin (``==1.21.0``, Poetry's bare
``1.21.0``) or its range's lower bound (``>=1.20,<2``, ``~=1.21``, ``^1.21``);
anything else (no version, only an upper bound, a URL) means the newest. A
declaration in a uv workspace member is settled by the workspace's
``uv.lock`` when that lock lists the member. Files that cannot be read or
parsed are passed over: detection never fails a run.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from steplint.config.toml_files import load_toml
from steplint.config.release_sets import admitted_by_pep440, admitted_by_poetry
from steplint.core.framework_versions import NEWEST, OLDEST_SUPPORTED, RELEASES, Version, describe_releases, format_version, parse_version

PACKAGES = ("agent-framework-core", "agent-framework")  # core first: it is what the rules are about
LOCK_FILES = ("uv.lock", "poetry.lock")


@dataclass(frozen=True)
class Declaration:
    """One mention of the framework in a project file."""

    package: str
    spec: str  # as written: ">=1.20,<2", "^1.21", "1.21.0" (a lock's resolved version)
    version: Version | None  # what it means for steplint; None: the newest
    path: Path
    section: str = ""  # "[project].dependencies"; empty for locks and requirements files
    admitted: tuple[Version, ...] = RELEASES  # the releases the declaration allows (a lock: the one it holds)

    def describe(self) -> str:
        try:
            shown = os.path.relpath(self.path)
        except ValueError:  # another drive
            shown = str(self.path)
        where = f"{shown} {self.section}" if self.section else shown
        return f"{where}: {self.package}{self.spec if self.spec[:1] in '=<>!~^' else ' ' + self.spec}".rstrip()


def detect(start: Path) -> Declaration | None:
    """The declaration that decides the target version for code under ``start``, or None."""
    directory = start if start.is_dir() else start.parent
    directory = directory.resolve()
    for folder in _folders_up(directory):
        found = _declaration_in(folder)
        if found is not None:
            return _settled_by_workspace_lock(folder, found)
    return None


def _folders_up(directory: Path) -> Iterator[Path]:
    for folder in (directory, *directory.parents):
        yield folder
        if (folder / ".git").exists():
            return  # the repository root: a project above it is someone else's


def _declaration_in(folder: Path) -> Declaration | None:
    for name in LOCK_FILES:
        found = _first(_locked(folder / name))
        if found is not None:
            return found
    found = _first(_declared_in_pyproject(folder / "pyproject.toml"))
    if found is not None:
        return found
    requirements = sorted(folder.glob("requirements*.txt"), key=lambda p: (p.name != "requirements.txt", p.name))
    requirements += sorted(path for path in (folder / "requirements").glob("*.txt") if path.is_file())
    for path in requirements:
        found = _first(_declared_in_requirements(path))
        if found is not None:
            return found
    return None


def _first(declarations: Iterator[Declaration]) -> Declaration | None:
    """Within one source, agent-framework-core wins over agent-framework wherever each is listed."""
    found = list(declarations)
    for package in PACKAGES:
        for declaration in found:
            if declaration.package == package:
                return declaration
    return None


# --- lock files ------------------------------------------------------------------------


def _locked(path: Path) -> Iterator[Declaration]:
    data = _toml(path)
    for package in data.get("package", []) if isinstance(data.get("package"), list) else []:
        if not isinstance(package, dict):
            continue
        name = normalize(str(package.get("name", "")))
        if name in PACKAGES and isinstance(package.get("version"), str):
            locked = _version(package["version"])
            yield Declaration(name, f"=={package['version']}", locked, path, admitted=(locked,) if locked else RELEASES)


def _settled_by_workspace_lock(folder: Path, found: Declaration) -> Declaration:
    """A uv workspace member declares a range; the workspace root's uv.lock holds what it resolved to."""
    if found.path.name in LOCK_FILES or (folder / ".git").exists():
        return found
    member = normalize(str(_toml(folder / "pyproject.toml").get("project", {}).get("name", "")))
    if not member:
        return found
    for parent in _folders_up(folder.parent) if folder.parent != folder else ():
        lock = parent / "uv.lock"
        if not lock.is_file():
            continue
        data = _toml(lock)
        packages = data.get("package", []) if isinstance(data.get("package"), list) else []
        if any(isinstance(p, dict) and normalize(str(p.get("name", ""))) == member for p in packages):
            locked = _first(_locked(lock))
            if locked is not None:
                return Declaration(locked.package, locked.spec, locked.version, lock, f"(the workspace lock of {member})",
                                   locked.admitted)
        return found  # the nearest lock above is not this member's workspace
    return found


# --- pyproject.toml ---------------------------------------------------------------------------


def _declared_in_pyproject(path: Path) -> Iterator[Declaration]:
    data = _toml(path)
    if not data:
        return
    project = _table(data.get("project"))
    poetry = _table(_table(data.get("tool")).get("poetry"))
    yield from _pep508_list(project.get("dependencies"), path, "[project].dependencies")
    yield from _poetry_table(poetry.get("dependencies"), path, "[tool.poetry.dependencies]")
    for group, items in _table(project.get("optional-dependencies")).items():
        yield from _pep508_list(items, path, f"[project.optional-dependencies].{group}")
    for group, items in _table(data.get("dependency-groups")).items():
        yield from _pep508_list(items, path, f"[dependency-groups].{group}")
    for group, table in _table(poetry.get("group")).items():
        yield from _poetry_table(_table(table).get("dependencies"), path, f"[tool.poetry.group.{group}.dependencies]")
    yield from _poetry_table(poetry.get("dev-dependencies"), path, "[tool.poetry.dev-dependencies]")


def _pep508_list(items: object, path: Path, section: str) -> Iterator[Declaration]:
    for item in items if isinstance(items, list) else []:
        if isinstance(item, str):
            found = parse_requirement(item, path, section)
            if found is not None:
                yield found


def _poetry_table(table: object, path: Path, section: str) -> Iterator[Declaration]:
    for name, constraint in _table(table).items():
        package = normalize(name)
        if package in PACKAGES:
            spec = _poetry_spec(constraint)
            yield Declaration(package, spec or "", poetry_lower_bound(spec) if spec else None, path, section,
                              admitted_by_poetry(spec) if spec else RELEASES)


def _poetry_spec(constraint: object) -> str | None:
    """``"^1.21"``, ``{version = "^1.21", extras = [...]}``; a git/path/url source has no version."""
    if isinstance(constraint, str):
        return constraint
    if isinstance(constraint, dict):
        version = constraint.get("version")
        return version if isinstance(version, str) else None
    if isinstance(constraint, list):  # several constraints under markers: the oldest bound of them all
        specs = [_poetry_spec(item) for item in constraint]
        return " || ".join(s for s in specs if s) if specs and all(specs) else None
    return None


# --- requirements files -----------------------------------------------------------------------


def _declared_in_requirements(path: Path) -> Iterator[Declaration]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    for line in re.sub(r"\\\r?\n", " ", text).splitlines():
        line = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].strip()
        if not line or line.startswith("-"):
            continue  # -r/-c/-e and other pip options
        line = re.split(r"\s--?[a-z]", line, maxsplit=1)[0]  # "pkg==1.0 --hash=sha256:..."
        found = parse_requirement(line, path)
        if found is not None:
            yield found


# --- specifiers -----------------------------------------------------------------------------------

_REQUIREMENT = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?P<rest>.*)$")
_CLAUSE = re.compile(r"^\s*(?P<op>===|==|~=|!=|<=|>=|<|>)\s*(?P<version>[^\s,;]+)\s*$")


def normalize(name: str) -> str:
    """PEP 503: ``Agent_Framework.Core`` is ``agent-framework-core``."""
    return re.sub(r"[-_.]+", "-", name).lower().strip()


def parse_requirement(text: str, path: Path, section: str = "") -> Declaration | None:
    """A PEP 508 requirement of the framework (``agent-framework-core[x]>=1.20; python_version>'3.9'``)."""
    match = _REQUIREMENT.match(text)
    if match is None or normalize(match.group("name")) not in PACKAGES:
        return None
    rest = match.group("rest").split(";", 1)[0].strip()
    if rest.startswith("@"):
        return Declaration(normalize(match.group("name")), rest, None, path, section)  # a URL: no version to read
    spec = rest.strip("()").strip()
    admitted = admitted_by_pep440(spec) if spec else RELEASES
    return Declaration(normalize(match.group("name")), spec, pep440_lower_bound(spec), path, section, admitted)


def pep440_lower_bound(spec: str, separators: str = ",") -> Version | None:
    """The version a PEP 440 specifier set pins, else its lower bound, else None."""
    lower: Version | None = None
    spec = re.sub(r"(===|==|~=|!=|<=|>=|<|>)\s+", r"\1", spec)
    for clause in filter(None, (part.strip() for part in re.split(f"[{separators}]", spec))):
        match = _CLAUSE.match(clause)
        if match is None:
            return None  # not a specifier steplint understands: the newest
        op, text = match.group("op"), match.group("version")
        version = _version(text.removesuffix(".*"))
        if version is None:
            return None
        if op in ("==", "==="):
            return version
        if op in (">=", ">", "~="):
            # ">1.19" admits 1.19.x patch releases, which behave as 1.19 does: the bound stands.
            lower = version if lower is None else max(lower, version)
    return lower


def poetry_lower_bound(spec: str) -> Version | None:
    """Poetry's constraints: ``^1.21``, ``~1.21``, a bare ``1.21.0`` (a pin), PEP 440 clauses, ``||`` unions."""
    alternatives = [part.strip() for part in spec.split("||")]
    bounds = [_poetry_alternative(part) for part in alternatives]
    if not bounds or any(bound is None for bound in bounds):
        return None
    return min(bound for bound in bounds if bound is not None)


def _poetry_alternative(spec: str) -> Version | None:
    spec = spec.strip()
    if spec.startswith(("^", "~")) and not spec.startswith("~="):
        return _version(spec.lstrip("^~").strip().removesuffix(".*"))
    if spec and spec[0].isdigit() and "," not in spec and " " not in spec:
        return _version(spec.removesuffix(".*"))  # a bare version is an exact pin
    return pep440_lower_bound(spec, separators=",\\s")  # Poetry also separates clauses with spaces


def _version(text: str) -> Version | None:
    try:
        return parse_version(text)
    except ValueError:
        return None


def _toml(path: Path) -> dict:
    try:
        return load_toml(path)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):  # deep nesting recurses in tomllib
        return {}


def _table(value: object) -> dict:
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class ReleaseTarget:
    """The releases code under one folder is checked for, and why (for ``-v`` and ``--show-settings``)."""

    releases: tuple[Version, ...]  # oldest first, never empty
    source: str
    problem: str = ""  # a declaration that admits no release with the functional API: a configuration error
    newer: Version | None = None  # a declared release newer than steplint knows, checked as the newest

    def shown(self) -> str:
        """``1.19.0`` for one release, ``1.20-1.26`` for several."""
        return format_version(self.releases[0]) if len(self.releases) == 1 else describe_releases(self.releases)


def release_target(start: Path) -> ReleaseTarget:
    """The releases the nearest declaration above ``start`` admits; the newest when nothing declares the framework."""
    declaration = detect(start)
    if declaration is None:
        return ReleaseTarget((NEWEST,), "the newest: no project file declares agent-framework-core")
    source = f"from {declaration.describe()}"
    newer = max(declaration.admitted) if declaration.admitted and max(declaration.admitted)[:2] > NEWEST[:2] else None
    if newer is None and declaration.version is not None and declaration.version[:2] > NEWEST[:2]:
        newer = declaration.version  # ">=1.30": nothing known is admitted, a newer release is
    known = tuple(v for v in declaration.admitted if OLDEST_SUPPORTED <= v and v[:2] <= NEWEST[:2])
    if newer is not None:
        return ReleaseTarget((*known, NEWEST) if NEWEST not in known else known, source, newer=newer)
    if not known:
        problem = (
            f"{declaration.describe()} admits no agent-framework-core release with the functional API "
            f"(steplint knows {describe_releases(RELEASES)}); require one of them, or set [tool.steplint] target-version"
        )
        return ReleaseTarget((NEWEST,), source, problem=problem)
    return ReleaseTarget(known, source)
