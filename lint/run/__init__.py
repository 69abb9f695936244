"""Stage orchestration: a run over paths (cache, prefilter, process pools, kept findings) and one analysis (checking)."""
