"""A multi-module agent application laid out as a package around steps (probe round 8c)."""
