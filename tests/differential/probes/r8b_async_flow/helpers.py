"""Plain coroutines, async generators and context managers used by the flow."""
import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from r8b_async_flow import steps


async def normalize(text: str) -> str:
    await asyncio.sleep(0)
    return text.strip().lower()


async def enrich_part(part: str) -> str:
    cleaned = await normalize(part)
    return await steps.enrich(cleaned)


async def validated_enrich(part: str) -> str:
    if not part.isalpha():
        raise ValueError(f"bad part {part!r}")
    return await steps.enrich(part)


async def cached_or_fetch(key: str, cache: dict[str, str]) -> str:
    if key in cache:
        return cache[key]
    return await steps.fetch_remote(key)


async def from_cache(key: str) -> str:
    return "cache:" + key


async def from_backend(key: str) -> str:
    return await steps.fetch_remote(key)


async def split_parts(text: str) -> AsyncIterator[str]:
    for part in text.split(","):
        await asyncio.sleep(0)
        yield part.strip()


async def stream_enriched(parts: list[str], *, enrich: bool = True) -> AsyncIterator[str]:
    for part in parts:
        if enrich:
            yield await steps.enrich(part)
        else:
            yield part


async def _echo(text: str) -> str:
    return "echo:" + text


@asynccontextmanager
async def session(text: str, *, dry_run: bool = False) -> AsyncIterator[Callable[[str], Awaitable[str]]]:
    log: list[str] = [text]

    async def call_remote(payload: str) -> str:
        log.append(payload)
        return await steps.fetch_remote(payload)

    try:
        yield _echo if dry_run else call_remote
    finally:
        log.clear()


async def write_audit(text: str) -> None:
    await steps.audit(text)


async def note(text: str, sink: list[str]) -> None:
    sink.append(text)
