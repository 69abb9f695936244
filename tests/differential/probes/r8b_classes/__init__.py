"""Class machinery around steps (probe round 8b)."""
