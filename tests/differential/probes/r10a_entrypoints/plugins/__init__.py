"""Plugins shipped with the application."""
