"""The language server with a notebook open (LSP notebook documents, pygls 2): the cells are one module, each cell
gets its own findings at the line in it, an edit to a cell is seen, closing clears them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import pytest_lsp
from cli_samples import ROOT
from lsp_client import SERVER_COMMAND, RecordingClient, make_client
from lsprotocol import types
from notebook_files import cell_sources
from pytest_lsp import ClientServerConfig

FIXTURE = ROOT / "fixtures" / "notebook_workflow"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client))
async def client(lsp_client: RecordingClient, tmp_path: Path):
    shutil.copytree(FIXTURE, tmp_path / "nb")
    (tmp_path / "nb" / "pyproject.toml").write_text("[project]\nname = 'nb'\nversion = '0'\n")
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(notebook_document=types.NotebookDocumentClientCapabilities(
            synchronization=types.NotebookDocumentSyncClientCapabilities())), root_uri=(tmp_path / "nb").as_uri())
    )
    assert result.capabilities.notebook_document_sync is not None  # the server says it takes notebooks
    yield
    await lsp_client.shutdown_session()


def cell_uri(notebook: Path, number: int) -> str:
    return f"vscode-notebook-cell:{notebook.as_posix()}#cell{number}"


@pytest.mark.asyncio
async def test_a_notebooks_cells_are_linted_as_one_module(client: RecordingClient, tmp_path: Path):
    notebook = tmp_path / "nb" / "orders.ipynb"
    sources = cell_sources(notebook.read_text())
    kinds = [types.NotebookCellKind.Code if not s.startswith(("# Orders", "Run it")) else types.NotebookCellKind.Markup
             for s in sources]
    cells = [types.NotebookCell(kind=kind, document=cell_uri(notebook, n)) for n, kind in enumerate(kinds, start=1)]
    # The editor says each cell's language: the SQL cell (VS Code's languageId in the file) is not Python.
    languages = ["markdown" if kind == types.NotebookCellKind.Markup else "sql" if source.startswith("SELECT")
                 else "python" for kind, source in zip(kinds, sources)]
    documents = [types.TextDocumentItem(uri=cell_uri(notebook, n), version=1, text=source, language_id=language)
                 for n, (language, source) in enumerate(zip(languages, sources), start=1)]
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(uri=notebook.as_uri(), notebook_type="jupyter-notebook", version=1,
                                                 cells=cells),
        cell_text_documents=documents,
    ))
    published = await client.next_publish(cell_uri(notebook, 5))
    # Cell 5's step calls cell 3's step and order_billing.py's: the command line's findings, at the lines of cell 5.
    found = sorted((d.code, d.range.start.line + 1, d.range.start.character + 1) for d in published.diagnostics)
    assert found == [("STP001", 3, 18), ("STP001", 5, 18)]

    # An edit to cell 3 (fetch is no longer a step) is seen in cell 5.
    edited = sources[2].replace("@maf.step\n", "")
    client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
        notebook_document=types.VersionedNotebookDocumentIdentifier(uri=notebook.as_uri(), version=2),
        change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
            types.NotebookDocumentCellContentChanges(
                document=types.VersionedTextDocumentIdentifier(uri=cell_uri(notebook, 3), version=2),
                changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
            )
        ])),
    ))
    while True:
        published = await client.next_publish(cell_uri(notebook, 5))
        if len(published.diagnostics) == 1:
            break
    assert [(d.code, d.range.start.line + 1) for d in published.diagnostics] == [("STP001", 5)]

    client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
        notebook_document=types.NotebookDocumentIdentifier(uri=notebook.as_uri()),
        cell_text_documents=[types.TextDocumentIdentifier(uri=d.uri) for d in documents],
    ))
    while True:
        published = await client.next_publish(cell_uri(notebook, 5))
        if not published.diagnostics:
            break
