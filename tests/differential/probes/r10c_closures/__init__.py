"""Closures around steps: loop-variable capture, nonlocal counters, callback lists, paired closures."""
