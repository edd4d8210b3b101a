"""Vision (R7): what each player sees. Decided here and only here."""

from __future__ import annotations

from gm_tool.core.grid import Cell, square
from gm_tool.rulesets.grail_war.model import Game


def visible_cells(game: Game, player: str) -> set[Cell]:
    """The player's own 5x5 square(s) around their living characters, plus the vision of
    working vision strongholds and 新都大桥 held by their side. Allies' vision is not shared."""
    w, h = game.board.width, game.board.height
    seen: set[Cell] = set()
    sides = set()
    for c in game.of_player(player):
        sides.add(c.side)
        if c.alive:
            seen.update(square(c.pos, game.rules["vision"], w, h))
    for s in game.strongholds:
        if s.owner in sides and s.working:
            if s.kind == "vision":
                seen.update(square(s.pos, game.rules["stronghold_vision"], w, h))
            elif s.kind == "bridge":
                seen.update(square(s.pos, game.rules["bridge_vision"], w, h))
    return seen


def assign_audiences(game: Game, events: list[dict]) -> None:
    """Give each private event its audience: the players it names as ``actors`` plus every player
    whose end-of-turn vision covers all of its ``cells`` (R7: vision is had at the end of a turn)."""
    from gm_tool.core.grid import parse_cell

    vis = {p: visible_cells(game, p) for p in game.players()}
    for e in events:
        if e["to"] == "all" or not (e.get("cells") or e.get("actors")):
            continue
        cells = [parse_cell(c) for c in e.get("cells", [])]
        who = set(e.get("actors", [])) | {p for p, seen in vis.items() if cells and all(c in seen for c in cells)}
        e["to"] = sorted(who)
