"""A player's view of the state (R7): the state's shape, holding only what that player may see.

Seen: the map and every stronghold (public knowledge: posted maps and the territory table),
the player's own characters whole, and other living characters standing in a visible cell
without their hand (``"hand": null``), skills or statuses — ruling P1. Never: the deck, the equipment pile, other
hands, characters outside vision, characters inside a tunnel (nobody sees them, ruling M18).
Of the scenario's own skill definitions (state key ``skills``, ruling C27) only those of the
player's own characters' skills are kept; the key is left out when none is.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.rulesets.grail_war import vision

HIDDEN_OTHER = ("hand", "equipment_cards", "healed_turn", "status", "move", "skills")


def view(state: dict[str, Any], player: str | None) -> dict[str, Any]:
    if player is None:
        return state
    seen = vision.visible_in_state(state, player)
    characters = []
    custom = state.get("skills") or {}
    own_skills: dict[str, Any] = {}
    for d in state["characters"]:
        if d["player"] == player:
            characters.append(d)
            for sid in d.get("skills") or ():
                if sid in custom:
                    own_skills[sid] = custom[sid]
        elif d["alive"] and parse_cell(d["pos"]) in seen:
            other = {k: v for k, v in d.items() if k not in HIDDEN_OTHER}
            other["hand"] = None
            characters.append(other)
    out = {
        "ruleset": state["ruleset"], "turn": state["turn"], "winner": state["winner"],
        "characters": characters, "strongholds": state["strongholds"], "territory": state["territory"],
        "sides": state["sides"], "rules": state["rules"], "map": state["map"],
        "closed_cells": state.get("closed_cells", []),
        "player": player, "visible": sorted((cell_name(c) for c in seen), key=lambda n: (len(n), n)),
    }
    if own_skills:
        out["skills"] = {sid: own_skills[sid] for sid in sorted(own_skills)}
    return out
