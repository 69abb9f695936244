"""A package whose __init__ registers its jobs and re-exports steps (probe round 5, modules)."""
from . import jobs  # noqa: F401 - importing jobs registers them into registry.TASKS
from .services import send_email
from .steps import fetch_profile as get_profile

__all__ = ["get_profile", "send_email"]
