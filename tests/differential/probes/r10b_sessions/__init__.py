"""A unit-of-work session over persisters keyed by class (probe round 10b)."""
