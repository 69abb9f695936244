"""Helpers with lazy imports inside their bodies."""


async def load_lazily(order: str) -> str:
    from r7b_layout import steps
    return await steps.load_order(order)


async def plain_lazily(user: str) -> str:
    from .plain import fetch_user
    return await fetch_user(user)


async def notify_lazily(text: str, real: bool) -> str:
    if real:
        from .steps.notify import send_mail
    else:
        from .plain import send_mail
    return await send_mail(text)


def pick_sender(real: bool):  # noqa: ANN201
    if real:
        from .steps import notify_user as sender
    else:
        from .steps import render as sender
    return sender
