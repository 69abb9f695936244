"""Drafts; imports publishing at the top (publishing imports this module back inside its functions)."""
from r8c_layout import publishing
from r8c_layout.steps import publish_post


async def finalize(text: str) -> str:
    return await publish_post(f"{text}@{','.join(publishing.CHANNELS)}")


def render_preview(text: str) -> str:
    return f"preview[{publishing.CHANNELS[-1]}]:{text}"
