"""Filters applied in sequence: "upper|trim|translate" split on "|". A filter may be async."""
import inspect
from typing import Any, Callable, Mapping

from r10a_templates import steps


async def translate_filter(value: str) -> str:
    return await steps.translate(value)


async def link_filter(value: str) -> str:
    return "<a>" + value + "</a>"


FILTERS: dict[str, Callable[[str], Any]] = {
    "upper": str.upper,
    "lower": str.lower,
    "trim": str.strip,
    "title": str.title,
    "translate": translate_filter,
    "link": link_filter,
}


async def apply_filters(value: str, spec: str, extra: Mapping[str, Callable[[str], Any]] | None = None) -> str:
    table = {**FILTERS, **(extra or {})}
    for name in filter(None, (part.strip() for part in spec.split("|"))):
        value = table[name](value)
        if inspect.isawaitable(value):
            value = await value
    return value
