"""Runtime companion of steplint (work in progress)."""
