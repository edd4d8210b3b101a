"""The installed package carries every data file the code reads: `pip install .` copies only what
``[tool.setuptools.package-data]`` names, while the tests import the source tree, so a data file
the patterns miss would pass every test and break `gm` for every user."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_package_data_covers_every_data_file():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-data"]["*"]
    missed = []
    for path in sorted((ROOT / "gm_tool").rglob("*")):
        if not path.is_file() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts or path.name.startswith("."):
            continue
        name = path.name
        if not any(fnmatch.fnmatch(name, p.split("/")[-1]) for p in patterns):
            missed.append(str(path.relative_to(ROOT)))
    assert missed == []
