"""The desk's words, kept as data in ``data/messages.yaml`` in the rulesets' one format
(:mod:`gm_tool.core.texts`): ``messages`` (its error codes, ``desk.*``, registered in the one
catalogue) and ``labels`` (the pages' words, the same keys in ``zh`` and ``en``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm_tool.core import texts

DATA = Path(__file__).parent / "data"


def load() -> texts.Texts:
    """The desk's words (read once; its messages registered in the catalogue)."""
    return texts.load(DATA, "desk")


def labels(lang: str) -> dict[str, Any]:
    """Every label of the desk's pages in ``lang``."""
    return load().labels(lang)


load()
