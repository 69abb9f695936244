"""STP042's ground truth on the installed agent-framework-core: steps on methods.

MAF's ``StepWrapper`` is not a descriptor, so ``obj.method`` is the wrapper
itself and ``self`` is never passed: an instance-method step raises TypeError
on every call through an instance, inside a workflow and outside one. ``@step``
above ``@classmethod``/``@staticmethod`` raises TypeError when the class is
created. ``@staticmethod`` or ``@classmethod`` above ``@step`` works (the
classmethod form receives the class as its first argument).

``FORMS`` is also what ``tests/test_step_on_method_truth.py`` lints: STP042
must report exactly the forms that fail here. If a release makes
``StepWrapper`` a descriptor, these tests fail on it, and the rule must
become version-aware. Needs only agent-framework-core and pytest.
"""

from __future__ import annotations

import asyncio
from importlib import metadata
from typing import Any

import agent_framework as maf
import pytest

MAF_VERSION = metadata.version("agent-framework-core")

WORKS = "works"
CALL_RAISES = "every call through an instance raises TypeError"
CLASS_RAISES = "TypeError when the class is created"

# Each form defines ``Holder.run``, a step taking ``text``: its decorators (top first), parameters, outcome.
FORMS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "instance-method": (("@step",), "self, text: str", CALL_RAISES),
    "named-instance-method": (('@step(name="holder-run")',), "self, text: str", CALL_RAISES),
    "step-above-classmethod": (("@step", "@classmethod"), "cls, text: str", CLASS_RAISES),
    "step-above-staticmethod": (("@step", "@staticmethod"), "text: str", CLASS_RAISES),
    "classmethod-above-step": (("@classmethod", "@step"), "cls, text: str", WORKS),
    "staticmethod-above-step": (("@staticmethod", "@step"), "text: str", WORKS),
    "no-positional-parameter": (("@step",), "*, text: str", WORKS),
}


def source_of(form: str) -> str:
    decorators, parameters, _ = FORMS[form]
    lines = [
        "class Holder:",
        *(f"    {decorator}" for decorator in decorators),
        f"    async def run({parameters}) -> str:",
        '        return "ran:" + text',
    ]
    return "\n".join(lines) + "\n"


def outcome_of(form: str) -> str:
    return FORMS[form][2]


# 1.18 and 1.19 fail in the function call, 1.20+ when binding the fingerprint arguments.
MISSING_ARGUMENT = r"missing (1 required positional argument|a required argument)"


def define(form: str) -> type:
    namespace: dict[str, Any] = {"step": maf.step}
    exec(source_of(form), namespace)  # noqa: S102 - the forms above, nothing else
    return namespace["Holder"]


def forms(outcome: str) -> list[str]:
    return [form for form in FORMS if outcome_of(form) == outcome]


def call_form(form: str, holder: Any) -> Any:
    """How code calls a method: through an instance (or the class), ``text`` by keyword when it must be."""
    return holder.run(text="x") if form == "no-positional-parameter" else holder.run("x")


def in_workflow(form: str, holder: Any) -> Any:
    @maf.workflow(name=f"step-on-method-{form}")
    async def body(text: str) -> str:
        return await (holder.run(text=text) if form == "no-positional-parameter" else holder.run(text))

    return asyncio.run(body.build(checkpoint_storage=maf.InMemoryCheckpointStorage()).run("x"))


def test_step_wrapper_is_not_a_descriptor():
    """The root cause: attribute access on an instance cannot bind anything."""
    assert not hasattr(maf.StepWrapper, "__get__"), f"StepWrapper became a descriptor on {MAF_VERSION}: revisit STP042"


@pytest.mark.parametrize("form", forms(CALL_RAISES))
def test_instance_method_step_raises_on_call_outside_a_workflow(form: str) -> None:
    holder = define(form)()
    with pytest.raises(TypeError, match=MISSING_ARGUMENT):
        asyncio.run(call_form(form, holder))


@pytest.mark.parametrize("form", forms(CALL_RAISES))
def test_instance_method_step_raises_on_call_inside_a_workflow(form: str) -> None:
    holder = define(form)()
    with pytest.raises(TypeError, match=MISSING_ARGUMENT):
        in_workflow(form, holder)


@pytest.mark.parametrize("form", forms(CALL_RAISES))
def test_instance_method_step_works_only_with_an_explicit_receiver(form: str) -> None:
    """``Holder.run(obj, x)`` passes the receiver by hand: the one call shape that works."""
    cls = define(form)
    assert asyncio.run(cls.run(cls(), "x")) == "ran:x"


@pytest.mark.parametrize("form", forms(CLASS_RAISES))
def test_step_above_a_descriptor_raises_when_the_class_is_created(form: str) -> None:
    with pytest.raises(TypeError, match="not a coroutine function"):
        define(form)


@pytest.mark.parametrize("form", forms(WORKS))
def test_working_forms_run_outside_a_workflow(form: str) -> None:
    cls = define(form)
    assert asyncio.run(call_form(form, cls())) == "ran:x"
    assert asyncio.run(call_form(form, cls)) == "ran:x"


@pytest.mark.parametrize("form", forms(WORKS))
def test_working_forms_run_inside_a_workflow(form: str) -> None:
    result = in_workflow(form, define(form)())
    assert result.get_outputs() == ["ran:x"]


def test_every_form_has_a_known_outcome() -> None:
    assert {outcome_of(form) for form in FORMS} == {WORKS, CALL_RAISES, CLASS_RAISES}
