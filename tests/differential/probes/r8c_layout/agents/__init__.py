"""The agents, re-exported."""
from .planner import Planner, draft_plan
from .specialists import Reviewer
from .writer import Writer

__all__ = ["Planner", "Reviewer", "Writer", "draft_plan"]
