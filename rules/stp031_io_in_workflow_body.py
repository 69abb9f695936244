from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Iterator

from steplint.analysis.graph_pins import PIN_WORKFLOW_BODY
from steplint.analysis.program import Analysis
from steplint.analysis.workflow_body import BodyCall, body_calls_reaching
from steplint.core.diagnostics import Diagnostic
from steplint.core.summary import ModuleSummary
from steplint.rules.base import NONDETERMINISM, Rule
from steplint.rules.known_limits import NEVER_RESUMES

# The standard library's I/O, by full name (a method of what a call made is written ``pathlib.Path().write_text``).
_STDLIB_IO = frozenset({
    "builtins.open", "io.open", "os.system", "os.popen", "os.remove", "os.unlink", "os.rename", "os.replace",
    "os.makedirs", "os.mkdir", "os.rmdir", "os.removedirs", "os.truncate", "os.startfile", "os.kill",
    "asyncio.open_connection", "asyncio.open_unix_connection", "asyncio.start_server",
    "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "subprocess.Popen",
    "json.dump", "json.load", "pickle.dump", "pickle.load", "webbrowser.open",
    "os.open", "os.fdopen", "tempfile.mkstemp", "tempfile.mkdtemp", "tempfile.NamedTemporaryFile",
    "tempfile.TemporaryFile", "tempfile.SpooledTemporaryFile", "tempfile.TemporaryDirectory",
})
# Every function of these modules, and every method of what they make, talks to a file, a process or the network.
_STDLIB_IO_MODULES = (
    "socket", "subprocess", "urllib.request", "http.client", "smtplib", "ftplib", "shutil", "sqlite3",
    "poplib", "imaplib",
)
_STDLIB_IO_PREFIXES = ("os.exec", "os.spawn", "os.posix_spawn")  # execv, spawnlp, posix_spawnp...
_PATH_IO = frozenset({
    "read_text", "read_bytes", "write_text", "write_bytes", "open", "unlink", "mkdir", "touch", "rename",
    "replace", "rmdir", "symlink_to", "hardlink_to", "chmod", "iterdir", "glob", "rglob",
})
#: ``[tool.steplint] io-functions`` unless it is set: globs over full dotted names of library calls that do I/O.
DEFAULT_IO_FUNCTIONS = (
    "requests.*", "httpx.*", "aiohttp.*", "urllib3.*", "psycopg.*", "psycopg2.*", "asyncpg.*", "aiosqlite.*",
    "pymysql.*", "aiomysql.*", "pymongo.*", "motor.*", "redis.*", "boto3.*", "aioboto3.*", "azure.*",
    "google.cloud.*", "openai.*", "anthropic.*",
    "agent_framework.*().run", "agent_framework.*().run_stream", "agent_framework.*().get_response",
    "agent_framework.*().get_streaming_response",
)


def _last_name(name: str) -> str:
    return name.rsplit(".", 1)[-1].replace("()", "")


def _receiver(name: str) -> str | None:
    """``builtins.open`` for ``builtins.open().write``: the call that made the object a method is called on."""
    head, made, _ = name.rpartition("().")
    return head if made else None


def _io_by_name(name: str, libraries: tuple[str, ...]) -> bool:
    if name in _STDLIB_IO or name.startswith(_STDLIB_IO_PREFIXES):
        return True
    if any(name == module or name.startswith(module + ".") for module in _STDLIB_IO_MODULES):
        return True
    if name.startswith("pathlib.") and _last_name(name) in _PATH_IO:
        return True
    # A class a library defines makes a client or a request object, and ``get_container_client()``,
    # ``boto3.client("s3")`` make clients: only calling the clients' other methods talks to anything.
    last = _last_name(name)
    if last[:1].isupper() or last == "client" or last.endswith("_client"):
        return False
    return any(fnmatchcase(name, pattern) for pattern in libraries)


def does_io(name: str, libraries: tuple[str, ...]) -> bool:
    """Whether calling the outside function ``name`` does I/O, unless the call that made its receiver did (then that
    call is the one reported: ``open(p).write(x)`` is one file write)."""
    if "<" in name or not _io_by_name(name, libraries):
        return False
    receiver = _receiver(name)
    return receiver is None or not _io_by_name(receiver, libraries)


