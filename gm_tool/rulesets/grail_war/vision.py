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
    """Everyone's end-of-turn vision at once, computed once a turn.

    A player's own squares are not built cell by cell: a cell is in one when a living character
    of theirs on the map stands at most ``rules.vision`` rows and columns away (Chebyshev). To
    find who stands near a cell, characters are filed in blocks of (2r+1) x (2r+1) cells, so the
    characters within reach of any cell are in at most four blocks."""

    def __init__(self, game: Game):
        board = game.board
        w, h, r = board.width, board.height, game.rules["vision"]
        self.width, self.height, self.radius = w, h, r
        self.block = size = max(1, 2 * r + 1)
        self.posts: dict[str, list[Cell]] = {}  # player -> cells of their living characters on the map
        self.sides: dict[str, list[str]] = {}
        self.blocks: dict[Cell, list[tuple[str, int, int]]] = {}
        posts_of, sides_of, blocks = self.posts, self.sides, self.blocks
        for c in game.characters:
            player = c.player
            posts = posts_of.get(player)
            if posts is None:
                posts = posts_of[player] = []
                sides_of[player] = [c.side]
            elif c.side not in sides_of[player]:
                sides_of[player].append(c.side)
            x, y = c.pos
            if c.alive and 0 <= x < w and 0 <= y < h:
                posts.append(c.pos)
                key = (x // size, y // size)
                filed = blocks.get(key)
                if filed is None:
                    blocks[key] = [(player, x, y)]
                else:
                    filed.append((player, x, y))
        self.cover = {side: side_vision(game, side) for side in game.sides}
        self.by_side: dict[str, list[str]] = {side: [] for side in game.sides}
        for player, sides in sides_of.items():
            if posts_of[player]:
                for side in sides:
                    self.by_side.setdefault(side, []).append(player)
        self._near: dict[Cell, list[str]] = {}
        self._viewers: dict[Cell, frozenset[str]] = {}

    def near(self, cell: Cell) -> list[str]:
        """The players whose own squares hold ``cell`` (a player may be named more than once)."""
        found = self._near.get(cell)
        if found is None:
            found = []
            x, y = cell
            r, size = self.radius, self.block
            if 0 <= x < self.width and 0 <= y < self.height:
                xs = {(x - r) // size, (x + r) // size}
                for by in {(y - r) // size, (y + r) // size}:
                    for bx in xs:
                        for player, px, py in self.blocks.get((bx, by), ()):
                            if -r <= px - x <= r and -r <= py - y <= r:
                                found.append(player)
            self._near[cell] = found
        return found

    def own(self, player: str, cell: Cell) -> bool:
        """Whether ``cell`` is in the square of one of the player's characters."""
        x, y = cell
        if not (0 <= x < self.width and 0 <= y < self.height):
            return False
        r = self.radius
        return any(-r <= px - x <= r and -r <= py - y <= r for px, py in self.posts.get(player, ()))

    def cells(self, player: str) -> set[Cell]:
        seen: set[Cell] = set()
        for pos in self.posts.get(player, ()):
            seen.update(square(pos, self.radius, self.width, self.height))
        if self.posts.get(player):
            for side in self.sides[player]:
                seen |= self.cover.get(side, set())
        return seen

    def sees(self, player: str, cell: Cell) -> bool:
        if self.own(player, cell):
            return True
        return bool(self.posts.get(player)) and any(cell in self.cover.get(s, ()) for s in self.sides[player])

    def viewers(self, cell: Cell) -> frozenset[str]:
        """Every player who sees ``cell`` (kept: a turn's events name the same cells again)."""
        found = self._viewers.get(cell)
        if found is None:
            seers = set(self.near(cell))
            for side, cover in self.cover.items():
                if cell in cover:
                    seers.update(self.by_side.get(side, ()))
            found = self._viewers[cell] = frozenset(seers)
        return found

    def audience(self, cells: list[Cell]) -> frozenset[str]:
        """Every player who sees all of ``cells``."""
        if not cells:
            return frozenset(p for players in self.by_side.values() for p in players)
        who = self.viewers(cells[0])
        for cell in cells[1:]:
            if not who:
                break
            who = who & self.viewers(cell)
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
    whose end-of-turn vision covers all of its ``cells`` (G2: vision is had at the end of a turn),
    less the players it names as ``told_apart`` (they learn it from a fuller private event)."""
    sight: Sight | None = None
    by_name: dict[str, frozenset[str]] = {}  # a turn's events name the same cells again and again
    for e in events:
        if e["to"] == "all":
            continue
        names = e.get("cells")
        actors = e.get("actors")
        apart = e.get("told_apart")
        if not names:
            if actors:
                e["to"] = sorted(set(actors).difference(apart or ()))
            continue
        if sight is None:
            sight = Sight(game)
        who: frozenset[str] | None = None
        for name in names:
            seers = by_name.get(name)
            if seers is None:
                seers = by_name[name] = sight.viewers(parse_cell(name))
            who = seers if who is None else who & seers
            if not who:
                break
        assert who is not None
        who = who.union(actors) if actors else who
        e["to"] = sorted(who.difference(apart) if apart else who)
