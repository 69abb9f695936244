"""Generate a deterministic benchmark corpus.

``synth``: every file imports agent_framework and defines about ten steps
(some of which call steps, take pydantic models, or reach a step through a
helper), about 150 lines per file, in one package with cross-module imports.

``maf``: a mix shaped like the microsoft/agent-framework Python tree: 80% of
the files import agent_framework without defining any step (agents, chat
clients, tools), 11% define steps and workflows, the rest are plain Python;
about 380 lines per file.

The same arguments always give the same bytes.

    python bench/synth.py OUT_DIR [--kind synth|maf] [--files N] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys

PACKAGE = "app"


def _header(rng: random.Random, index: int, with_maf: bool) -> list[str]:
    lines = [f'"""Generated module {index}: {rng.choice(["billing", "search", "reports", "ingest", "notify"])}."""', ""]
    lines += ["from __future__ import annotations", "", "import asyncio", "import json", "from dataclasses import dataclass", ""]
    if with_maf:
        lines += ["from agent_framework import RunContext, step, workflow", "from pydantic import BaseModel", ""]
    return lines


def _plain_block(rng: random.Random, name: str) -> list[str]:
    """A class and helpers that never touch agent_framework: padding with ordinary code."""
    fields = [f"field_{i}" for i in range(rng.randint(2, 4))]
    lines = ["@dataclass", f"class {name.title().replace('_', '')}Record:"]
    lines += [f"    {f}: int = {i}" for i, f in enumerate(fields)]
    lines += ["", "    def total(self) -> int:", f"        return {' + '.join('self.' + f for f in fields)}", ""]
    lines += ["    def to_json(self) -> str:", "        return json.dumps({", *[f"            {f!r}: self.{f}," for f in fields], "        })", ""]
    lines += ["", f"def {name}_summary(records: list[int]) -> dict[str, int]:", "    counts: dict[str, int] = {}"]
    lines += ["    for number in records:", "        key = 'even' if number % 2 == 0 else 'odd'", "        counts[key] = counts.get(key, 0) + 1"]
    lines += ["    return counts", "", ""]
    return lines


def synth_module(rng: random.Random, index: int, steps: int = 10) -> str:
    lines = _header(rng, index, with_maf=True)
    if index > 0:
        other = rng.randrange(index)
        lines += [f"from {PACKAGE}.mod_{other:05d} import shared_step_{other}, helper_{other}", ""]
    lines += ["", f"class Job{index}(BaseModel):", "    name: str", "    size: int = 0", "", ""]
    lines += ["@step", f"async def shared_step_{index}(x: str) -> str:", "    return x.upper()", "", ""]
    lines += [f"async def helper_{index}(x: str) -> str:", f"    return await shared_step_{index}(x)", "", ""]
    names = []
    for number in range(steps - 1):
        name = f"step_{index}_{number}"
        kind = rng.random()
        if kind < 0.15:  # a pydantic model: STP010
            lines += ["@step", f"async def {name}(job: Job{index}) -> str:", "    return job.name", "", ""]
        elif kind < 0.25 and names:  # a step calling a step: STP001
            callee = rng.choice(names)
            lines += ["@step", f"async def {name}(x: str) -> str:", f"    return await {callee}(x)", "", ""]
        elif kind < 0.32:  # through a helper: STP002
            lines += ["@step(name=" + repr(name) + ")", f"async def {name}(x: str) -> str:", f"    return await helper_{index}(x)", "", ""]
        else:
            lines += ["@step", f"async def {name}(x: str, count: int = 1) -> str:", "    parts = [x] * count", '    return "-".join(parts)', "", ""]
        names.append(name)
        if number % 3 == 2:
            lines += _plain_block(rng, f"block_{index}_{number}")
    calls = "\n".join(f"    out.append(await {n}(text))" for n in names if "Job" not in n)
    lines += ["@workflow", f"async def flow_{index}(text: str, ctx: RunContext) -> list[str]:", "    out: list[str] = []", calls]
    lines += ["    return out", ""]
    return "\n".join(lines) + "\n"


def maf_module(rng: random.Random, index: int, kind: str) -> str:
    """``kind``: "steps" (defines steps), "uses" (imports agent_framework, no step), "plain"."""
    if kind == "steps":
        body = synth_module(rng, index, steps=rng.randint(3, 8))
        target = 380
        lines = body.splitlines()
    else:
        lines = _header(rng, index, with_maf=False)
        if kind == "uses":
            lines += ["from agent_framework import ChatAgent, ChatMessage, ai_function", ""]
            lines += ["", f"class Agent{index}(ChatAgent):", "    async def answer(self, text: str) -> ChatMessage:"]
            lines += ["        reply = await self.run(text)", "        return ChatMessage(role='assistant', text=str(reply))", "", ""]
            lines += ["@ai_function", f"def tool_{index}(query: str) -> str:", "    return query[::-1]", "", ""]
        target = 380
    block = 0
    while len(lines) < target:
        lines += _plain_block(rng, f"extra_{index}_{block}")
        block += 1
    return "\n".join(lines) + "\n"


def generate(out: str, kind: str = "synth", files: int = 2000, seed: int = 6) -> list[str]:
    """Write the corpus under ``out`` (replacing it); returns the file paths."""
    rng = random.Random(seed)
    if os.path.isdir(out):
        shutil.rmtree(out)
    package = os.path.join(out, PACKAGE)
    os.makedirs(package)
    paths = [os.path.join(package, "__init__.py")]
    with open(paths[0], "w", encoding="utf-8") as handle:
        handle.write('"""Generated benchmark package."""\n')
    for index in range(files - 1):
        if kind == "synth":
            text = synth_module(rng, index)
        else:
            roll = rng.random()
            module_kind = "uses" if roll < 0.80 else "steps" if roll < 0.91 else "plain"
            text = maf_module(rng, index, module_kind)
            if module_kind != "steps" and index > 0:
                pass
        path = os.path.join(package, f"mod_{index:05d}.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--kind", choices=["synth", "maf"], default="synth")
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args(argv)
    paths = generate(args.out, args.kind, args.files, args.seed)
    lines = sum(open(p, encoding="utf-8").read().count("\n") for p in paths)
    print(f"{len(paths)} files, {lines} lines in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
