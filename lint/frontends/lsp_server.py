"""steplint's language server: ``steplint lsp`` (stdio), from the extra ``steplint[lsp]``.

Each open Python document is linted as its file in its project (imports are
read from disk, ``[tool.steplint]`` from the nearest pyproject.toml): when it
is opened, after edits (the unsaved text, once typing pauses for
``DEBOUNCE_SECONDS``) and when it is saved; closing it clears its findings.
Positions go out in the encoding negotiated with the client, UTF-16 code
units unless the client offers another. Quick fixes: a rule's fix where it
has one, and "disable STPxxx for this line" (a ``# noqa`` comment).
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import PositionCodec

from steplint._version import __version__
from steplint.frontends.unsaved_buffer import lint_buffer
from steplint.config.settings import ConfigError
from steplint.analysis.noqa_edits import add_noqa_edit
from steplint.core.diagnostics import ERROR, WARNING, Diagnostic, Edit
from steplint.source.discovery import PYTHON_SUFFIXES
from steplint.catalog.registry import rule_for

DEBOUNCE_SECONDS = 0.3
SOURCE = "steplint"
_SEVERITY = {ERROR: types.DiagnosticSeverity.Error, WARNING: types.DiagnosticSeverity.Warning}
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # how steplint counts lines (steplint.source.reading)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Published:
    """The findings last sent for one document, kept to answer code actions."""

    version: int | None
    text: str
    pairs: tuple[tuple[types.Diagnostic, Diagnostic], ...]


class SteplintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("steplint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.pending: dict[str, asyncio.Task] = {}
        self.published: dict[str, Published] = {}
        self.reported_errors: set[str] = set()

    def schedule(self, uri: str, delay: float) -> None:
        """Lint ``uri`` after ``delay`` seconds, replacing a lint still waiting: the last edit wins."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.create_task(self._lint_later(uri, delay))

    def forget(self, uri: str) -> None:
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.published.pop(uri, None)
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
        document = self.workspace.text_documents.get(uri)
        path = to_fs_path(uri) if document is not None else None
        if document is None or path is None or not _is_python(path, document.language_id):
            return
        text, version = document.source, document.version
        try:
            findings = await asyncio.to_thread(lint_buffer, text, path)
        except ConfigError as exc:
            self._report_once(str(exc))
            findings = []
        except Exception as exc:  # a bug in steplint must not take the editor's server down
            log.exception("linting %s failed", path)
            self._report_once(f"internal error: {type(exc).__name__}: {exc}")
            return
        current = self.workspace.text_documents.get(uri)
        if current is None or current.version != version:
            return  # closed or edited meanwhile: that edit scheduled its own lint
        codec = self.workspace.position_codec
        lines = _LINE_BREAK.split(text)
        pairs = tuple((to_lsp(d, lines, codec), d) for d in findings)
        self.published[uri] = Published(version, text, pairs)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[lsp for lsp, _ in pairs])
        )

    def _report_once(self, message: str) -> None:
        if message not in self.reported_errors:
            self.reported_errors.add(message)
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=f"steplint: {message}"))

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        published = self.published.get(uri)
        document = self.workspace.text_documents.get(uri)
        if published is None or document is None or document.version != published.version:
            return []
        codec = self.workspace.position_codec
        lines = _LINE_BREAK.split(published.text)
        actions: list[types.CodeAction] = []
        silenced: set[tuple[int, str]] = set()  # one "disable" per code and line, however many findings
        for lsp, finding in published.pairs:
            if not _touches(lsp.range, params.range):
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


def _is_python(path: str, language_id: str | None) -> bool:
    return language_id == "python" or path.endswith(PYTHON_SUFFIXES)


def _touches(found: types.Range, asked: types.Range) -> bool:
    def key(position: types.Position) -> tuple[int, int]:
        return position.line, position.character

    return key(found.start) <= key(asked.end) and key(asked.start) <= key(found.end)


def position(lines: list[str], line: int, column: int, codec: PositionCodec) -> types.Position:
    """steplint's 1-based line and 1-based character column, as a 0-based LSP position in the client's units."""
    index = max(line - 1, 0)
    if index >= len(lines):
        return types.Position(line=len(lines), character=0)
    text = lines[index]
    return types.Position(line=index, character=codec.client_num_units(text[: max(column - 1, 0)]))


def to_lsp(d: Diagnostic, lines: list[str], codec: PositionCodec) -> types.Diagnostic:
    rule = rule_for(d.code)
    return types.Diagnostic(
        range=types.Range(start=position(lines, d.line, d.column, codec), end=position(lines, d.end_line, d.end_column, codec)),
        severity=_SEVERITY.get(d.severity, types.DiagnosticSeverity.Information),
        code=d.code,
        code_description=types.CodeDescription(href=rule.help_uri()) if rule is not None else None,
        source=SOURCE,
        message=d.message,
    )


def text_edit(edit: Edit, lines: list[str], codec: PositionCodec) -> types.TextEdit:
    return types.TextEdit(
        range=types.Range(
            start=position(lines, edit.line, edit.column, codec),
            end=position(lines, edit.end_line, edit.end_column, codec),
        ),
        new_text=edit.replacement,
    )


def build_server() -> SteplintServer:
    server = SteplintServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SteplintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SteplintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, DEBOUNCE_SECONDS)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SteplintServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SteplintServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: SteplintServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return ls.code_actions(params)

    return server


def serve() -> None:
    logging.basicConfig(level=logging.WARNING, format="steplint lsp: %(levelname)s: %(message)s")
    build_server().start_io()
