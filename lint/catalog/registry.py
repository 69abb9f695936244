"""Every rule steplint has, found in the ``steplint.rules`` package: a rule is one module there.

A module named ``stpNNN_<name>.py`` defines one ``Rule`` subclass with a
``code``; nothing lists them by hand. ``tests/test_registry.py`` fails unless
every rule is found, documented, generated into the docs and exercised by a
fixture.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import lru_cache

from steplint import rules as rules_package
from steplint.rules.base import Rule


@lru_cache(maxsize=1)
def all_rules() -> tuple[type[Rule], ...]:
    """The rules in code order."""
    found: list[type[Rule]] = []
    for info in pkgutil.iter_modules(rules_package.__path__):
        if not info.name.startswith("stp"):
            continue
        module = importlib.import_module(f"{rules_package.__name__}.{info.name}")
        defined = [
            value for value in vars(module).values()
            if inspect.isclass(value) and issubclass(value, Rule) and value.__module__ == module.__name__
            and "code" in vars(value)
        ]
        if len(defined) != 1:
            raise RuntimeError(f"{module.__name__} must define exactly one rule, not {len(defined)}")
        found.append(defined[0])
    return tuple(sorted(found, key=lambda rule: rule.code))


def rule_for(code_or_name: str) -> type[Rule] | None:
    """The rule with this code (``STP001``, any case) or kebab-case name (``step-calls-step``)."""
    wanted = code_or_name.strip()
    for rule in all_rules():
        if rule.code == wanted.upper() or rule.name == wanted.lower():
            return rule
    return None


def all_codes() -> list[str]:
    return [rule.code for rule in all_rules()]


@lru_cache(maxsize=1)
def always_reported_codes() -> frozenset[str]:
    """The codes no selection leaves out and nothing silences (``Rule.always_reported``)."""
    return frozenset(rule.code for rule in all_rules() if rule.always_reported)
