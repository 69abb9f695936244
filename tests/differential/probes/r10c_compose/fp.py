"""Tiny functional toolkit: composition, piping, currying and a few plain async transforms."""
from typing import Any, Awaitable, Callable

AsyncFn = Callable[[Any], Awaitable[Any]]


def compose(*fns: AsyncFn) -> AsyncFn:
    """compose(f, g)(x) == f(g(x)), for async functions."""

    async def composed(value: Any) -> Any:
        for fn in reversed(fns):
            value = await fn(value)
        return value

    return composed


async def pipe(value: Any, *fns: AsyncFn) -> Any:
    """pipe(x, f, g) == g(f(x))."""
    for fn in fns:
        value = await fn(value)
    return value


def curry2(fn: Callable[[Any, Any], Any]) -> Callable[[Any], Callable[[Any], Any]]:
    def take_first(a: Any) -> Callable[[Any], Any]:
        def take_second(b: Any) -> Any:
            return fn(a, b)

        return take_second

    return take_first


async def relay(fn: Callable[[str, str], Awaitable[str]], channel: str, text: str) -> str:
    return await fn(channel, text)


async def strip(text: str) -> str:
    return text.strip()


async def shout(text: str) -> str:
    return text.upper() + "!"


async def plain_tag(label: str, text: str) -> str:
    return f"<{label}>{text}"


async def plain_notify(channel: str, text: str) -> str:
    return f"{channel}: {text} (queued)"


async def soft_validate(text: str) -> str:
    return text or "?"


def checker(strict: bool) -> Callable[[str], Awaitable[str]]:
    """Pick the validator: the strict one is a tracked step, the soft one a plain function."""
    from r10c_compose.steps import validate

    if strict:
        return validate
    return soft_validate
