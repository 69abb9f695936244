"""The LSP client the language-server tests drive ``steplint lsp`` with (pytest-lsp over stdio), and its helpers."""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path

from integrations import snippet, tool
from lsprotocol import types
from pygls.protocol import default_converter
from pygls.workspace import TextDocument
from pytest_lsp import LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

HELIX = tomllib.loads(snippet("Editors", "toml"))["language-server"]["steplint"]
SERVER_COMMAND = [tool(HELIX["command"]), *HELIX["args"]]
TIMEOUT = 20


class RecordingClient(LanguageClient):
    """Keeps every publishDiagnostics, in order, where pytest-lsp keeps only the last one."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.published: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()

    async def next_publish(self, uri: str) -> types.PublishDiagnosticsParams:
        async def wait() -> types.PublishDiagnosticsParams:
            while True:
                params = await self.published.get()
                if params.uri == uri:
                    return params

        return await asyncio.wait_for(wait(), TIMEOUT)


def _record(client: RecordingClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.put_nowait(params)


def make_client() -> RecordingClient:
    client = RecordingClient(converter_factory=default_converter)
    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _record})
    return client


def open_document(client: RecordingClient, path: Path, text: str | None = None) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text or path.read_text())
        )
    )
    return uri


def replace_all(client: RecordingClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def code_actions(client: RecordingClient, uri: str, at: types.Range, diagnostic: types.Diagnostic) -> list:
    """What the editor asks when the cursor (or a selection) is at ``at`` on a finding."""
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=at,
            context=types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )


def apply(text: str, edit: types.TextEdit) -> str:
    """A TextEdit applied as pygls applies an incremental change (UTF-16 positions)."""
    document = TextDocument("file:///edited.py", text)
    document.apply_change(types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text))
    return document.source


def watched_files_changed(client: RecordingClient, *changes: tuple[Path, types.FileChangeType]) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=path.as_uri(), type=kind) for path, kind in changes])
    )
