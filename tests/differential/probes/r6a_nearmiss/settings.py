"""Feature flags."""
DEBUG = False
AUDIT = True
