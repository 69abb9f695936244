"""steplint's language server: ``steplint lsp`` (stdio), from the extra ``steplint[lsp]``.

Each open Python document is linted as its file in its project: when it is
opened, after edits (the unsaved text, once typing pauses for
``DEBOUNCE_SECONDS``) and when it is saved; closing it clears its findings.
The modules it imports are read from their open buffers when the editor has
them open, else from disk, and kept between lints (``editor_session``); an
edit to one open document re-lints the others, which may import it.

An open Jupyter notebook (LSP notebook documents) is linted as one module of
its Python cells, as the command line reads the file, and each cell gets its
own findings (diagnostics only).

Features: diagnostics (severity per code from the ``severity`` option),
hover on a finding or on a code of a ``# noqa`` comment (the rule's doc),
quick fixes (a rule's fix, "disable STPxxx for this line"),
``source.fixAll.steplint`` (every safe fix), and reload on a
``pyproject.toml`` or Python file change (``workspace/didChangeWatchedFiles``,
registered when the client can). Options come as ``initializationOptions``
or as the ``steplint`` section of ``workspace/didChangeConfiguration``.
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass, replace

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from steplint._version import __version__
from steplint.fixes.noqa_edits import add_noqa_edit
from steplint.catalog.registry import rule_for
from steplint.config.settings import ConfigError, Settings
from steplint.core.diagnostics import Diagnostic
from steplint.core.gc_pause import IdleCollection
from steplint.frontends.editor_session import Buffers, EditorOptions, ModuleSummaries, fixed_text, lint_document
from steplint.frontends.lsp_convert import LINE_BREAK, minimal_edits, noqa_code_at, text_edit, to_lsp, touches
from steplint.source.discovery import PYTHON_SUFFIXES
from steplint.source.notebooks import code_of_cells

DEBOUNCE_SECONDS = 0.3
COLLECT_AFTER_SECONDS = 0.05  # after the last lint ends: within the next edit's debounce, or idle time
FIX_ALL = "source.fixAll.steplint"
RELOADING_FILES = ("pyproject.toml", ".gitignore", ".ignore")  # a change to one of these can change any finding
WATCHED = ("**/pyproject.toml", "**/*.py", "**/*.pyi")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Published:
    """The findings last sent for one document, kept to answer code actions and hovers."""

    version: int | None
    text: str
    pairs: tuple[tuple[types.Diagnostic, Diagnostic], ...]
    settings: Settings


class SteplintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "steplint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            # Jupyter notebooks' Python cells: the client sends them, pygls keeps them in the workspace.
            notebook_document_sync=types.NotebookDocumentSyncOptions(notebook_selector=[
                types.NotebookDocumentFilterWithNotebook(
                    notebook=types.NotebookDocumentFilterPattern(pattern="**/*.ipynb"),
                    cells=[types.NotebookCellLanguage(language="python")],
                )
            ]),
        )
        self.pending: dict[str, asyncio.Task] = {}
        self.published: dict[str, Published] = {}
        self.reported_errors: set[str] = set()
        self.options = EditorOptions()
        self.option_problems: list[str] = []
        self.summaries = ModuleSummaries()
        # The collector runs between lints, not while the editor waits for one (4 ms of each lint of the hub module).
        self.collection = IdleCollection(COLLECT_AFTER_SECONDS)

    # --- documents ---------------------------------------------------------------------------

    def open_buffers(self) -> Buffers:
        """Every open document's text by absolute path: what a lint reads instead of the file on disk."""
        found: Buffers = {}
        for uri, document in list(self.workspace.text_documents.items()):
            if self.is_cell(uri):
                continue
            path = to_fs_path(uri)
            if path is not None:
                found[os.path.abspath(path)] = (document.version, document.source)
        return found

    def open_python_documents(self) -> list[str]:
        found = []
        for uri, document in list(self.workspace.text_documents.items()):
            path = to_fs_path(uri)
            if path is not None and _is_python(path, document.language_id) and not self.is_cell(uri):
                found.append(uri)
        return found + list(self.workspace.notebook_documents)

    def is_cell(self, uri: str) -> bool:
        """A notebook cell's document: linted with its notebook, never alone."""
        return self.workspace.get_notebook_document(cell_uri=uri) is not None

    def schedule(self, uri: str, delay: float) -> None:
        """Lint ``uri`` after ``delay`` seconds, replacing a lint still waiting: the last edit wins."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.create_task(self._lint_later(uri, delay))

    def schedule_all(self, delay: float, first: str | None = None) -> None:
        """Lint every open document (``first`` before the others): an edit or a file change may change any."""
        if first is not None:
            self.schedule(first, delay)
        for uri in self.open_python_documents():
            if uri != first:
                self.schedule(uri, delay + (DEBOUNCE_SECONDS if first is not None else 0))

    def forget(self, uri: str) -> None:
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.published.pop(uri, None)
        path = to_fs_path(uri)
        if path is not None:
            self.summaries.forget(path)  # its module is read from disk again
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    async def _lint_later(self, uri: str, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            await self._lint(uri)
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]

    async def _lint(self, uri: str) -> None:
        if uri in self.workspace.notebook_documents:
            await self._lint_notebook(uri)
            return
        document = self.workspace.text_documents.get(uri)
        path = to_fs_path(uri) if document is not None else None
        if document is None or path is None or not _is_python(path, document.language_id):
            return
        self.collection.busy()
        try:
            await self._lint_text(uri, path, document.source, document.version)
        finally:
            self.collection.done()

    async def _lint_text(self, uri: str, path: str, text: str, version: int | None) -> None:
        try:
            findings, settings = await asyncio.to_thread(
                lint_document, text, path, self.options, self.summaries, self.open_buffers()
            )
        except ConfigError as exc:
            self._report_once(str(exc))
            findings, settings = [], None
        except Exception as exc:  # a bug in steplint must not take the editor's server down
            log.exception("linting %s failed", path)
            self._report_once(f"internal error: {type(exc).__name__}: {exc}")
            return
        current = self.workspace.text_documents.get(uri)
        if current is None or current.version != version:
            return  # closed or edited meanwhile: that edit scheduled its own lint
        codec = self.workspace.position_codec
        lines = LINE_BREAK.split(text)
        pairs = tuple((to_lsp(d, lines, codec, self.options.severity_for(d.code, d.severity)), d) for d in findings)
        if settings is not None:
            self.published[uri] = Published(version, text, pairs, settings)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[lsp for lsp, _ in pairs])
        )

    async def _lint_notebook(self, uri: str) -> None:
        """A notebook's Python cells as one module, as the command line reads the file; each cell gets its findings,
        placed in it (``steplint.source.notebooks``)."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        path = to_fs_path(uri)
        if notebook is None or path is None:
            return
        version = notebook.version
        cells, documents = [], {}
        for number, cell in enumerate(notebook.cells, start=1):
            document = self.workspace.text_documents.get(cell.document)
            if cell.kind == types.NotebookCellKind.Code and document is not None:
                documents[number] = (cell.document, document.source)
                if document.language_id in (None, "python"):
                    cells.append((number, document.source))
        code = code_of_cells(cells)
        self.collection.busy()
        try:
            findings, _ = await asyncio.to_thread(
                lint_document, code.text, path, self.options, self.summaries, self.open_buffers()
            )
        except ConfigError as exc:
            self._report_once(str(exc))
            findings = []
        except Exception as exc:  # a bug in steplint must not take the editor's server down
            log.exception("linting %s failed", path)
            self._report_once(f"internal error: {type(exc).__name__}: {exc}")
            return
        finally:
            self.collection.done()
        current = self.workspace.get_notebook_document(notebook_uri=uri)
        if current is None or current.version != version:
            return  # closed or edited meanwhile: that edit scheduled its own lint
        per_cell: dict[int, list[types.Diagnostic]] = {number: [] for number in documents}
        codec = self.workspace.position_codec
        for finding in findings:
            number, line = code.cells.place(finding.line)
            end_number, end_line = code.cells.place(finding.end_line)
            if number not in documents:
                continue
            placed = replace(finding, line=line, end_line=end_line if end_number == number else line)
            lines = LINE_BREAK.split(documents[number][1])
            per_cell[number].append(to_lsp(placed, lines, codec, self.options.severity_for(finding.code, finding.severity)))
        for number, diagnostics in per_cell.items():
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=documents[number][0], diagnostics=diagnostics)
            )

    def forget_notebook(self, uri: str, cells: list[str]) -> None:
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        for cell in cells:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=cell, diagnostics=[]))

    def _report_once(self, message: str) -> None:
        if message not in self.reported_errors:
            self.reported_errors.add(message)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=f"steplint: {message}"))

    # --- options and watched files -----------------------------------------------------------

    def take_options(self, raw: object) -> None:
        self.options, problems = EditorOptions.parse(raw)
        for problem in problems:
            self._report_once(problem)

    def files_changed(self, changes: list[types.FileEvent]) -> None:
        for change in changes:
            path = to_fs_path(change.uri)
            if path is None:
                continue
            if os.path.basename(path) in RELOADING_FILES or change.type != types.FileChangeType.Changed:
                # A new or deleted file can change other modules' names (an __init__.py) or what an import finds.
                self.summaries.forget_all()
            else:
                self.summaries.forget(path)
        self.schedule_all(0)

    # --- requests ------------------------------------------------------------------------------

    def current(self, uri: str) -> Published | None:
        """The findings last published for ``uri``, if they are for the text the editor has now."""
        published = self.published.get(uri)
        document = self.workspace.text_documents.get(uri)
        if published is None or document is None or document.version != published.version:
            return None
        return published

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        published = self.current(uri)
        if published is None:
            return []
        only = params.context.only
        wants_quick_fixes = only is None or any(kind.startswith(types.CodeActionKind.QuickFix) for kind in only)
        wants_fix_all = only is None or any(FIX_ALL.startswith(kind) for kind in only)
        actions = self._quick_fixes(uri, published, params.range) if wants_quick_fixes else []
        if wants_fix_all:
            action = self._fix_all(uri, published)
            if action is not None:
                actions.append(action)
        return actions

    def _quick_fixes(self, uri: str, published: Published, at: types.Range) -> list[types.CodeAction]:
        codec = self.workspace.position_codec
        lines = LINE_BREAK.split(published.text)
        actions: list[types.CodeAction] = []
        silenced: set[tuple[int, str]] = set()  # one "disable" per code and line, however many findings
        for lsp, finding in published.pairs:
            if not touches(lsp.range, at):
                continue
            if finding.fix is not None:
                edits = [text_edit(edit, lines, codec) for edit in finding.fix.edits]
                actions.append(
                    types.CodeAction(
                        title=f"{finding.fix.title}{'' if finding.fix.safe else ' (unsafe)'}",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[lsp],
                        edit=types.WorkspaceEdit(changes={uri: edits}),
                        is_preferred=finding.fix.safe,
                    )
                )
            noqa = add_noqa_edit(published.text, finding.line, finding.code)
            if noqa is not None and (finding.line, finding.code) not in silenced:
                silenced.add((finding.line, finding.code))
                actions.append(
                    types.CodeAction(
                        title=f"Disable {finding.code} for this line",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[lsp],
                        edit=types.WorkspaceEdit(changes={uri: [text_edit(noqa, lines, codec)]}),
                    )
                )
        return actions

    def _fix_all(self, uri: str, published: Published) -> types.CodeAction | None:
        path = to_fs_path(uri)
        if path is None:
            return None
        new_text = fixed_text(published.text, path, [finding for _, finding in published.pairs], published.settings)
        if new_text is None or new_text == published.text:
            return None
        edits = minimal_edits(published.text, new_text, self.workspace.position_codec)
        return types.CodeAction(
            title="steplint: fix all safe fixes",
            kind=FIX_ALL,
            edit=types.WorkspaceEdit(document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=published.version),
                    edits=edits,
                )
            ]),
        )

    def hover(self, params: types.HoverParams) -> types.Hover | None:
        """The doc of the rule whose finding is under the cursor, or of the ``# noqa`` code under it."""
        uri, at = params.text_document.uri, params.position
        codes: list[str] = []
        published = self.current(uri)
        if published is not None:
            cursor = types.Range(start=at, end=at)
            codes = list(dict.fromkeys(finding.code for lsp, finding in published.pairs if touches(lsp.range, cursor)))
        if not codes:
            document = self.workspace.text_documents.get(uri)
            lines = LINE_BREAK.split(document.source) if document is not None else []
            code = noqa_code_at(lines[at.line], at.character, self.workspace.position_codec) if at.line < len(lines) else None
            codes = [code] if code is not None else []
        rules = [rule for rule in map(rule_for, codes) if rule is not None]
        if not rules:
            return None
        text = "\n\n---\n\n".join(
            f"**{rule.code} {rule.name}** ({rule.severity}, {'on by default' if rule.default_enabled else 'opt-in'})"
            f"\n\n{rule.doc()}\n\n[Rule page]({rule.help_uri()})"
            for rule in rules
        )
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    async def register_watchers(self) -> None:
        capabilities = self.client_capabilities.workspace
        watched = capabilities.did_change_watched_files if capabilities is not None else None
        if watched is None or not watched.dynamic_registration:
            return
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=pattern) for pattern in WATCHED]
        )
        registration = types.Registration(id="steplint-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                          register_options=options)
        try:
            await self.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
        except Exception as exc:  # a client that refuses: diagnostics still follow saves and edits
            log.warning("the client did not register the file watchers: %s", exc)


def _is_python(path: str, language_id: str | None) -> bool:
    return language_id == "python" or path.endswith(PYTHON_SUFFIXES)


def build_server() -> SteplintServer:
    server = SteplintServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: SteplintServer, params: types.InitializeParams) -> None:
        ls.take_options(params.initialization_options)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: SteplintServer, params: types.InitializedParams) -> None:
        await ls.register_watchers()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SteplintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SteplintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule_all(DEBOUNCE_SECONDS, first=params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SteplintServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.schedule_all(0, first=params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SteplintServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)
        ls.schedule_all(0)  # importers of the closed buffer see the file on disk again

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_did_open(ls: SteplintServer, params: types.DidOpenNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri, 0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_did_change(ls: SteplintServer, params: types.DidChangeNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri, DEBOUNCE_SECONDS)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_did_save(ls: SteplintServer, params: types.DidSaveNotebookDocumentParams) -> None:
        ls.schedule(params.notebook_document.uri, 0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_did_close(ls: SteplintServer, params: types.DidCloseNotebookDocumentParams) -> None:
        ls.forget_notebook(params.notebook_document.uri, [cell.uri for cell in params.cell_text_documents])

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: SteplintServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.files_changed(params.changes)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: SteplintServer, params: types.DidChangeConfigurationParams) -> None:
        if isinstance(params.settings, dict) and isinstance(params.settings.get("steplint"), dict):
            ls.take_options(params.settings["steplint"])
            ls.schedule_all(0)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: SteplintServer, params: types.HoverParams) -> types.Hover | None:
        return ls.hover(params)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll,
                                                   FIX_ALL]),
    )
    def code_action(ls: SteplintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return ls.code_actions(params)

    return server


def serve() -> None:
    logging.basicConfig(level=logging.WARNING, format="steplint lsp: %(levelname)s: %(message)s")
    build_server().start_io()
