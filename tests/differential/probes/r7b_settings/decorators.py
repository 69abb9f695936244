"""A decorator that decides at definition time, from a flag, whether to wrap a handler with an audit step."""
import functools

from .settings import ACTIVE, settings
from .steps import legacy_audit, store_blob


def audited_if(flag: bool):  # noqa: ANN201
    def decorate(fn):  # noqa: ANN001, ANN202
        if not flag:
            return fn

        @functools.wraps(fn)
        async def wrapper(text: str) -> str:
            await legacy_audit(text)
            return await fn(text)
        return wrapper
    return decorate


@audited_if(settings.features.legacy_audit)
async def save_quietly(text: str) -> str:
    return "saved:" + text


@audited_if(settings.features.new_billing)
async def save_loudly(text: str) -> str:
    return "saved:" + text


async def store_by_config(text: str) -> str:
    if ACTIVE.USE_REMOTE_STORE:
        return await store_blob(text)
    return text
