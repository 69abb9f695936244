"""Exception handling around steps (probe round 8b)."""
