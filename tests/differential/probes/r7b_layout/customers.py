"""One half of an import cycle: the other module's name is imported at the bottom of this one."""


async def lookup(user: str) -> str:
    return await _finalize(user)


async def lookup_quiet(user: str) -> str:
    return await _describe(user)


def table():  # noqa: ANN201
    return orders.HANDLERS


from .orders import describe as _describe, finalize as _finalize  # noqa: E402
from . import orders  # noqa: E402
