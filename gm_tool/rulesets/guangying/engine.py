"""One turn of 光与影: copy the state, run the upkeep and the due player's actions, close the turn.
Pure: the same state and sheet give the same state and events."""

from __future__ import annotations

from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.rulesets.guangying.actions import Turn


def copy_state(state: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a state (plain data, two levels of lists of dicts), faster than deepcopy."""
    out = dict(state)
    out["players"] = [
        {**p, "home_rows": list(p["home_rows"]), "fortress": list(p["fortress"]), "pool": dict(p["pool"]),
         "in_hand": [dict(h) for h in p["in_hand"]], "dead": list(p["dead"]),
         **({"dead_classes": dict(p["dead_classes"])} if "dead_classes" in p else {}),
         "standing": {k: dict(v) if isinstance(v, dict) else v for k, v in p["standing"].items()}}
        for p in state["players"]]
    out["squads"] = [{**q, "members": list(q["members"])} for q in state["squads"]]
    out["pieces"] = [dict(p) for p in state["pieces"]]
    out["markers"] = [{**m, "cells": list(m["cells"])} for m in state["markers"]]
    if "classes" in state:
        out["classes"] = state["classes"]
    if "retired" in state:
        out["retired"] = list(state["retired"])
    if "squad_labels" in state:
        out["squad_labels"] = dict(state["squad_labels"])
    return out


def play(state: dict[str, Any], orders: Any, live: bool = True) -> tuple[Turn, list]:
    """The turn after ``state`` with ``orders`` (an Orders of the due player, or None: a pass)."""
    game = Turn(copy_state(state), live=live, log=EventLog())
    s = game.s
    s["turn"] += 1
    game.emit("turn_start", turn=s["turn"], player=game.active)
    if orders is not None and orders.standing is not None:
        # kept until a later sheet changes it (contract §3): only the keys given change
        game.players[game.active]["standing"] = {**game.players[game.active]["standing"], **orders.standing}
    game.upkeep()
    actions = orders.actions if orders is not None else []
    if not actions:
        game.emit("pass", player=game.active)
    refused = game.run(actions)
    game.end_turn()
    return game, refused
