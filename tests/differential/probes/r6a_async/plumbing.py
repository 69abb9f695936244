"""Steps and the async plumbing (context managers, iterators, retry and fan-out helpers) services use."""
import asyncio
import contextlib
import functools

from agent_framework import step


@step
async def begin(name: str) -> str:
    return "begin:" + name


@step
async def commit(name: str) -> str:
    return "commit:" + name


@step
async def fetch_page(cursor: str) -> str:
    return "page:" + cursor


@step
async def enrich(text: str) -> str:
    return "enrich:" + text


async def tokenize(text: str) -> str:
    return "tok:" + text


async def release(name: str) -> str:
    return "release:" + name


class Transaction:
    def __init__(self, name: str, opener=begin, closer=commit) -> None:  # noqa: ANN001
        self.name = name
        self.opener = opener
        self.closer = closer
        self.log: list = []

    async def __aenter__(self) -> "Transaction":
        self.log.append(await self.opener(self.name))
        return self

    async def __aexit__(self, *exc) -> None:  # noqa: ANN002
        self.log.append(await self.closer(self.name))


@contextlib.asynccontextmanager
async def session(name: str, closer=commit):  # noqa: ANN001, ANN201
    try:
        yield name + ":open"
    finally:
        await closer(name)


async def paginate(cursor: str, loader=fetch_page):  # noqa: ANN001, ANN201
    for page in range(2):
        yield await loader(cursor + str(page))


def retrying(attempts: int):  # noqa: ANN201
    def decorate(function):  # noqa: ANN001, ANN202
        @functools.wraps(function)
        async def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            for attempt in range(attempts):
                try:
                    return await function(*args, **kwargs)
                except ConnectionError:
                    await asyncio.sleep(0.001 * attempt)
            raise ConnectionError("gave up")
        return wrapper
    return decorate


async def fan_out(text: str, handlers: list) -> list:
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(handler(text)) for handler in handlers]
    return [task.result() for task in tasks]


class Cursor:
    def __init__(self, start: str, loader=fetch_page) -> None:  # noqa: ANN001
        self.start = start
        self.loader = loader
        self.remaining = 2

    def __aiter__(self) -> "Cursor":
        return self

    async def __anext__(self) -> str:
        if self.remaining == 0:
            raise StopAsyncIteration
        self.remaining -= 1
        return await self.loader(self.start + str(self.remaining))


class Resource:
    def __init__(self) -> None:
        self._on_close: list = []

    def on_close(self, callback, *args) -> None:  # noqa: ANN001, ANN002
        self._on_close.append((callback, args))

    async def close(self) -> list:
        return [await callback(*args) for callback, args in reversed(self._on_close)]


async def enrich_twice(text: str) -> str:
    return await enrich(await enrich(text))
