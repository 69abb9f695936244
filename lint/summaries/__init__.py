"""Stage 2: one syntax tree in, one picklable ModuleSummary out."""
