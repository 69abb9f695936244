"""A module whose globals are rebound by a function other modules call after importing from it."""
from .steps import fetch, plain, store

handler = plain
fallback = store
_hidden = fetch
exported = fetch
notifier = plain


def install() -> None:
    global handler
    handler = fetch


async def run_handler(label: str) -> str:
    return await handler(label)


async def run_notifier(label: str) -> str:
    return await notifier(label)


def __getattr__(name: str):  # noqa: ANN202  (PEP 562)
    if name == "dynamic":
        return store
    if name == "quiet":
        return plain
    raise AttributeError(name)
