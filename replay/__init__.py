"""Checking saved checkpoints against new workflow code before a deploy (issue 30).

Imports nothing of the linter, libcst or click (as the runtime shim), and
``agent_framework`` only when a check runs.
"""

from steplint.replay.checking import CheckpointsError, check_checkpoints
from steplint.replay.restamp import restamp
from steplint.replay.target import TargetError, load_target
from steplint.replay.verdicts import Verdict

__all__ = ["CheckpointsError", "TargetError", "Verdict", "check_checkpoints", "load_target", "restamp"]
