"""Layered caches in front of steps (probe round 9a)."""
