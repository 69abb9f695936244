"""Lazy evaluation around steps: lazy values, thunks, generators of thunks, cached properties."""
