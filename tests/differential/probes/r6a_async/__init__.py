"""Async plumbing in service code around steps (probe round 6a)."""
