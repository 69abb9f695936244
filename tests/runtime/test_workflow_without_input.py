"""STP044's ground truth on the installed agent-framework-core: a workflow with no input can never start.

``EXAMPLE`` is the rule's doc example (tests/test_doc_example_truths.py checks
they are the same text and that the linter reports it). Run with no message,
``run()`` refuses; run with one, the body refuses to receive it. Needs only
agent-framework-core and pytest.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore")

EXAMPLE = '''
from agent_framework import RunContext, workflow


@workflow
async def nightly(ctx: RunContext) -> str:
    return "done"
'''


def _new_instance() -> Any:
    namespace: dict[str, Any] = {"__name__": "stp044_example"}
    exec(compile(EXAMPLE, "stp044_example.py", "exec"), namespace)
    nightly = namespace["nightly"]
    return nightly.build() if hasattr(nightly, "build") else nightly


def test_run_without_a_message_raises():
    with pytest.raises(ValueError, match="Must provide at least one of"):
        asyncio.run(_new_instance().run())


def test_run_with_a_message_raises():
    with pytest.raises(ValueError, match="no non-RunContext parameter to receive a message"):
        asyncio.run(_new_instance().run("go"))
