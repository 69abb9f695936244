"""Data-structure dispatch around steps (probe round 8b)."""
