"""The application's steps."""
from agent_framework import step


@step
async def translate(text: str) -> str:
    return "translated:" + text


@step
async def highlight(code: str) -> str:
    return "highlighted:" + code


@step
async def lookup_name(user: str) -> str:
    return "name-of:" + user


@step
async def shorten_url(url: str) -> str:
    return "short:" + url


@step
async def sanitize(html: str) -> str:
    return "sanitized:" + html
