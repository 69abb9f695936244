"""The writer agent (plain: it formats, it does not call the model)."""
from ..registry import action


class Writer:
    async def write(self, plan: str) -> str:
        return "\n".join(f"- {line}" for line in plan.split(";"))


@action("outline")
async def outline(goal: str) -> str:
    return await Writer().write(goal)
