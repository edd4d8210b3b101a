"""The grail war's player-facing words, read once from ``data/messages.yaml`` (the one format of
:mod:`gm_tool.core.texts`) when first needed: commands that print no words never read the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm_tool.core import texts as _texts

DATA = Path(__file__).parent / "data"


def texts() -> _texts.Texts:
    """The ruleset's words (read and its messages registered on the first call)."""
    return _texts.load(DATA, "grail_war")


def labels(lang: str) -> dict[str, Any]:
    return texts().labels(lang)
