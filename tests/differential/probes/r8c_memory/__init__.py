"""Conversation memory, a cache-aside helper and hook registries around steps (probe round 8c)."""
