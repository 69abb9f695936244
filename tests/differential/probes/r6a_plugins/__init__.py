"""Plugin registries and strategies around steps (probe round 6a)."""
