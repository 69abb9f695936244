"""The language server's features beyond diagnostics, end to end over stdio: hover, source.fixAll.steplint,
reload on watched-file changes, initialization options, and imported modules read from unsaved buffers."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from integrations import FLOW, STEPS, make_project
from lsp_client import (
    SERVER_COMMAND, RecordingClient, apply, code_actions, make_client, open_document, replace_all, watched_files_changed,
)
from lsprotocol import types
from pytest_lsp import ClientServerConfig

from steplint.catalog.registry import rule_for

WATCHING = types.ClientCapabilities(
    workspace=types.WorkspaceClientCapabilities(
        did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)
    )
)


def make_recording_client() -> RecordingClient:
    client = make_client()
    client.registrations = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)

    return client


async def _start(client: RecordingClient, root: Path, options: object = None) -> None:
    make_project(root)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=WATCHING,
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="sample")],
            initialization_options=options,
        )
    )


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_recording_client))
async def client(lsp_client: RecordingClient, tmp_path: Path):
    await _start(lsp_client, tmp_path)
    yield
    await lsp_client.shutdown_session()
    assert lsp_client._server.returncode == 0


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_recording_client))
async def configured(lsp_client: RecordingClient, tmp_path: Path):
    await _start(lsp_client, tmp_path, {"severity": {"STP0": "hint", "STP001": "information"}, "targetVersion": "1.19",
                                        "bogus": 1})
    yield
    await lsp_client.shutdown_session()


async def hover(client: RecordingClient, uri: str, line: int, character: int) -> types.Hover | None:
    return await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character))
    )


@pytest.mark.asyncio
async def test_hover_on_a_finding_shows_its_rules_doc(client: RecordingClient, tmp_path: Path):
    uri = open_document(client, tmp_path / "pkg" / "flow.py")
    (found,) = (await client.next_publish(uri)).diagnostics
    shown = await hover(client, uri, found.range.start.line, found.range.start.character + 2)
    assert shown is not None and shown.contents.kind == types.MarkupKind.Markdown
    assert shown.contents.value.startswith("**STP001 step-calls-step** (error, on by default)")
    assert rule_for("STP001").doc() in shown.contents.value and rule_for("STP001").help_uri() in shown.contents.value
    assert await hover(client, uri, 0, 0) is None  # nothing there


@pytest.mark.asyncio
async def test_hover_on_a_noqa_code_shows_that_rules_doc(client: RecordingClient, tmp_path: Path):
    text = FLOW.replace("return await tick(label)", "return await tick(label)  # noqa: STP001, STP030")
    uri = open_document(client, tmp_path / "pkg" / "flow.py", text)
    await client.next_publish(uri)
    line = text.splitlines().index("    return await tick(label)  # noqa: STP001, STP030")
    column = text.splitlines()[line].index("STP030") + 3
    shown = await hover(client, uri, line, column)
    assert shown is not None and shown.contents.value.startswith("**STP030 nondeterministic-workflow**")


@pytest.mark.asyncio
async def test_fix_all_applies_every_safe_fix_and_nothing_unsafe(client: RecordingClient, tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.steplint]\nignore = ["STP040"]\nextend-select = ["STP100"]\n')
    text = FLOW.replace("return await tick(label)", "return await tick(label) + await tick(label)  # noqa: STP002, E501")
    uri = open_document(client, tmp_path / "pkg" / "flow.py", text)
    published = (await client.next_publish(uri)).diagnostics
    assert sorted(d.code for d in published) == ["STP001", "STP001", "STP100"]
    for only in ([types.CodeActionKind.SourceFixAll], ["source.fixAll.steplint"], [types.CodeActionKind.Source]):
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
                context=types.CodeActionContext(diagnostics=[], only=only),
            )
        )
        (fix_all,) = actions
        assert fix_all.kind == "source.fixAll.steplint"
    (change,) = fix_all.edit.document_changes
    assert change.text_document.version == 1
    fixed = apply(text, change.edits[0])
    assert fixed == FLOW.replace("return await tick(label)", "return await tick(label) + await tick(label)  # noqa: E501")
    quick = await code_actions(client, uri, published[0].range, published[0])
    assert all(action.kind == types.CodeActionKind.QuickFix for action in quick if action.kind != "source.fixAll.steplint")
    replace_all(client, uri, 2, fixed)
    assert sorted(d.code for d in (await client.next_publish(uri)).diagnostics) == ["STP001", "STP001"]


@pytest.mark.asyncio
async def test_the_server_watches_pyproject_and_python_files(client: RecordingClient, tmp_path: Path):
    for _ in range(100):
        if client.registrations:
            break
        await asyncio.sleep(0.05)
    (registration,) = client.registrations
    assert registration.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
    patterns = [watcher["globPattern"] if isinstance(watcher, dict) else watcher.glob_pattern
                for watcher in (registration.register_options["watchers"] if isinstance(registration.register_options, dict)
                                else registration.register_options.watchers)]
    assert patterns == ["**/pyproject.toml", "**/*.py", "**/*.pyi"]


@pytest.mark.asyncio
async def test_a_pyproject_change_reloads_the_settings(client: RecordingClient, tmp_path: Path):
    uri = open_document(client, tmp_path / "pkg" / "flow.py")
    assert [d.code for d in (await client.next_publish(uri)).diagnostics] == ["STP001"]
    (tmp_path / "pyproject.toml").write_text('[tool.steplint]\nignore = ["STP040", "STP001"]\n')
    watched_files_changed(client, (tmp_path / "pyproject.toml", types.FileChangeType.Changed))
    assert not (await client.next_publish(uri)).diagnostics


@pytest.mark.asyncio
async def test_created_and_deleted_modules_are_seen_without_an_edit(client: RecordingClient, tmp_path: Path):
    text = FLOW.replace("from pkg.steps import tick", "from pkg.later import tick")
    uri = open_document(client, tmp_path / "pkg" / "flow.py", text)
    assert not (await client.next_publish(uri)).diagnostics  # pkg.later does not exist: tick is unknown
    later = tmp_path / "pkg" / "later.py"
    later.write_text(STEPS)
    watched_files_changed(client, (later, types.FileChangeType.Created))
    assert [d.code for d in (await client.next_publish(uri)).diagnostics] == ["STP001"]
    later.unlink()
    watched_files_changed(client, (later, types.FileChangeType.Deleted))
    assert not (await client.next_publish(uri)).diagnostics


@pytest.mark.asyncio
async def test_a_module_changed_on_disk_is_read_again(client: RecordingClient, tmp_path: Path):
    uri = open_document(client, tmp_path / "pkg" / "flow.py")
    assert [d.code for d in (await client.next_publish(uri)).diagnostics] == ["STP001"]
    steps = tmp_path / "pkg" / "steps.py"
    steps.write_text(STEPS.replace("@step\nasync def tick", "async def tick"))
    watched_files_changed(client, (steps, types.FileChangeType.Changed))
    assert not (await client.next_publish(uri)).diagnostics


@pytest.mark.asyncio
async def test_an_imported_modules_unsaved_buffer_is_what_counts(client: RecordingClient, tmp_path: Path):
    flow_uri = open_document(client, tmp_path / "pkg" / "flow.py")
    assert [d.code for d in (await client.next_publish(flow_uri)).diagnostics] == ["STP001"]
    steps = tmp_path / "pkg" / "steps.py"
    steps_uri = open_document(client, steps)
    await client.next_publish(steps_uri)
    # tick stops being a step in the editor, not on disk: flow.py is linted again against the buffer.
    replace_all(client, steps_uri, 2, STEPS.replace("@step\nasync def tick", "async def tick"))
    assert not (await client.next_publish(flow_uri)).diagnostics
    assert steps.read_text() == STEPS
    # Closed without saving: the file on disk counts again.
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=steps_uri)))
    assert [d.code for d in (await client.next_publish(flow_uri)).diagnostics] == ["STP001"]


@pytest.mark.asyncio
async def test_initialization_options_map_severities_and_choose_the_target_version(configured: RecordingClient, tmp_path: Path):
    uri = open_document(configured, tmp_path / "pkg" / "flow.py")
    (found,) = (await configured.next_publish(uri)).diagnostics
    assert found.code == "STP001" and found.severity == types.DiagnosticSeverity.Information  # the longest prefix
    assert "shifts the call-order key" in found.message  # checked as 1.19: every key is the call order
    steps_uri = open_document(configured, tmp_path / "pkg" / "steps.py")
    (inner,) = (await configured.next_publish(steps_uri)).diagnostics
    assert inner.severity == types.DiagnosticSeverity.Information
    assert [m.message for m in configured.messages] == [
        "steplint: unknown option 'bogus' (known: severity, targetVersion, targetPython)"
    ]


@pytest.mark.asyncio
async def test_configuration_changes_take_effect(client: RecordingClient, tmp_path: Path):
    uri = open_document(client, tmp_path / "pkg" / "flow.py")
    (before,) = (await client.next_publish(uri)).diagnostics
    assert before.severity == types.DiagnosticSeverity.Warning  # 1.23, fingerprintable arguments
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"steplint": {"severity": {"STP001": "hint"}, "targetVersion": "1.19"}})
    )
    (after,) = (await client.next_publish(uri)).diagnostics
    assert after.severity == types.DiagnosticSeverity.Hint and after.message != before.message


@pytest.mark.parametrize(
    "raw, problem",
    [
        ({"severity": {"STP001": "loud"}}, "option severity of STP001: 'loud' is not one of error, warning, information, hint"),
        ({"severity": "error"}, "option 'severity' must map rule codes to error, warning, information or hint"),
        ({"targetVersion": "1.1"}, "option targetVersion: "),
        ({"targetPython": "three"}, "option targetPython: not a Python version such as 3.11: 'three'"),
        ([], "initialization options must be an object, not list"),
    ],
)
def test_bad_options_are_named_and_left_out(raw, problem):
    from steplint.frontends.editor_session import EditorOptions

    options, problems = EditorOptions.parse(raw)
    assert len(problems) == 1 and problems[0].startswith(problem)
    assert options == EditorOptions()


def test_options_in_a_steplint_section_and_the_longest_prefix_wins():
    from steplint.frontends.editor_session import EditorOptions

    options, problems = EditorOptions.parse({"steplint": {"severity": {"stp0": "hint", "STP001": "Error"}}})
    assert problems == []
    assert [options.severity_for(code, "warning") for code in ("STP001", "STP010", "STP100")] == ["error", "hint", "warning"]


@pytest.mark.asyncio
async def test_a_new_init_py_is_seen_by_the_next_lint(client: RecordingClient, tmp_path: Path):
    """Which folders are packages is asked again on every lint: with app/__init__.py, 'app.steps' resolves
    from app's parent folder (which is no search root of its own). app/ holds a project file, so without
    the __init__.py no import from it looks further up (where app/ would be a namespace package)."""
    app = tmp_path / "vendor" / "app"
    app.mkdir(parents=True)
    (app / "steps.py").write_text(STEPS)
    (app / "setup.cfg").write_text("")
    text = FLOW.replace("from pkg.steps import tick", "from app.steps import tick")
    uri = open_document(client, app / "flow.py", text)
    assert not (await client.next_publish(uri)).diagnostics  # app is no package: 'app.steps' names nothing
    (app / "__init__.py").write_text("")
    replace_all(client, uri, 2, text + "\n")  # an edit, no watched-file event: the client may not send them
    assert [d.code for d in (await client.next_publish(uri)).diagnostics] == ["STP001"]
    (app / "__init__.py").unlink()
    watched_files_changed(client, (app / "__init__.py", types.FileChangeType.Deleted))
    assert not (await client.next_publish(uri)).diagnostics
