"""Jupyter notebooks through the real ``steplint``: found like ``.py`` files, their code cells one module, IPython
escapes skipped, positions as ruff gives them (``cell N:line:col``; JSON ``cell`` with rows in the cell), ``--fix``
writing only the changed cells back, a broken notebook as its STP900, the cache, and what a notebook imports."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_samples import ROOT, steplint
from expectations import expected_columns_for
from notebook_files import cell_sources, code, markdown, notebook_text

FIXTURE = ROOT / "fixtures" / "notebook_workflow"


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURE, tmp_path / "nb")
    (tmp_path / "nb" / "pyproject.toml").write_text("[project]\nname = 'nb'\nversion = '0'\ndependencies = "
                                                    "['agent-framework-core==1.23.0']\n")
    return tmp_path / "nb"


def located(output: str) -> list[tuple[str, str]]:
    return [(line.split(": ")[0], line.split(": ")[1].split()[0]) for line in output.splitlines() if ": STP" in line]


def test_a_notebook_is_found_and_reported_by_cell(project):
    assert "orders.ipynb" in steplint("--show-files", ".", cwd=project).stdout.split()
    done = steplint("--no-cache", ".", cwd=project)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    # A step defined in cell 3 and called by a step in cell 5, and one imported from order_billing.py beside it; the
    # '# noqa' in cell 5, the %%bash cell and the automagic cell (both calling fetch) silence or hide the rest.
    assert located(done.stdout) == [("orders.ipynb:cell 5:3:18", "STP001"), ("orders.ipynb:cell 5:5:18", "STP001")]
    grouped = steplint("--no-cache", "--format", "grouped", "orders.ipynb", cwd=project).stdout
    assert grouped.startswith("orders.ipynb:\n  cell 5:3:18 STP001 step 'process' calls step 'fetch'")


def test_json_gives_the_cell_and_rows_in_it_as_ruff_does(project):
    done = steplint("--no-cache", "--format", "json", "orders.ipynb", cwd=project)
    findings = json.loads(done.stdout)
    # The expectations, read from the notebook with json: (name:cell N, line in the cell, code, column).
    expected = {(f"orders.ipynb:cell {f['cell']}", f["location"]["row"], f["code"], f["location"]["column"])
                for f in findings}
    assert expected == expected_columns_for(FIXTURE) - {e for e in expected_columns_for(FIXTURE)
                                                         if not e[0].startswith("orders.ipynb")}
    first = findings[0]
    assert (first["cell"], first["noqa_row"], first["end_location"]) == (5, 3, {"column": 33, "row": 3})
    assert first["fix"]["edits"][0]["location"] == {"column": 23, "row": 3}
    line = cell_sources((FIXTURE / "orders.ipynb").read_text())[4].split("\n")[2]
    assert line[first["location"]["column"] - 1:].startswith("fetch(order_id)")


def test_formats_without_cells_get_the_fallback_position(project):
    sarif = json.loads(steplint("--no-cache", "--format", "sarif", "orders.ipynb", cwd=project).stdout)
    result = sarif["runs"][0]["results"][0]
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 1
    assert "cell 5:3:18: step 'process' calls step 'fetch'" in result["message"]["text"]
    pylint = steplint("--no-cache", "--format", "pylint", "orders.ipynb", cwd=project).stdout
    assert pylint.startswith("orders.ipynb:1: [STP001(step-calls-step), ] cell 5:3:18: ")


def test_fix_writes_only_the_changed_cells_back(project):
    before = (project / "orders.ipynb").read_text()
    done = steplint("--no-cache", "--fix", "--unsafe-fixes", "orders.ipynb", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    after = (project / "orders.ipynb").read_text()
    changed = [(old, new) for old, new in zip(before.splitlines(), after.splitlines()) if old != new]
    assert len(before.splitlines()) == len(after.splitlines()) and after.endswith("}\n")
    assert changed == [
        ('    "    data = await fetch(order_id)  # expect: STP001:18\\n",',
         '    "    data = await fetch.__wrapped__(order_id)  # expect: STP001:18\\n",'),
        ('    "    return await charge(data)  # expect: STP001:18"',
         '    "    return await charge.__wrapped__(data)  # expect: STP001:18"'),
    ]
    # The magics, outputs and metadata are where they were; the fixed notebook lints clean.
    assert json.loads(after)["cells"][3] == json.loads(before)["cells"][3]
    assert steplint("--no-cache", "orders.ipynb", cwd=project).stdout == "All checks passed!\n"


def test_add_noqa_in_cells_and_the_noqa_holds(project):
    done = steplint("--no-cache", "--add-noqa", "orders.ipynb", cwd=project)
    assert "Added 2 noqa directives." in done.stderr
    assert "  # noqa: STP001" in cell_sources((project / "orders.ipynb").read_text())[4]
    assert steplint("--no-cache", "orders.ipynb", cwd=project).returncode == 0


def test_broken_notebooks_are_findings_and_the_others_still_report(project):
    (project / "truncated.ipynb").write_text('{"cells": [')
    (project / "v3.ipynb").write_text('{"nbformat": 3, "worksheets": []}\n')
    (project / "cell.ipynb").write_text(notebook_text(code("x = 1"), markdown("text"), code("def f(:\n    pass")))
    done = steplint("--no-cache", ".", cwd=project)
    assert "Traceback" not in done.stderr and done.returncode == 1
    lines = done.stdout.splitlines()
    assert "truncated.ipynb:1:1: STP900 error: cannot analyze this file: not a notebook: invalid JSON at line 1 " \
           "column 12: Expecting value" in lines
    assert "v3.ipynb:1:1: STP900 error: cannot analyze this file: not an nbformat 4 notebook (nbformat: 3); " \
           "convert it with 'jupyter nbconvert --to notebook'" in lines
    assert "cell.ipynb:cell 3:1:7: STP900 error: cannot analyze this file: syntax error: invalid syntax" in lines
    assert ("orders.ipynb:cell 5:3:18", "STP001") in located(done.stdout)  # the others still report
    # STP900 whatever the selection, as ruff reports syntax errors.
    selected = steplint("--no-cache", "--select", "STP002", "cell.ipynb", cwd=project)
    assert located(selected.stdout) == [("cell.ipynb:cell 3:1:7", "STP900")]


def test_the_cache_keys_a_notebook_by_its_code(project):
    first = steplint(".", cwd=project)
    assert (project / ".steplint_cache").is_dir()
    assert steplint(".", cwd=project).stdout == first.stdout
    # Outputs are not code: a new output changes nothing; a new call in a cell is seen.
    notebook = json.loads((project / "orders.ipynb").read_text())
    notebook["cells"][2]["outputs"] = [{"name": "stdout", "output_type": "stream", "text": ["ran\n"]}]
    notebook["cells"][2]["source"].append("\n@maf.step\nasync def again(x: str) -> str:\n    return await fetch(x)")
    (project / "orders.ipynb").write_text(json.dumps(notebook, indent=1))
    assert ("orders.ipynb:cell 3:6:18", "STP001") in located(steplint(".", cwd=project).stdout)


def test_top_level_await_and_escapes_are_no_syntax_errors(project):
    (project / "run.ipynb").write_text(notebook_text(
        code("from orders_lib import go\n%env A=1\nx = %time 1\n!echo hi \\\n  there\ngo?\n??go\n/go 1\n,go a\n;go b"),
        code("async with go() as session:\n    await session\nresult = await go()\n[x async for x in go()]"),
    ))
    done = steplint("--no-cache", "run.ipynb", cwd=project)
    assert done.stdout == "All checks passed!\n", done.stdout


def test_a_notebook_on_standard_input_is_refused(project):
    done = steplint("--stdin-filename", "orders.ipynb", cwd=project, stdin=(project / "orders.ipynb").read_text())
    assert done.returncode == 2
    assert done.stderr == "steplint: error: a notebook cannot be linted from standard input: name the .ipynb file\n"
