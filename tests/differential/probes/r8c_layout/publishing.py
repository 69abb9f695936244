"""Publishing; drafts imports this module at its top, so drafts is imported here inside the functions."""

CHANNELS = ("blog", "newsletter")


async def publish(text: str) -> str:
    from r8c_layout import drafts

    final = await drafts.finalize(text)
    return f"{CHANNELS[0]}:{final}"


async def preview(text: str) -> str:
    from r8c_layout import drafts

    return drafts.render_preview(text)
