"""STP043's ground truth on the installed agent-framework-core: how a workflow may be run.

``EXAMPLE`` is the rule's doc example (tests/test_doc_example_truths.py
checks they are the same text and that the linter reports it): run here, it
must fail exactly on the releases the rule reports it for (1.14 and newer,
where ``workflow`` returns a definition with only ``build()``), and run on the
older ones. Calling a definition and ``run(responses=...)`` on a new instance
fail on every release. Needs only agent-framework-core and pytest.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from shim_support import MAF_VERSION_TUPLE

pytestmark = pytest.mark.filterwarnings("ignore")

DEFINITION_RELEASE = (1, 14, 0)  # as rules/stp043_workflow_run_misuse.py says
HAS_DEFINITION = MAF_VERSION_TUPLE >= DEFINITION_RELEASE

EXAMPLE = '''
from agent_framework import step, workflow


@step
async def shout(text: str) -> str:
    return text.upper()


@workflow
async def pipeline(text: str) -> str:
    return await shout(text)


async def main() -> str:
    result = await pipeline.run("hi")
    return result.get_outputs()[0]
'''


def _example() -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "stp043_example"}
    exec(compile(EXAMPLE, "stp043_example.py", "exec"), namespace)
    return namespace


def _new_instance(definition: Any) -> Any:
    return definition.build() if HAS_DEFINITION else definition


def test_the_doc_example_fails_exactly_where_the_rule_reports_it():
    example = _example()
    if HAS_DEFINITION:
        with pytest.raises(AttributeError):
            asyncio.run(example["main"]())
        assert asyncio.run(_new_instance(example["pipeline"]).run("hi")).get_outputs() == ["HI"]
    else:
        assert asyncio.run(example["main"]()) == "HI"


def test_a_definition_is_never_callable():
    pipeline = _example()["pipeline"]
    with pytest.raises(TypeError, match="not callable"):
        pipeline("hi")


def test_responses_on_a_new_instance_raise():
    pipeline = _example()["pipeline"]
    with pytest.raises(ValueError, match="do not correspond to any pending request"):
        asyncio.run(_new_instance(pipeline).run(responses={"r1": "yes"}))
