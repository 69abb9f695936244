"""Plain helpers: parsers, a transaction context manager, handlers of a fallback chain."""
import asyncio

from r8b_exceptions import steps
from r8b_exceptions.errors import LookupFailed, NeedsAttention, Skip


def parse_strict(text: str) -> int:
    return int(text)


def parse_lenient(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return len(text)


async def save(value: int) -> str:
    return await steps.store(str(value))


async def flush(text: str) -> str:
    return await steps.flush_buffer(text)


async def log_line(text: str) -> str:
    return "log:" + text


class Transaction:
    def __init__(self, name: str) -> None:
        self.name = name
        self.outcome = ""

    async def __aenter__(self) -> "Transaction":
        return self

    async def __aexit__(self, exc_type, exc, tb) -> bool:  # noqa: ANN001
        if exc_type is None:
            self.outcome = "commit:" + self.name
            return False
        self.outcome = await steps.rollback(self.name)
        return True

    def fail(self, reason: str) -> None:
        raise RuntimeError(reason)


async def quiet_fix(text: str) -> str:
    return "fixed:" + text


def check_quota(text: str, *, strict: bool) -> None:
    if strict:
        raise NeedsAttention("over quota", steps.review)
    raise NeedsAttention("near quota", quiet_fix)


def read_record(table: dict[str, str], key: str, *, typed: bool) -> str:
    try:
        return table[key] if not typed else table[int(key)]  # type: ignore[index]
    except (KeyError, ValueError) as err:
        raise LookupFailed(key) from err


async def plain_default(text: str) -> str:
    return "default:" + text


def recovery_for(error: LookupFailed):  # noqa: ANN201
    if isinstance(error.__cause__, KeyError):
        return steps.refetch
    return plain_default


async def store_then_validate(text: str) -> str:
    stored = await steps.store(text)
    if not text.isdigit():
        raise ValueError(stored)
    return stored


async def slow_call(text: str) -> str:
    await asyncio.sleep(0)
    raise TimeoutError(text)


async def from_cache(text: str) -> str:
    raise Skip("cold cache")


async def from_replica(text: str) -> str:
    raise Skip("replica lagging")


async def from_memory(text: str) -> str:
    return "memory:" + text
