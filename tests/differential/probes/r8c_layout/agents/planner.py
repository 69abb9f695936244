"""The planner agent."""
from ..registry import action
from ..steps import draft_plan


class Planner:
    def __init__(self, style: str = "bullet") -> None:
        self.style = style

    async def plan(self, goal: str) -> str:
        outline = await draft_plan(goal.strip())
        return f"{self.style}:{outline}"


@action("plan")
async def plan_action(goal: str) -> str:
    return await Planner().plan(goal)
