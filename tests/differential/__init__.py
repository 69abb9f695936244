"""The differential tester: generated workflow programs run on the real agent-framework-core.

- ``generator``: small realistic programs (a package of modules) built from shapes, each shape
  tagged with the family of Python it exercises;
- ``trace_child``: runs in a child interpreter that has agent-framework-core, wraps MAF's
  ``StepWrapper.__call__`` from the outside and records nested step entries and refused
  concurrent calls (the ground truth for STP001, STP002 and STP020);
- ``oracle``: runs the traces and steplint, and compares them both ways;
- ``shrink``: delta debugging of a disagreement down to a minimal program;
- ``known_gaps``: the disagreements the analysis is known to have, each with family and reason.
"""
