"""An API client layer: lazy sessions, pluggable transports, retries (probe round 10b)."""
