"""Plugins loaded by module name (probe round 7b)."""
