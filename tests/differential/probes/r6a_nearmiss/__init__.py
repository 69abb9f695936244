"""Near misses across modules, and concurrent calls MAF refuses (probe round 6a)."""
