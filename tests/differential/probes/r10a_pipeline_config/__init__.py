"""A data pipeline assembled from a declarative config (probe round 10a)."""
