"""Project layout around steps (probe round 7b): a steps/ subpackage, lazy imports, import-at-bottom cycles."""
