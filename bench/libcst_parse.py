"""The reference point: parse every Python file under the given folders with libcst, in one process.

    python bench/libcst_parse.py PATH...
"""

from __future__ import annotations

import argparse
import os
import sys

import libcst


def python_files(paths: list[str]) -> list[str]:
    found = []
    for top in paths:
        for directory, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in ("__pycache__", "site-packages"))
            found.extend(os.path.join(directory, name) for name in sorted(filenames) if name.endswith(".py"))
    return found


def main(paths: list[str]) -> int:
    failed = 0
    for path in python_files(paths):
        with open(path, "rb") as handle:
            data = handle.read()
        try:
            libcst.parse_module(data)
        except Exception:  # the reference counts what parses; broken files cost their attempt
            failed += 1
    print(f"{failed} file(s) did not parse", file=sys.stderr)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", metavar="PATH", help="folders whose .py files are parsed")
    options = parser.parse_args()
    missing = [path for path in options.paths if not os.path.isdir(path)]
    if missing:
        parser.error(f"not a folder: {', '.join(missing)}")
    sys.exit(main(options.paths))
