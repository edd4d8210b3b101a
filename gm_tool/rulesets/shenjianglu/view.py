"""What a player may see (contract §4): every unit (no fog), every seat's public counts and
graveyard; their own hand, the neutral cards dealt to them (3.3: 各玩家查看之後放入自己的牌堆) and
their deck as a list (what it holds, never its order); nobody's deck order. ``None`` is the GM:
everything."""

from __future__ import annotations

from typing import Any


def view(state: dict[str, Any], player: str | None) -> dict[str, Any]:
    out = dict(state)
    out["units"] = [{**u, "buffs": [dict(b) for b in u["buffs"]], "captives": [dict(c) for c in u.get("captives") or ()]}
                    for u in state["units"]]
    seats = []
    for s in state["seats"]:
        s = {**s, "hand": list(s["hand"]), "deck": list(s["deck"]), "graveyard": list(s["graveyard"]),
             "neutrals": list(s.get("neutrals") or ())}
        if player is not None:
            if s["player"] == player:
                s["deck_list"] = sorted(s["deck"])
            else:
                del s["hand"], s["neutrals"]
            del s["deck"]
        seats.append(s)
    out["seats"] = seats
    out["board"] = {**state["board"]}
    out["rules"] = dict(state["rules"])
    out["catalogue"] = dict(state.get("catalogue") or {})
    out["labels"] = dict(state.get("labels") or {})
    return out
