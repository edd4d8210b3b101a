"""Fights (R8-R13). Placeholder until the combat issue lands: records who fought and deals the
R8 draw, without playing cards."""

from __future__ import annotations

from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.core.grid import Cell, cell_name
from gm_tool.rulesets.grail_war import hands
from gm_tool.rulesets.grail_war.model import Character, Game


def resolve_fights(game: Game, fights: list[tuple[Cell, list[Character]]], orders: dict, log: EventLog,
                   chance: Chance) -> set[Cell]:
    """Play every fight; return the cells where a fight took place."""
    cells: set[Cell] = set()
    for cell, fighters in fights:
        cells.add(cell)
        log.emit("fight", to=[], actors=sorted({c.player for c in fighters}), cells=[cell_name(cell)],
                 cell=cell_name(cell), fighters=[c.id for c in fighters])
        for c in fighters:
            if c.alive:
                hands.draw(game, c, game.rules["combat_draw"], "fight", log, chance)
    return cells
