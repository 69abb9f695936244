"""Templates registered by name, each with optional filters run over the rendered output."""
from dataclasses import dataclass
from typing import Any, Mapping

from r10a_templates import filters, renderers


@dataclass
class Registered:
    source: str
    filters: str = ""


_TEMPLATES: dict[str, Registered] = {}


def register(name: str, source: str, *, filters: str = "") -> None:
    _TEMPLATES[name] = Registered(source, filters)


async def render(name: str, context: Mapping[str, Any]) -> str:
    entry = _TEMPLATES[name]
    output = await renderers.renderer_for(name)(entry.source, context)
    if entry.filters:
        output = await filters.apply_filters(output, entry.filters)
    return output


register("welcome.txt", "Hello $name, welcome to $site.", filters="trim|upper")
register("invoice.txt", "  Invoice $number for $name  ", filters="trim|translate")
register("release.en.md", "# Release $version")
register("release.md.txt", "Release $version")
register("digest.fmt", "{count} new items for {name}")
register("profile.html", "<p>$name</p>", filters="")
