"""A shop whose behaviour is switched by feature flags (probe round 10a)."""
