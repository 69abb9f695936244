"""Star imports against names defined around them (no __all__: underscore names are not imported)."""
from .steps import plain

_hidden = plain


async def exported(label: str) -> str:
    return "before:" + label


from .registry import *  # noqa: E402, F401, F403  exported becomes the step; _hidden stays plain


async def fallback(label: str) -> str:  # defined after the star import: replaces registry's fallback
    return await plain(label)
