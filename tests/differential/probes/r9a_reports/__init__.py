"""Report builders over a few data sources (probe round 9a)."""
