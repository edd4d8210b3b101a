"""The event log: everything that happens in a turn, in order, with who may know it.

An event is a plain dict: ``{"seq": 3, "type": "move", "to": ["alice"], ...}``. ``to`` is the
audience: ``"all"`` for public events, a list of player names for private ones, ``[]`` for the
GM only. Views and posts filter the log by audience; the ruleset decides each audience
when it emits the event, so what a player may learn is decided in one place.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

PUBLIC = "all"


class EventLog:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def emit(self, type_: str, to: str | Iterable[str] = PUBLIC, **data: Any) -> dict[str, Any]:
        audience: str | list[str] = to if isinstance(to, str) else sorted(set(to)) if to else []
        event = {"seq": len(self.events), "type": type_, "to": audience, **data}
        self.events.append(event)
        return event

    def __iter__(self):
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)


def visible_to(event: dict[str, Any], player: str | None) -> bool:
    """True if ``player`` may know of ``event`` (``None`` is the GM, who knows everything)."""
    if player is None:
        return True
    to = event.get("to", PUBLIC)
    return to == PUBLIC or player in to


def jsonl(events: list[dict[str, Any]]) -> str:
    """Events as the text of ``log/turn-NNN.jsonl``: one JSON object a line, keys sorted."""
    return "".join(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n" for e in events)


def read_jsonl(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]
