"""A small ETL package built from generator pipelines (probe round 9a)."""
