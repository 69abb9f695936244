"""steplint: checkpoint-replay hazards in Microsoft Agent Framework workflows."""

from steplint._version import __version__

__all__ = ["__version__"]
