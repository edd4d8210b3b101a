"""Bundled rule data of the grail war (cards, classes, maps, characters), read once and cached."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from gm_tool.core import safeyaml

HERE = Path(__file__).parent


@cache
def load(name: str) -> Any:
    return safeyaml.load_file(HERE / f"{name}.yaml", max_bytes=8 << 20)


def map_names() -> list[str]:
    return sorted(p.stem for p in (HERE / "maps").glob("*.yaml"))