class IoInWorkflowBody(Rule):
    """
    ## What it does
    Finds a call in a workflow's body, outside any step, that does I/O:
    the standard library's files (`open`, `Path.write_text` and the other
    `pathlib` reads and writes, `json.dump`, `shutil.*`, `os.remove`,
    `tempfile`'s files and folders, `os.fdopen`...),
    processes (`subprocess.*`, `os.system`), sockets and HTTP
    (`socket.*`, `urllib.request.*`, `http.client.*`, `smtplib.*`...), and
    the library calls that `io-functions` in `[tool.steplint]` lists
    (globs over full dotted names; by default HTTP clients such as
    `requests.*` and `httpx.*`, database drivers, cloud SDKs such as
    `azure.*` and `boto3.*`, `openai.*`, and running an Agent Framework
    agent, `agent_framework.*().run`). Making a library's client (a class,
    `httpx.AsyncClient()`, or a method named `client` or `*_client`, such
    as `boto3.client("s3")` and `get_container_client()`) is not I/O;
    calling the client's other methods is.

    It is reported at the call in the workflow body: the call itself, or
    the call of a plain helper (of the analyzed code) that makes one,
    directly or through other plain helpers; the message shows the chain
    `workflow -> helper -> requests.post`. Steps are not followed: a step's
    result is replayed, so I/O inside a step is the remedy. A lambda counts
    where the body calls it or hands it to code that does
    (`asyncio.to_thread(lambda: ...)`), not where it is only written. Writing
    to stdout or a logger is not reported.

    A read (a file read, an HTTP GET, a query) is reported too: it is
    repeated on every resume like a write, and what it reads then may
    differ from what the first run read, which sends other arguments to
    the steps after it.

    ## Why is this bad?
    On resume (from a checkpoint, or after human-in-the-loop input) MAF runs
    the workflow body again from the top and returns cached step results.
    Code outside steps really runs again: a database write, an HTTP call, a
    file write or a tool call is made once more on every resume, on every
    release, without a word.

    ## Example
    ```python
    import requests
    from agent_framework import step, workflow


    @step
    async def summarize(text: str) -> str:
        return text[:100]


    @workflow
    async def pipeline(text: str) -> str:
        summary = await summarize(text)
        requests.post("https://example.com/audit", json={"summary": summary})
        return summary
    ```

    ## Use instead
    Do the I/O inside a step, whose result is cached and replayed:
    ```python
    import requests
    from agent_framework import step, workflow


    @step
    async def summarize(text: str) -> str:
        return text[:100]


    @step
    async def audit(summary: str) -> int:
        return requests.post("https://example.com/audit", json={"summary": summary}).status_code


    @workflow
    async def pipeline(text: str) -> str:
        summary = await summarize(text)
        await audit(summary)
        return summary
    ```

    ## References
    - MAF replays the workflow body on resume (`FunctionalWorkflow`): https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    """

    code = "STP031"
    name = "io-in-workflow-body"
    summary = "a workflow body does I/O (files, processes, network, io-functions) outside a step"
    points_at = "the call expression"
    family = NONDETERMINISM
    known_limits = (NEVER_RESUMES,)
    graph_pin = PIN_WORKFLOW_BODY
    INVALID = (
        """
import subprocess
from agent_framework import workflow

def build_index(path: str) -> None:
    subprocess.run(["make", "index", path])

@workflow
async def pipeline(path: str) -> str:
    build_index(path)  # expect: STP031
    return path
""",
    )
    VALID = (
        """
import subprocess
from agent_framework import step, workflow

@step
async def build_index(path: str) -> int:
    return subprocess.run(["make", "index", path]).returncode

@workflow
async def pipeline(path: str) -> int:
    return await build_index(path)
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        libraries = DEFAULT_IO_FUNCTIONS if analysis.io_functions is None else analysis.io_functions
        for found in body_calls_reaching(analysis, module, lambda name: does_io(name, libraries)):
            yield analysis.diagnostic(found.workflow.module, found.call.span, IoInWorkflowBody, _message(found))


def _message(found: BodyCall) -> str:
    reached = found.reached.removeprefix("builtins.")
    what = f"calls {reached}()" if not found.helpers else (
        f"calls '{found.helpers[0]}', which reaches {reached}() ({found.path.replace('builtins.', '')})")
    return (
        f"workflow '{found.workflow.display}' {what} outside any step: on resume MAF runs the workflow body again "
        f"from the top, so this I/O is done again on every resume; do it inside a step, whose result is replayed"
    )
