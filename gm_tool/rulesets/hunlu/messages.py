"""魂陆's player-facing words, kept as data in ``data/messages.yaml`` (the one format of
:mod:`gm_tool.core.texts`): the error and status messages (codes ``hunlu.*``, registered in the
one catalogue when this module is imported), the sentences events are told with, and the
labels of posts, summaries and sheets."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm_tool.core import texts
from gm_tool.core.narrate import Narration

if TYPE_CHECKING:
    from gm_tool.core.narrate import Teller

TEXTS = texts.load(Path(__file__).parent / "data", "hunlu")


def labels(lang: str) -> dict[str, Any]:
    """Every label in ``lang`` (a nested mapping)."""
    return TEXTS.labels(lang)


def label(lang: str, path: str, **params: Any) -> str:
    """One label by its dotted path, formatted with ``params``."""
    return TEXTS.label(lang, path, **params)


class _Narration(Narration):
    """Sections whose title already says what their first event would (a round's start or end)
    do not repeat it as a line."""

    def lines(self, kind: str, seen: list[dict[str, Any]], teller: Teller) -> list[str]:
        if kind in TITLED and seen and seen[0]["type"] == TITLED[kind]:
            seen = seen[1:]
        return [teller.sentence(e) for e in seen]


TITLED = {"round_start": "round_start", "round_end": "round_end"}


@functools.cache
def narration() -> Narration:
    """The ruleset's narration: each general's turn and each round's start and end a section of
    its own, even two in a row."""
    told = _Narration(TEXTS.titles, silent=("chance",), always_new=("turn", "round_start", "round_end"))
    told.register(TEXTS.narration_entries)
    return told
