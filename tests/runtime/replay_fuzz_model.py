"""The programs of the replay fuzzer (issue 27, item 6): what a generated workflow calls, and its truth.

A program is a tree of step calls: top-level groups (one call, or several
gathered), each call with nested groups of its own. Every call carries a label
unique in the program, in one place of its arguments (a model field, a pydantic
private attribute, a keyword, a variadic argument, a tuple, or a plain string MAF
can fingerprint on 1.20+); every other argument is the same for all calls, so a
record that missed the carrier would take one call for another. A call's result
is a function of its own label only (a tuple with an enum, which the storage
round trip gives back as a list and a str), so a call that receives another
call's value is seen at the call site.

In about 30% of the programs (``install_midway``) the crashed run starts without the shim and
``install()`` is called from the event loop while it runs (it must stay on MAF's code to its end); in
about 30% (``other_process``, file storage only) the resume runs in another process started with
another ``PYTHONHASHSEED`` (``replay_fuzz_worker``), and the steps that take a model also take a
``Tags`` argument whose state is a set of str, pickled in hash-seed order.

In a third of the programs or so (``memo``), every top-level body starts a
shared load as it returns, unless one is running (an ``asyncio.Task`` in a
module dict, the way applications memoize a config load), and the workflow
awaits it after each top-level group: on a resume, the step that starts it may
be another.

The generator is seeded; ``second`` is the order of the resumed run (reordered
where the generator says so), and a pause with an automatic request id is only
made in programs whose order does not change (MAF pairs those ids by order).
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Any

CARRIERS = ("field", "private", "kwarg", "vararg", "tuple", "plain")
STEPS = ("alpha", "beta", "gamma")


class Color(str, enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Call:
    label: str
    step: str  # alpha(item, *tags, **opts), beta(item, color, pair), gamma(item, ctx, **opts) (may pause)
    carrier: str
    flaky: bool  # the body raises Flaky on its first attempt; the caller retries
    pause: str | None  # None, "named" (request_id by label) or "auto"
    children: tuple[Group, ...] = ()


@dataclass(frozen=True)
class Group:
    calls: tuple[Call, ...]
    gathered: bool


@dataclass(frozen=True)
class Program:
    seed: int
    first: tuple[Group, ...]  # the order of the run that crashes
    second: tuple[Group, ...]  # the order of the resume and of the ground truth
    crash_at: int  # the body entry (1-based, first run) that raises Crash
    resume_pick: float  # which checkpoint the resume starts from: 1.0 the latest, less an earlier one
    storage: str  # "memory" or "file" (or "none": the fuzz's storage-less variant)
    memo: bool = False  # top-level bodies start a shared load (MEMO_LABEL) as they return; the workflow awaits it
    # after each top-level group
    install_midway: int = 0  # > 0: the crashed run starts without the shim, installed from the event loop (not
    # from the run) once that body entry is reached; the resume runs under it
    other_process: bool = False  # the resume runs in another process, with another hash seed (file storage)
    uninstall_midway: int = 0  # > 0 (the fuzz's uninstall variant): the crashed run starts under the shim and
    # uninstall() is called from the event loop once that body entry is reached; the resume is installed again

    @property
    def nests(self) -> bool:
        return self.memo or any(call.children for call in walk(self.first))

    @property
    def reordered(self) -> bool:
        return self.first != self.second


def walk(groups: tuple[Group, ...]) -> list[Call]:
    calls: list[Call] = []
    for group in groups:
        for call in group.calls:
            calls.append(call)
            calls.extend(walk(call.children))
    return calls


MEMO_LABEL = "memo"


def answer_for(label: str) -> str:
    return f"ans:{label}"


def color_of(label: str) -> Color:
    return Color.RED if len(label) % 2 else Color.BLUE


def expected_value(call: Call) -> list[Any]:
    """A call's result in canonical form (what the storage round trip keeps)."""
    answer = answer_for(call.label) if call.pause else None
    return [call.label, color_of(call.label).value, answer]


def canonical(value: Any) -> Any:
    """A value as MAF's storage gives it back: tuples as lists, str enums as their value."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    return value


@dataclass
class _Generator:
    rng: random.Random
    may_auto_pause: bool
    counter: list[int] = field(default_factory=lambda: [0])

    def groups(self, depth: int, most: int, concurrent: bool = False) -> tuple[Group, ...]:
        return tuple(self.group(depth, concurrent) for _ in range(self.rng.randint(1, most)))

    def group(self, depth: int, concurrent: bool) -> Group:
        gathered = self.rng.random() < 0.35
        size = self.rng.randint(2, 3) if gathered else 1
        # MAF 1.20+ refuses concurrent calls it cannot fingerprint: calls in a gather, and all they call, are plain
        plain = gathered or concurrent
        return Group(tuple(self.call(depth, plain) for _ in range(size)), gathered)

    def call(self, depth: int, plain: bool = False) -> Call:
        self.counter[0] += 1
        label = f"c{self.counter[0]}"
        pause = None if plain else self.rng.choice([None, None, None, "named", "auto" if self.may_auto_pause else "named"])
        step = "gamma" if pause else "alpha" if plain else self.rng.choice(STEPS)
        carriers = {"alpha": CARRIERS, "beta": ("field", "private", "tuple"), "gamma": ("field", "private", "kwarg")}
        carrier = "plain" if plain else self.rng.choice(carriers[step])
        children = self.groups(depth + 1, 2, plain) if depth < 2 and self.rng.random() < 0.3 else ()
        return Call(label, step, carrier, self.rng.random() < 0.15, pause, children)


def shuffled(groups: tuple[Group, ...], rng: random.Random) -> tuple[Group, ...]:
    """*groups* with the order of top-level groups, gathered calls and nested groups changed at random."""
    reordered = []
    for group in groups:
        calls = [Call(c.label, c.step, c.carrier, c.flaky, c.pause, shuffled(c.children, rng)) for c in group.calls]
        if group.gathered:
            rng.shuffle(calls)
        reordered.append(Group(tuple(calls), group.gathered))
    rng.shuffle(reordered)
    return tuple(reordered)


def generate(seed: int) -> Program:
    rng = random.Random(seed)
    reorder = rng.random() < 0.5
    generator = _Generator(rng, may_auto_pause=not reorder)
    first = generator.groups(0, 4)
    second = shuffled(first, rng) if reorder else first
    entries = len(walk(first))
    memo = random.Random(seed * 7919 + 1).random() < 0.4  # its own draw: the other programs stay as they were
    crash_at = rng.randint(1, entries + 1)
    resume_pick = rng.choice([1.0, 1.0, rng.random()])
    storage = rng.choice(["memory", "file"])
    extra = random.Random(seed * 7919 + 4)  # the dimensions added later draw apart too
    install_midway = extra.randint(1, crash_at) if extra.random() < 0.3 else 0
    other_process = storage == "file" and extra.random() < 0.6
    return Program(seed, first, second, crash_at=crash_at, resume_pick=resume_pick, storage=storage, memo=memo,
                   install_midway=install_midway, other_process=other_process)
