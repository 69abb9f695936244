"""An LLM-agent tool layer around steps (probe round 8c): a hand-written tool registry and agent loop."""
