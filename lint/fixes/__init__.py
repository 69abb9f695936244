"""Fixes, the ruff model: a finding may carry a ``Fix`` (text edits, safe or unsafe).

One stage, one job per module: ``rewrites`` computes the edits a rule's fix
makes to a call (with libcst, or as text), ``noqa_edits`` the edits of
``# noqa`` comments, ``positions`` converts between line/column positions
and offsets, ``source_texts`` gives rules the text a file was linted from,
and ``apply`` applies edits to a text: the one place ``--fix``,
``--add-noqa`` and the editor's fix-all go through.

The stage sits between ``rules`` (which build fixes) and ``analysis`` (whose
``Analysis`` holds the ``SourceTexts`` service): frontends and the run stage
use it from above.
"""
