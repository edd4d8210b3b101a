"""The class table (classes.yaml) of seed 001, loaded once."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
MARKER_COUNTS = {"岩": 4, "风墙": 2}  # seed l.3: "4个岩标记与2个风墙标记"


@lru_cache(maxsize=1)
def classes() -> dict[str, dict[str, Any]]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(HERE / "classes.yaml", encoding="utf-8") as fh:
        return yaml.load(fh, Loader=loader)


def class_aliases() -> dict[str, str]:
    """Every accepted spelling of a class name -> the seed's name."""
    out: dict[str, str] = {}
    for name, row in classes().items():
        out[name] = name
        out[row["en"]] = name
        out[row["en"].capitalize()] = name
    return out
