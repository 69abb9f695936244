"""Dependency injection around steps (probe round 6a)."""
from .container import container, get_repository
from .steps import fetch_user as load_user

__all__ = ["container", "get_repository", "load_user"]
