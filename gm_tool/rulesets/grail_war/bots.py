"""Built-in players for demos and simulations: they write ordinary order sheets (plain mappings
that pass `gm check`), so everything downstream is exercised as for a human player.

``random``: a random reachable destination and random tactical options.
``greedy``: towards the nearest visible enemy while healthy, towards an own heal stronghold
when low, else towards the nearest stronghold the side does not hold; always strikes and dodges.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.grid import Cell, cell_name, manhattan, reachable
from gm_tool.rulesets.grail_war import movement, vision
from gm_tool.rulesets.grail_war.model import RIVER, Game

KINDS = ("random", "greedy")


def _destinations(game: Game, char) -> list[Cell]:
    reach = reachable(char.pos, char.move, movement.step_rule(game, char), game.board.width, game.board.height)
    return sorted((c for c in reach if game.board.terrain(c) != RIVER), key=lambda c: (c[1], c[0]))


def _toward(cells: list[Cell], goal: Cell) -> Cell:
    return min(cells, key=lambda c: (manhattan(c, goal), c[1], c[0]))


def sheet(state: dict[str, Any], player: str, kind: str, chance: Chance) -> dict[str, Any]:
    game = Game.from_state(state)
    chars = [c for c in game.of_player(player) if c.alive]
    out: dict[str, Any] = {"turn": game.turn + 1, "player": player}
    if not chars:
        return out
    char = chars[0]
    dests = _destinations(game, char)
    if kind == "random":
        out["move"] = {"to": cell_name(chance.choice(dests, why="bot.move", label=cell_name))}
        out["use_curse"] = chance.choice([True, False], why="bot.curse")
        out["gem"] = chance.choice(["self_first", "ally_first", "never"], why="bot.gem")
        out["target_priority"] = chance.choice(["more_hp", "more_cards"], why="bot.target")
        return out
    seen = vision.visible_cells(game, player)
    enemies = [c for c in game.alive() if c.side != char.side and c.pos in seen]
    heal = [s for s in game.strongholds if s.kind == "heal" and s.owner == char.side and s.working]
    targets = [s for s in game.strongholds if s.owner != char.side and not s.closed]
    if char.hp <= 2 and heal:
        goal = min(heal, key=lambda s: manhattan(s.pos, char.pos)).pos
    elif enemies:
        goal = min(enemies, key=lambda e: (manhattan(e.pos, char.pos), e.id)).pos
    elif targets:
        goal = min(targets, key=lambda s: (manhattan(s.pos, char.pos), s.id)).pos
    else:
        goal = char.pos
    out["move"] = {"to": cell_name(_toward(dests, goal))}
    out["use_curse"] = True
    out["gem"] = "self_first"
    return out
