"""A templating and rendering layer (probe round 10a)."""
