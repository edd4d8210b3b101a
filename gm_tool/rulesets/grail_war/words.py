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


def equipment_text(name: str, lang: str) -> str:
    """What an equipment does, in ``lang`` (empty for a name the seed does not list)."""
    return str(labels(lang)["equipment"].get(name, ""))


def skill_texts(ids: list[str], custom: dict[str, Any] | None, lang: str) -> list[dict[str, str]]:
    """A character's skills: ``[{"name", "text"}]`` in ``lang`` (a scenario's own skills first)."""
    from gm_tool.rulesets.grail_war.combat.skills import of

    out = []
    for sk in of(list(ids or ()), custom):
        text = sk.text if isinstance(sk.text, str) else (sk.text.get(lang) or sk.text.get("zh") or sk.text.get("en") or "")
        out.append({"name": sk.name, "text": text})
    return out
