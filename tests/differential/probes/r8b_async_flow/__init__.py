"""Asyncio control flow around steps (probe round 8b)."""
