"""Editor latency: a ``didChange`` of a file to its ``publishDiagnostics``, over stdio, against ``steplint lsp``.

    python bench/lsp_latency.py --server "steplint lsp" --root CORPUS FILE [--edits 50]

Opens FILE in a workspace rooted at CORPUS, waits for the first diagnostics
(the index is then warm), then makes ``--edits`` whole-document changes one at
a time and times each from the notification to the diagnostics for that
version. The server's debounce (``DEBOUNCE_SECONDS``) is subtracted: it is a
wait, not work. Prints the median, p95 and max in milliseconds, and a JSON
line for bench/run.py.

``--where spread`` (the default) edits all over the file, at lines drawn
from a seeded generator: every other edit types a comment at the end of a
line (the lines stay where they were), the others insert a comment line
(every line below moves down). The server remakes only the part of the
summary an edit reaches, so where the edit falls matters. ``--where end``
appends a comment line at the end each time, the cheapest edit there is.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shlex
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from steplint.frontends.lsp_server import DEBOUNCE_SECONDS


def edited(text: str, version: int, where: str, draw: random.Random) -> str:
    """The text after edit number ``version``: a comment, so the code means the same."""
    if where == "end":
        return text + f"# edit {version}\n"
    lines = text.splitlines(keepends=True)
    while True:
        at = draw.randrange(len(lines))
        before = lines[at - 1].rstrip("\r\n") if at else ""
        if before.endswith("\\"):
            continue  # a comment cannot follow a line continued with a backslash
        if version % 2:
            lines.insert(at, f"# edit {version}\n")
            return "".join(lines)
        line = lines[at].rstrip("\r\n")
        if line.strip() and not line.endswith("\\"):
            lines[at] = line + f"  # edit {version}" + lines[at][len(line):]
            return "".join(lines)


async def measure(server: list[str], root: Path, path: Path, edits: int, where: str = "spread") -> list[float]:
    client = LanguageClient("steplint-bench", "1")
    published: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params: types.PublishDiagnosticsParams) -> None:
        published.put_nowait(params)

    await client.start_io(server[0], *server[1:])
    await client.initialize_async(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=root.as_uri(),
                               workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="corpus")])
    )
    client.initialized(types.InitializedParams())
    uri, text = path.as_uri(), path.read_text(encoding="utf-8")

    async def diagnostics_for(version: int) -> None:
        while True:
            params = await asyncio.wait_for(published.get(), 120)
            if params.uri == uri and (params.version is None or params.version >= version):
                return

    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
    await diagnostics_for(1)
    latencies = []
    draw = random.Random(17)
    for version in range(2, edits + 2):
        text = edited(text, version, where, draw)
        started = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        await diagnostics_for(version)
        latencies.append(max(0.0, time.perf_counter() - started - DEBOUNCE_SECONDS) * 1000)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return latencies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="steplint lsp")
    parser.add_argument("--root", required=True, type=Path)
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--where", choices=("spread", "end"), default="spread")
    parser.add_argument("file", type=Path)
    options = parser.parse_args(argv)
    latencies = asyncio.run(measure(shlex.split(options.server), options.root.resolve(), options.file.resolve(),
                                    options.edits, options.where))
    ordered = sorted(latencies)
    summary = {
        "edits": len(ordered),
        "median_ms": statistics.median(ordered),
        "p95_ms": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "max_ms": ordered[-1],
    }
    print(f"didChange -> publishDiagnostics over {summary['edits']} edits (debounce of {DEBOUNCE_SECONDS * 1000:.0f} ms "
          f"excluded): median {summary['median_ms']:.1f} ms, p95 {summary['p95_ms']:.1f} ms, max {summary['max_ms']:.1f} ms")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
