"""Stage 5: suppression, and findings written out in every format."""
