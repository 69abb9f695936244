"""Settings: [tool.steplint], the command line's overrides, and the agent-framework-core version a project declares."""
