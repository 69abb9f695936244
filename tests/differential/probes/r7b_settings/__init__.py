"""Settings, clients and builders around steps (probe round 7b)."""
