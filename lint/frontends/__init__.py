"""The ways in: command line, language server, flake8 plugin, autofix, unsaved buffers."""
