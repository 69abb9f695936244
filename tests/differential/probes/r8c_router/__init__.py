"""An intent router and a supervisor of worker agents around steps (probe round 8c)."""
