"""Which rules run: ``select``/``extend-select``/``ignore``, by code prefix."""

from __future__ import annotations

from steplint.config import ConfigError, Settings
from steplint.rules.base import Rule
from steplint.rules.registry import RULES


def _matches(selector: str, code: str) -> bool:
    selector = selector.strip().upper()
    return selector == "ALL" or code.startswith(selector)


def selected_rules(settings: Settings) -> list[type[Rule]]:
    for selector in (*(settings.select or ()), *settings.extend_select):
        if not any(_matches(selector, rule.code) for rule in RULES):
            raise ConfigError(f"unknown rule selector '{selector}' (see 'steplint rules')")
    if settings.select is None:
        chosen = {rule.code for rule in RULES if rule.default_enabled}
    else:
        chosen = {rule.code for rule in RULES if any(_matches(s, rule.code) for s in settings.select)}
    chosen |= {rule.code for rule in RULES if any(_matches(s, rule.code) for s in settings.extend_select)}
    chosen -= {rule.code for rule in RULES if any(_matches(s, rule.code) for s in settings.ignore)}
    return [rule for rule in RULES if rule.code in chosen]
