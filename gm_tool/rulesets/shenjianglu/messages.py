"""Player-facing words of 神将录, kept as data in ``data/messages.yaml`` (the one format of
``gm_tool.core.texts``): error messages (codes ``shenjianglu.*``, registered in the one catalogue
the first time one is asked for), the narration of events, section titles and labels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm_tool.core import texts
from gm_tool.i18n import register_lazy

DATA = Path(__file__).parent / "data"


def words() -> texts.Texts:
    """The ruleset's words (read once per process; registers its messages)."""
    return texts.load(DATA, "shenjianglu")


def labels(lang: str) -> dict[str, Any]:
    return words().labels(lang)


register_lazy("shenjianglu", words)
