"""Which rules run: ``select``/``extend-select``/``ignore``, by code prefix.

A selector that names no rule is an error wherever it is written (``ignore``
and ``per-file-ignores`` too): a typo there would otherwise silently keep a
rule on.
"""

from __future__ import annotations

from steplint.config.settings import ConfigError, Settings
from steplint.rules.base import Rule
from steplint.catalog.registry import all_rules, always_reported_codes


def _matches(selector: str, code: str) -> bool:
    selector = selector.strip().upper()
    return selector in ("ALL", "*") or code.startswith(selector)


def check_selectors(settings: Settings, source: str = "") -> None:
    """Raise ConfigError for a selector that names no rule; ``source`` (a config file) prefixes the message."""
    named = {
        "select": settings.select or (),
        "extend-select": settings.extend_select,
        "ignore": settings.ignore,
        "unfixable": settings.unfixable,
        **{f'per-file-ignores "{pattern}"': codes for pattern, codes in settings.per_file_ignores.items()},
    }
    for where, selectors in named.items():
        for selector in selectors:
            if not any(_matches(selector, rule.code) for rule in all_rules()):
                prefix = f"{source}: " if source else ""
                raise ConfigError(f"{prefix}unknown rule selector '{selector}' in {where} (see 'steplint rules')")


def selected_rules(settings: Settings) -> list[type[Rule]]:
    check_selectors(settings)  # the command line's, and settings made in code
    if settings.select is None:
        chosen = {rule.code for rule in all_rules() if rule.default_enabled}
    else:
        chosen = {rule.code for rule in all_rules() if any(_matches(s, rule.code) for s in settings.select)}
    chosen |= {rule.code for rule in all_rules() if any(_matches(s, rule.code) for s in settings.extend_select)}
    chosen -= {rule.code for rule in all_rules() if any(_matches(s, rule.code) for s in settings.ignore)}
    chosen |= always_reported_codes()
    return [rule for rule in all_rules() if rule.code in chosen]
