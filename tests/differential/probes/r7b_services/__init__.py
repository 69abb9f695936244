"""A services layer around steps (probe round 7b)."""
