async def audit_step(text: str) -> str:
    """Plain, despite its name."""
    return "audited:" + text


async def handle(text: str) -> str:
    return await audit_step(text)
