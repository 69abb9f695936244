"""Shared vocabulary of every stage: findings and fixes, summary types, framework versions, process helpers."""
