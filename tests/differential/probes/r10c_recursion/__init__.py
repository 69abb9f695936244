"""Recursive shapes around steps: tree dispatch, recursive retry, mutual recursion, cached lookups, visitors."""
