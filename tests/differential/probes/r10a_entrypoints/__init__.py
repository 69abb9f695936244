"""A plugin system modelled on setuptools entry points (probe round 10a)."""
