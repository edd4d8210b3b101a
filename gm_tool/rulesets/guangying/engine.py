"""One turn of 光与影: copy the state, run the upkeep and the due player's actions, close the turn.
Pure: the same state and sheet give the same state and events."""

from __future__ import annotations

from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.rulesets.guangying.actions import run
from gm_tool.rulesets.guangying.model import copy_state
from gm_tool.rulesets.guangying.turn import Turn

__all__ = ["copy_state", "play"]


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
    refused = run(game, actions)
    game.end_turn()
    return game, refused
