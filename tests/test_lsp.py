"""The language server end to end: ``steplint lsp`` in a subprocess, driven by pytest-lsp's client over stdio.

The server is started with the command of the README's Helix snippet.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import pytest_lsp
from integrations import FLOW, FLOW_FINDING, make_project, snippet, tool
from lsp_client import HELIX, SERVER_COMMAND, RecordingClient, apply, code_actions, make_client, open_document, replace_all
from lsprotocol import types
from pygls.workspace import PositionCodec
from pytest_lsp import ClientServerConfig

from steplint.frontends.unsaved_buffer import lint_buffer
from steplint.fixes.noqa_edits import add_noqa_edit as noqa_edit
from steplint.frontends.lsp_convert import position
from steplint.frontends.lsp_server import DEBOUNCE_SECONDS
from steplint.catalog.registry import rule_for

@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client))
async def client(lsp_client: RecordingClient, tmp_path: Path):
    make_project(tmp_path)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=tmp_path.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="sample")],
        )
    )
    yield
    await lsp_client.shutdown_session()  # shutdown, then exit: the server must end cleanly
    assert lsp_client._server.returncode == 0


def cli_findings(project: Path, relative: str) -> list[dict]:
    done = subprocess.run(
        [tool("steplint"), "--format", "json", relative], cwd=project, capture_output=True, text=True, timeout=60
    )
    return json.loads(done.stdout)


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2





@pytest.mark.asyncio
async def test_open_change_save_close_and_shutdown(client: RecordingClient, tmp_path: Path):
    project = tmp_path  # the fixture made the sample project there
    flow = project / "pkg" / "flow.py"
    uri = open_document(client, flow)

    # Open: the CLI's findings (tick is a step of pkg/steps.py, read from disk; the
    # project's pyproject ignores STP040, so the sync step is not reported).
    opened = await client.next_publish(uri)
    (expected,) = cli_findings(project, "pkg/flow.py")
    (found,) = opened.diagnostics
    assert (expected["path"], expected["line"], expected["column"], expected["code"]) == FLOW_FINDING
    assert found.range == types.Range(
        start=types.Position(line=expected["line"] - 1, character=expected["column"] - 1),
        end=types.Position(line=expected["end_line"] - 1, character=expected["end_column"] - 1),
    )
    assert found.code == "STP001" and found.source == "steplint" and found.message == expected["message"]
    assert found.code_description.href == rule_for("STP001").help_uri()
    severity = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}
    assert found.severity == severity[expected["severity"]]
    assert opened.version == 1

    # Change: the unsaved text is linted once typing pauses; the file on disk is untouched.
    fixed = FLOW.replace("await tick(label)", "await tick.__wrapped__(label)")
    replace_all(client, uri, 2, FLOW.replace("wrapper", "wrapper_"))
    replace_all(client, uri, 3, fixed)
    last_change = time.monotonic()
    changed = await client.next_publish(uri)
    assert time.monotonic() - last_change >= DEBOUNCE_SECONDS * 0.9
    assert changed.version == 3 and not changed.diagnostics
    assert flow.read_text() == FLOW

    # A second nested call in the unsaved text, then save: both findings.
    twice = FLOW.replace("return await tick(label)", "return await tick(label) + await tick(label)")
    replace_all(client, uri, 4, twice)
    assert len((await client.next_publish(uri)).diagnostics) == 2
    flow.write_text(twice)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    saved = await client.next_publish(uri)
    assert [(d.code, d.range.start.character) for d in saved.diagnostics] == [("STP001", 17), ("STP001", 37)]

    # Close: an empty list.
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    closed = await client.next_publish(uri)
    assert not closed.diagnostics


@pytest.mark.asyncio
async def test_columns_are_utf16_code_units_after_emoji(client: RecordingClient, tmp_path: Path):
    text = FLOW.replace("return await tick(label)", 'return "🎉🎉" + await tick("🎉" + label)')
    uri = open_document(client, tmp_path / "pkg" / "flow.py", text)  # the fixture made the project there
    (found,) = (await client.next_publish(uri)).diagnostics
    line = text.splitlines()[found.range.start.line]
    start, end = line.index("tick("), line.index(" + label)") + len(" + label)")
    assert (found.range.start.character, found.range.end.character) == (utf16(line[:start]), utf16(line[:end]))
    assert found.range.start.character == start + 2  # each emoji is two UTF-16 units and one character


@pytest.mark.asyncio
async def test_quick_fix_adds_a_noqa_and_the_findings_go(client: RecordingClient, tmp_path: Path):
    nested = "return await tick(label) + await tick(label)"
    text = FLOW.replace("return await tick(label)", f"{nested}  # noqa: E501")
    uri = open_document(client, tmp_path / "pkg" / "flow.py", text)
    first, second = (await client.next_publish(uri)).diagnostics
    whole_line = types.Range(start=first.range.start, end=second.range.end)
    actions = await code_actions(client, uri, whole_line, first)
    (disable,) = [a for a in actions if a.title == "Disable STP001 for this line"]  # one for both findings
    assert disable.kind == types.CodeActionKind.QuickFix and list(disable.diagnostics) == [first]
    (edit,) = disable.edit.changes[uri]
    edited = apply(text, edit)
    assert f"{nested}  # noqa: E501, STP001\n" in edited
    replace_all(client, uri, 2, edited)
    assert not (await client.next_publish(uri)).diagnostics
    assert not await code_actions(client, uri, whole_line, first)  # nothing left to act on


@pytest.mark.asyncio
async def test_quick_fix_applies_a_rules_fix(client: RecordingClient, tmp_path: Path):
    flow = tmp_path / "pkg" / "flow.py"
    fixable = [d for d in lint_buffer(FLOW, str(flow)) if d.fix is not None]
    assert fixable, "STP001 attaches its (unsafe) fix to this finding"
    finding = fixable[0]
    uri = open_document(client, flow)
    published = (await client.next_publish(uri)).diagnostics
    (found,) = [d for d in published if d.code == finding.code and d.range.start.line == finding.line - 1]
    actions = await code_actions(client, uri, found.range, found)
    (action,) = [a for a in actions if a.title.startswith(finding.fix.title)]
    assert action.is_preferred == finding.fix.safe
    edited = FLOW
    for edit in sorted(action.edit.changes[uri], key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        edited = apply(edited, edit)
    replace_all(client, uri, 2, edited)
    after = (await client.next_publish(uri)).diagnostics
    assert not [d for d in after if d.code == finding.code and d.range.start.line == finding.line - 1]


def test_positions_count_utf16_units_of_the_line():
    lines = ['x = "🎉" + call(a)', ""]
    codec = PositionCodec()  # UTF-16, the protocol's default
    assert position(lines, 1, 11, codec) == types.Position(line=0, character=11)  # 'call' is character 10 (0-based)
    assert position(lines, 3, 1, codec) == types.Position(line=2, character=0)  # past the end: clamped


@pytest.mark.asyncio
async def test_bad_configuration_is_shown_once_not_crashed_on(client: RecordingClient, tmp_path: Path):
    project = tmp_path  # the fixture made the sample project there
    (project / "pyproject.toml").write_text("[tool.steplint]\nselekt = ['STP']\n")
    uri = open_document(client, project / "pkg" / "flow.py")
    assert not (await client.next_publish(uri)).diagnostics
    replace_all(client, uri, 2, FLOW + "\n")
    assert not (await client.next_publish(uri)).diagnostics
    shown = [m.message for m in client.messages]
    assert len(shown) == 1 and "selekt" in shown[0]



@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("x = call(a)\n", "x = call(a)  # noqa: STP001\n"),
        ("x = call(a)   \n", "x = call(a)  # noqa: STP001\n"),
        ("x = call(a)  # noqa: E501\n", "x = call(a)  # noqa: E501, STP001\n"),
        ("x = call(a)  # NOQA:E501,W291  # why\n", "x = call(a)  # NOQA:E501,W291, STP001  # why\n"),
        ("x = call(a)  # type: ignore\n", "x = call(a)  # type: ignore  # noqa: STP001\n"),
        ('x = "🎉" + call(a)\n', 'x = "🎉" + call(a)  # noqa: STP001\n'),
        ("x = call(a, '#')\n", "x = call(a, '#')  # noqa: STP001\n"),
    ],
)
def test_noqa_edit(source, expected):
    edit = noqa_edit(source, 1, "STP001")
    line = source.splitlines()[0]
    assert line[: edit.column - 1] + edit.replacement + line[edit.end_column - 1 :] + "\n" == expected


@pytest.mark.parametrize(
    "source",
    [
        'x = call("""\nmore""")\n',  # the first line ends inside a string
        "x = call(a) + \\\n    b\n",  # a backslash continuation
        "x = call(a)  # noqa\n",  # already silences every code
    ],
)
def test_noqa_edit_where_no_comment_can_go(source):
    assert noqa_edit(source, 1, "STP001") is None


def test_lsp_without_pygls_says_how_to_install_it():
    without_pygls = "import sys; sys.modules['pygls'] = None; sys.argv[1:] = ['lsp']; from steplint.frontends.cli import main; main()"
    done = subprocess.run([sys.executable, "-c", without_pygls], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == "steplint: error: the language server needs pygls: pip install 'steplint[lsp]'"


def test_readme_editor_snippets_start_the_tested_command():
    vscode = json.loads(snippet("Editors", "json"))
    assert [vscode["glspc.server.command"], *vscode["glspc.server.commandArguments"]] == [HELIX["command"], *HELIX["args"]]
    assert "python" in vscode["glspc.server.languageId"]
    lua = snippet("Editors", "lua")
    (cmd,) = re.findall(r"cmd = \{([^}]*)\}", lua)
    assert re.findall(r'"([^"]+)"', cmd) == [HELIX["command"], *HELIX["args"]]
    assert HELIX["command"] == "steplint" and HELIX["args"] == ["lsp"]
