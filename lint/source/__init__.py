"""Files as Python sees them: discovery, module identity, reading, decoding and parsing (newer syntax included)."""
