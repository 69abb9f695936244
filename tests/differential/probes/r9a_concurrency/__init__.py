"""Bounded concurrency helpers around steps (probe round 9a)."""
