"""Specialist agents."""
from .reviewer import Reviewer

__all__ = ["Reviewer"]
