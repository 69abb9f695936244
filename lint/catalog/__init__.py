"""The rule catalogue: the rules found in steplint.rules, selection by code, and their generated docs."""
