"""Which values MAF's checkpoint encoding stores as JSON, by release (what the checkpoint judges share).

``_encode`` stores a ``dict`` as a JSON object (each key becomes ``str(key)``) and a ``list`` as a JSON array,
recursing into their values, and pickles everything else. Before 1.20 it tests ``isinstance``, so a subclass
of either is stored so too and comes back plain, and no allowlist judges it; from 1.20 (``type(value) is
dict``) only the exact types are, and a subclass is pickled with its class.
"""

from __future__ import annotations

from steplint.analysis.index import ProjectIndex, Target
from steplint.core.framework_versions import PICKLED_CONTAINER_SUBCLASSES

#: dict and list and their subclasses outside the analyzed code (typing's aliases too) -> the plain class.
PLAIN_CLASS = {
    "builtins.dict": "dict", "builtins.list": "list", "collections.Counter": "dict", "collections.defaultdict": "dict",
    "collections.OrderedDict": "dict", "typing.Counter": "dict", "typing.DefaultDict": "dict",
    "typing.OrderedDict": "dict",
}
EXACT = frozenset({"builtins.dict", "builtins.list"})
#: Mappings whose one type argument is the key type (a ``Counter``'s values are ints).
KEYS_ONLY = frozenset({"collections.Counter", "typing.Counter"})


class CheckpointJudge:
    """A judge of annotations against the target release's checkpoint encoding (``Analysis.service`` makes one)."""

    def __init__(self, analysis):  # noqa: ANN001 - an Analysis
        self.index: ProjectIndex = analysis.index
        self.analysis = analysis

    @property
    def subclasses_pickled(self) -> bool:
        # Read at each use: one analysis serves every epoch a target admits, each with its own target_version.
        return self.analysis.target_version >= PICKLED_CONTAINER_SUBCLASSES

    def plain_class(self, target: Target | None) -> str | None:
        """``"dict"`` or ``"list"`` for a class whose values the target release stores as a JSON object or array:
        ``dict`` and ``list`` themselves on every release, a subclass of either (outside the analyzed code or in
        it) before 1.20; None for any other class."""
        if target is None:
            return None
        if target.kind == "external":
            plain = PLAIN_CLASS.get(target.name)
            return plain if target.name in EXACT or not self.subclasses_pickled else None
        if self.subclasses_pickled or target.kind != "class" or target.cls is None or target.module is None:
            return None
        for base in self.index.base_targets(target.module, target.cls):
            if base.kind == "external" and base.name in PLAIN_CLASS:
                return PLAIN_CLASS[base.name]
        return None
