"""Request handlers, one module each, loaded by name."""
