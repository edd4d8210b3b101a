"""魂陆's player-facing words, kept as data in ``data/messages.yaml`` (the one format of
:mod:`gm_tool.core.texts`): the error and status messages (codes ``hunlu.*``, registered in the
one catalogue when this module is imported), the sentences events are told with, and the
labels of posts, summaries and sheets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm_tool.core import texts

TEXTS = texts.load(Path(__file__).parent / "data", "hunlu")


def labels(lang: str) -> dict[str, Any]:
    """Every label in ``lang`` (a nested mapping)."""
    return TEXTS.labels(lang)


def label(lang: str, path: str, **params: Any) -> str:
    """One label by its dotted path, formatted with ``params``."""
    return TEXTS.label(lang, path, **params)
