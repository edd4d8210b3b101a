"""Vision (R7, rulings G2, M18): what each player sees. Decided here and only here.

A player sees the 5x5 square (``rules.vision`` cells around) of each of their own living
characters standing on the map, plus the squares of the working vision strongholds (5x5) and
新都大桥 (7x7) their side holds. Allies' own squares are not shared. A character inside a tunnel
sees nothing and is seen by nobody (seed l.12 "隧道内玩家只能看见自己，丧失视野"); a player whose
living characters are all inside tunnels has no stronghold vision either.
"""

from __future__ import annotations

from gm_tool.core.grid import Cell, parse_cell, square
from gm_tool.rulesets.grail_war.model import Game


def side_vision(game: Game, side: str) -> set[Cell]:
    """The cells the working vision strongholds and 新都大桥 held by ``side`` show."""
    w, h = game.board.width, game.board.height
    seen: set[Cell] = set()
    for s in game.strongholds:
        if s.owner == side and s.working:
            if s.kind == "vision":
                seen.update(square(s.pos, game.rules["stronghold_vision"], w, h))
            elif s.kind == "bridge":
                seen.update(square(s.pos, game.rules["bridge_vision"], w, h))
    return seen


class Sight:
    """Everyone's end-of-turn vision at once, computed once a turn (cell -> who sees it)."""

    def __init__(self, game: Game):
        board = game.board
        w, h, r = board.width, board.height, game.rules["vision"]
        self.own: dict[str, set[Cell]] = {}
        self.sides: dict[str, list[str]] = {}
        self.eligible: dict[str, bool] = {}
        self.watchers: dict[Cell, list[str]] = {}
        for c in game.characters:
            own = self.own.setdefault(c.player, set())
            sides = self.sides.setdefault(c.player, [])
            self.eligible.setdefault(c.player, False)
            if c.side not in sides:
                sides.append(c.side)
            if c.alive and board.on_board(c.pos):
                self.eligible[c.player] = True
                own.update(square(c.pos, r, w, h))
        for player, cells in self.own.items():
            for cell in cells:
                self.watchers.setdefault(cell, []).append(player)
        self.cover = {side: side_vision(game, side) for side in game.sides}
        self.by_side: dict[str, list[str]] = {side: [] for side in game.sides}
        for player, sides in self.sides.items():
            if self.eligible[player]:
                for side in sides:
                    self.by_side.setdefault(side, []).append(player)

    def cells(self, player: str) -> set[Cell]:
        seen = set(self.own.get(player, ()))
        if self.eligible.get(player):
            for side in self.sides[player]:
                seen |= self.cover.get(side, set())
        return seen

    def sees(self, player: str, cell: Cell) -> bool:
        if cell in self.own.get(player, ()):
            return True
        return bool(self.eligible.get(player)) and any(cell in self.cover.get(s, ()) for s in self.sides[player])

    def audience(self, cells: list[Cell]) -> set[str]:
        """Every player who sees all of ``cells``."""
        who: set[str] = set()
        for side, players in self.by_side.items():
            cover = self.cover.get(side, ())
            if all(c in cover for c in cells):
                who.update(players)
        for cell in cells:
            for p in self.watchers.get(cell, ()):
                if p not in who and all(self.sees(p, c) for c in cells):
                    who.add(p)
        return who


def _visible(mine: list[tuple[Cell, bool, str]], strongholds: list[tuple[Cell, str, str | None, bool]],
             width: int, height: int, rules: dict) -> set[Cell]:
    """The one rule, on plain values: ``mine`` = (cell, alive, side) of the player's characters,
    ``strongholds`` = (cell, kind, owner, working)."""
    seen: set[Cell] = set()
    sides: list[str] = []
    eligible = False
    for pos, alive, side in mine:
        if side not in sides:
            sides.append(side)
        if alive and 0 <= pos[1] < height:
            eligible = True
            seen.update(square(pos, rules["vision"], width, height))
    if eligible:
        for pos, kind, owner, working in strongholds:
            if owner in sides and working and kind in ("vision", "bridge"):
                radius = rules["stronghold_vision"] if kind == "vision" else rules["bridge_vision"]
                seen.update(square(pos, radius, width, height))
    return seen


def visible_cells(game: Game, player: str) -> set[Cell]:
    """The cells ``player`` sees at the end of a turn (see the module docstring)."""
    return _visible([(c.pos, c.alive, c.side) for c in game.characters if c.player == player],
                    [(s.pos, s.kind, s.owner, s.working) for s in game.strongholds],
                    game.board.width, game.board.height, game.rules)


def visible_in_state(state: dict, player: str) -> set[Cell]:
    """:func:`visible_cells` straight from a state's JSON (no Game built: views are made often)."""
    return _visible([(parse_cell(c["pos"]), c["alive"], c["side"]) for c in state["characters"] if c["player"] == player],
                    [(parse_cell(s["pos"]), s["kind"], s.get("owner"),
                      not s.get("destroyed", False) and not s.get("closed", False)) for s in state["strongholds"]],
                    state["map"]["width"], state["map"]["height"], state["rules"])


def assign_audiences(game: Game, events: list[dict]) -> None:
    """Give each private event its audience: the players it names as ``actors`` plus every player
    whose end-of-turn vision covers all of its ``cells`` (G2: vision is had at the end of a turn)."""
    sight: Sight | None = None
    cache: dict[str, Cell] = {}
    seen_by: dict[tuple[str, ...], set[str]] = {}  # a turn's events name the same cells again and again
    for e in events:
        if e["to"] == "all" or not (e.get("cells") or e.get("actors")):
            continue
        names = e.get("cells") or []
        who = set(e.get("actors", []))
        if names:
            key = tuple(names)
            if key not in seen_by:
                if sight is None:
                    sight = Sight(game)
                cells = []
                for n in names:
                    if n not in cache:
                        cache[n] = parse_cell(n)
                    cells.append(cache[n])
                seen_by[key] = sight.audience(cells)
            who |= seen_by[key]
        e["to"] = sorted(who)
