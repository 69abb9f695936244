"""Stage 3: the project index and what rules ask of it (values, steps, fingerprints, durability, reach)."""
