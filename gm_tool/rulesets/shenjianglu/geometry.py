"""Board geometry (seed 3.9, 3.11.3; rulings 1-2).

Cells are squares of a rectangle (``gm_tool.core.grid`` names them). Adjacent = sharing a side.
Distance and range are the length of the shortest route of straight segments along rows and
columns (the Manhattan distance), whatever stands between, void cells included (3.11.3).
Movement walks from cell to side-adjacent cell over the board (never into void), through own
and allied units, never through an enemy, and ends on a free cell (3.9).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from gm_tool.core.grid import Cell, cell_name, parse_cell

OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
VECTORS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


class _Cells(dict):
    """``CELLS[name]``: the cell a state's cell name stands for, parsed once per process (states
    name the same few dozen cells again and again)."""

    def __missing__(self, name: str) -> Cell:
        cell = parse_cell(name)
        if len(self) < 1 << 14:
            self[name] = cell
        return cell


CELLS = _Cells()


def distance(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def side_of(here: Cell, facing: str, other: Cell) -> str:
    """Where ``other`` stands as seen from a unit at ``here`` facing ``facing`` (ruling 28):
    ``front`` or ``back`` when it lies at least as far along the facing line as across it (the
    diagonals belong to front and back), ``side`` otherwise."""
    fx, fy = VECTORS[facing]
    dx, dy = other[0] - here[0], other[1] - here[1]
    along = dx * fx + dy * fy
    across = abs(dx * fy - dy * fx)
    if along > 0 and along >= across:
        return "front"
    if along < 0 and -along >= across:
        return "back"
    return "side"


def direction(frm: Cell, to: Cell) -> tuple[int, int] | None:
    """The one step from ``frm`` towards ``to`` along the longer axis (ruling 30: a tie, an exact
    diagonal, goes along the column, north or south); None for the same cell."""
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    if dx == dy == 0:
        return None
    if abs(dx) > abs(dy):
        return (1 if dx > 0 else -1, 0)
    return (0, 1 if dy > 0 else -1)


def in_line(a: Cell, b: Cell) -> bool:
    return a != b and (a[0] == b[0] or a[1] == b[1])


class Board:
    """A board from its state mapping (width, height, void, thrones, spawns, facing)."""

    __slots__ = ("width", "height", "void", "cells", "thrones", "spawns", "facing", "steps")

    def __init__(self, data: dict[str, Any]):
        self.width, self.height = data["width"], data["height"]
        self.void = frozenset(parse_cell(c) for c in data.get("void", []))
        self.cells = [(x, y) for y in range(self.height) for x in range(self.width) if (x, y) not in self.void]
        self.thrones = {int(k): parse_cell(v) for k, v in data["thrones"].items()}
        self.spawns = {int(k): [parse_cell(c) for c in v] for k, v in data["spawns"].items()}
        self.facing = {int(k): v for k, v in data["facing"].items()}
        on = set(self.cells)
        self.steps = {c: tuple(n for n in ((c[0], c[1] - 1), (c[0] + 1, c[1]), (c[0], c[1] + 1), (c[0] - 1, c[1]))
                               if n in on) for c in self.cells}

    def on_board(self, cell: Cell) -> bool:
        return cell in self.steps

    def reach(self, start: Cell, budget: int, blocked: set[Cell]) -> dict[Cell, tuple[int, Cell | None]]:
        """Cells reachable from ``start`` in at most ``budget`` steps, never entering ``blocked``
        (enemy-held cells): ``{cell: (distance, previous)}``, ties broken N, E, S, W."""
        found: dict[Cell, tuple[int, Cell | None]] = {start: (0, None)}
        queue = deque([start])
        steps = self.steps
        while queue:
            cur = queue.popleft()
            d = found[cur][0]
            if d >= budget:
                continue
            for nxt in steps[cur]:
                if nxt not in found and nxt not in blocked:
                    found[nxt] = (d + 1, cur)
                    queue.append(nxt)
        return found

    def route(self, start: Cell, points: list[Cell], budget: int, blocked: set[Cell]) -> list[Cell] | None:
        """The shortest route from ``start`` through each of ``points`` in order (excluding
        ``start``), at most ``budget`` steps long in all, or None."""
        path: list[Cell] = []
        cur = start
        for point in points:
            found = self.reach(cur, budget - len(path), blocked)
            if point not in found:
                return None
            leg = []
            p: Cell | None = point
            while p is not None and p != cur:
                leg.append(p)
                p = found[p][1]
            path.extend(reversed(leg))
            cur = point
        return path


_BOARDS: dict[int, tuple[dict[str, Any], Board]] = {}


def board_of(state: dict[str, Any]) -> Board:
    """The Board of a state, built once per board mapping (the mapping is kept alive with it,
    so its id cannot be reused while cached)."""
    data = state["board"]
    hit = _BOARDS.get(id(data))
    if hit is None or hit[0] is not data:
        if len(_BOARDS) > 256:
            _BOARDS.clear()
        hit = _BOARDS[id(data)] = (data, Board(data))
    return hit[1]


def names(cells: list[Cell]) -> list[str]:
    return [cell_name(c) for c in cells]
