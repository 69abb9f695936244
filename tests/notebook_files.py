"""Notebooks for the tests, written as Jupyter (nbformat 4) writes them: one-space indent, sorted keys, sources as
lists of lines, a final newline."""

from __future__ import annotations

import json


def code(source: str, outputs: list | None = None, count: int | None = None, **metadata) -> dict:
    return {"cell_type": "code", "execution_count": count, "id": None, "metadata": metadata, "outputs": outputs or [],
            "source": source}


def markdown(source: str) -> dict:
    return {"cell_type": "markdown", "id": None, "metadata": {}, "source": source}


def notebook_text(*cells: dict) -> str:
    numbered = []
    for number, cell in enumerate(cells, start=1):
        lines = [line + "\n" for line in cell["source"].split("\n")]
        lines[-1] = lines[-1][:-1]
        numbered.append({**cell, "id": f"cell-{number}", "source": [line for line in lines if line]})
    notebook = {
        "cells": numbered,
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python", "version": "3.11.7"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False, separators=(",", ": ")) + "\n"


def cell_sources(text: str) -> list[str]:
    """Every cell's source as one string (read with ``json``, not with steplint)."""
    return ["".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            for cell in json.loads(text)["cells"]]
