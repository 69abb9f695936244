"""The rule modules, one per STP code, and the registry that lists them."""
