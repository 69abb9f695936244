"""An application object with lifecycle hooks and a service dependency graph (probe round 10b)."""
