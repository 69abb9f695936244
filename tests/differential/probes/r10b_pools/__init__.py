"""A connection pool over an asyncio.Queue (probe round 10b)."""
