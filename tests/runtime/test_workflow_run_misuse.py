"""STP043's ground truth on the installed agent-framework-core: how a workflow may be run.

``EXAMPLE`` is the rule's doc example, read from its docstring (tests/test_doc_example_truths.py
checks the linter reports it): run here, it
must fail exactly on the releases the rule reports it for (1.14 and newer,
where ``workflow`` returns a definition with only ``build()``), and run on the
older ones. Calling a definition and ``run(responses=...)`` on a new instance
fail on every release. Needs only agent-framework-core and pytest.
"""

from __future__ import annotations

import asyncio
from typing import Any

import fixture_truths
import pytest
from shim_support import MAF_VERSION_TUPLE

pytestmark = pytest.mark.filterwarnings("ignore")

DEFINITION_RELEASE = (1, 14, 0)  # as rules/stp043_workflow_run_misuse.py says
HAS_DEFINITION = MAF_VERSION_TUPLE >= DEFINITION_RELEASE

EXAMPLE = fixture_truths.rule_example("STP043")  # the rule docstring's ## Example, read, not copied


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


# The errors STP043's three stories end in (rules/stp043_workflow_run_misuse.py's messages name them).
NO_RUN, NOT_CALLABLE, NO_PENDING = "AttributeError: ", "TypeError: ", "do not correspond to any pending request"


@pytest.mark.skipif(not HAS_DEFINITION, reason="the fixture's flows.py calls build() at import, which 1.14 brought; "
                    "before it the doc example's test shows run() on the decorated function works")
def test_the_fixtures_reported_runs_fail_as_the_rule_says_and_its_near_misses_do_not():
    """Each statement of fixtures/stp043_run_misuse/app/runner.py run alone on the installed release: from 1.14 a
    reported one raises the error of its story (no run() on a definition, a definition is not callable, responses=
    on a new instance); a near miss never raises those of the definition."""
    outcomes = fixture_truths.stp043_outcomes()
    statements = fixture_truths.stp043_statements()
    reported = fixture_truths.expected_lines(fixture_truths.STP043_RUNNER, "STP043")
    in_methods = {number for number, text in enumerate(fixture_truths.STP043_RUNNER.read_text().splitlines(), 1)
                  if "self._" in text and ".run(text)" in text or "cls._flow.run(" in text}  # run by the test below
    assert reported - in_methods <= set(statements) and len(statements) > len(reported), (reported, statements)
    reported -= in_methods
    for line, outcome in outcomes.items():
        statement = statements[line]
        if line not in reported:
            assert not outcome.startswith((NO_RUN, NOT_CALLABLE)), (statement, outcome)
        elif "responses=" in statement:
            assert NO_PENDING in outcome, (statement, outcome)
        elif ".as_agent(" in statement:
            assert outcome.startswith(NO_RUN) and "'as_agent'" in outcome, (statement, outcome)
        elif ".run(" in statement:
            assert outcome.startswith(NO_RUN) and "'run'" in outcome, (statement, outcome)
        else:
            assert outcome.startswith(NOT_CALLABLE) and "not callable" in outcome, (statement, outcome)


@pytest.mark.skipif(not HAS_DEFINITION, reason="the fixture's flows.py calls build() at import, which 1.14 brought")
def test_a_runner_method_fails_where_the_rule_reports_it_and_a_rebuilt_attribute_runs():
    """fixtures/stp043_run_misuse/app/runner.py's ``Runner.answer`` (and ``ThreadedRunner.answer``'s own coroutine)
    reads the definition its ``__init__`` kept (reported in the method); ``Rebuilt`` rebinds it to a built workflow in another method (not reported: the run depends on the
    calls made before, and once ``ready()`` ran it is right)."""
    runner = fixture_truths.stp043_module()
    reported = fixture_truths.expected_lines(fixture_truths.STP043_RUNNER, "STP043")
    source = fixture_truths.STP043_RUNNER.read_text().splitlines()
    answers = [number for number, text in enumerate(source, 1) if "self._" in text and ".run(text)" in text]
    # Runner, ThreadedRunner: reported; Keeper, Configured, SetRunner, Rebuilt: not
    assert len(answers) == 6 and [number in reported for number in answers] == [True, True, False, False, False,
                                                                                   False], (answers, reported)
    with pytest.raises(AttributeError, match="'run'"):
        asyncio.run(runner.Runner().answer("hi"))
    with pytest.raises(AttributeError, match="'run'"):
        runner.ThreadedRunner().answer("hi")
    rebuilt = runner.Rebuilt()
    rebuilt.ready()
    assert asyncio.run(rebuilt.answer("hi")) == "HI"
    # not reported: code beside the class gives the attribute a built workflow, and those runs complete
    assert asyncio.run(runner.BuiltKeeper().answer("hi")) == "HI"
    assert asyncio.run(runner.BuiltShared.answer("hi")) == "HI"
    assert asyncio.run(runner.configure(runner.Configured()).answer("hi")) == "HI"
    set_runner = runner.SetRunner()
    set_runner.use(runner.pipeline.build())
    assert asyncio.run(set_runner.answer("hi")) == "HI"
