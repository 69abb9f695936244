"""Renderers picked by the template name's suffix (pathlib.PurePath(name).suffix)."""
import html
from pathlib import PurePath
from string import Template
from typing import Any, Awaitable, Callable, Mapping

from r10a_templates import steps

Renderer = Callable[[str, Mapping[str, Any]], Awaitable[str]]


async def render_text(source: str, context: Mapping[str, Any]) -> str:
    return Template(source).safe_substitute(context)


async def render_format(source: str, context: Mapping[str, Any]) -> str:
    return source.format(**context)


async def render_markdown(source: str, context: Mapping[str, Any]) -> str:
    body = Template(source).substitute(context)
    return await steps.highlight(body)


async def render_html(source: str, context: Mapping[str, Any]) -> str:
    escaped = {key: html.escape(str(value)) for key, value in context.items()}
    return Template(source).substitute(escaped)


RENDERERS: dict[str, Renderer] = {
    ".txt": render_text,
    ".fmt": render_format,
    ".md": render_markdown,
    ".html": render_html,
}


def renderer_for(name: str, default: Renderer = render_text) -> Renderer:
    return RENDERERS.get(PurePath(name).suffix.lower(), default)


class SuffixDispatcher:
    """Dispatches to `render_<suffix>` methods found with getattr."""

    async def render_txt(self, source: str, context: Mapping[str, Any]) -> str:
        return Template(source).safe_substitute(context)

    async def render_htm(self, source: str, context: Mapping[str, Any]) -> str:
        raw = Template(source).safe_substitute(context)
        return await steps.sanitize(raw)

    async def render(self, name: str, source: str, context: Mapping[str, Any]) -> str:
        method = getattr(self, "render_" + PurePath(name).suffix.lstrip("."), self.render_txt)
        return await method(source, context)
