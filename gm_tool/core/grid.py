"""Square-grid geometry: cell names, distances, areas and shortest paths.

A cell is an ``(x, y)`` tuple, both from 0. Its name is the column letters (A-Z, then
AA, AB, ... for wide maps) and the row from 1: ``(2, 10)`` is ``C11``.

>>> parse_cell("C11"), parse_cell("(C,11)"), cell_name((2, 10))
((2, 10), (2, 10), 'C11')
>>> chebyshev((0, 0), (2, 1)), manhattan((0, 0), (2, 1))
(2, 3)
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

Cell = tuple[int, int]

ORTHOGONAL: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))

# C11, C,11, (C,11) and the full-width forms a Chinese keyboard types: （C，11）, 【C11】, Ｃ１１.
# _parse_name maps the full-width letters, digits and punctuation to ASCII first (a full-width
# mark to the ASCII mark allowed in the same place), so the pattern is ASCII: a character class
# holding （【，、）】 cost ~0.4 ms to compile at every start, this one 0.08 ms
_CELL_RE = re.compile(r"^[(\[]?\s*([A-Za-z]{1,3})\s*,?\s*(\d{1,4})\s*[)\]]?$")


def column_name(x: int) -> str:
    """0 -> 'A', 25 -> 'Z', 26 -> 'AA'."""
    letters = ""
    x += 1
    while x:
        x, rem = divmod(x - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def column_index(letters: str) -> int:
    x = 0
    for ch in letters.upper():
        x = x * 26 + (ord(ch) - 64)
    return x - 1


_NAMES: dict[Cell, str] = {}


def cell_name(cell: Cell) -> str:
    try:
        return _NAMES[cell]  # states and events name the same cells again and again
    except (KeyError, TypeError):
        pass
    name = f"{column_name(cell[0])}{cell[1] + 1}"
    if type(cell) is tuple and len(_NAMES) < 1 << 16:
        _NAMES[cell] = name
    return name


def parse_cell(text: object, width: int | None = None, height: int | None = None) -> Cell:
    """Parse ``C11``, ``C,11``, ``(C,11)`` and the full-width ``（C，11）`` (any case, spaces allowed).
    Raise ValueError if malformed
    or outside a ``width`` x ``height`` board when those are given."""
    if not isinstance(text, str):
        raise ValueError(f"not a cell: {text!r}")
    if width is None:  # fast path for names already seen (no bounds to check)
        cell = _SEEN.get(text)
        if cell is not None:
            return cell
    cell = _parse_name(text)
    if cell is None:
        raise ValueError(f"not a cell: {text!r}")
    if cell[1] < 0 or (width is not None and height is not None and not in_bounds(cell, width, height)):
        raise ValueError(f"off the board: {text!r}")
    return cell


_SEEN: dict[str, Cell] = {}  # names already parsed, of cells on some board (row from 1)


def parse_cells(texts: list) -> list[Cell]:
    """``[parse_cell(t) for t in texts]``, faster when every name was seen before (a state names
    the same cells every turn)."""
    try:
        cells = list(map(_SEEN.get, texts))
    except TypeError:  # something unhashable: parse_cell says what is wrong
        cells = [None]
    if None in cells:
        return [parse_cell(t) for t in texts]
    return cells  # type: ignore[return-value]  # no None left


def cell_names(cells: list[Cell]) -> list[str]:
    """``[cell_name(c) for c in cells]``, faster when every cell was named before."""
    try:
        return list(map(_NAMES.__getitem__, cells))
    except (KeyError, TypeError):
        return [cell_name(c) for c in cells]


_FULL_WIDTH = {ord(c): ord(c) - 0xFEE0 for c in "ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚ０１２３４５６７８９"}
_FULL_WIDTH.update({ord(c): ord(a) for c, a in zip("（【，、）】", "([,,)]")})


@lru_cache(maxsize=1 << 16)
def _parse_name(text: str) -> Cell | None:
    """The cell a text names, or None (cached: states name the same cells again and again)."""
    m = _CELL_RE.match(text.strip().translate(_FULL_WIDTH))
    cell = (column_index(m.group(1)), int(m.group(2)) - 1) if m else None
    if cell is not None and cell[1] >= 0 and len(_SEEN) < 1 << 16:
        _SEEN[text] = cell
    return cell


def in_bounds(cell: Cell, width: int, height: int) -> bool:
    return 0 <= cell[0] < width and 0 <= cell[1] < height


def manhattan(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def chebyshev(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def neighbours(cell: Cell, width: int, height: int) -> Iterator[Cell]:
    x, y = cell
    for dx, dy in ORTHOGONAL:
        nx, ny = x + dx, y + dy
        if 0 <= nx < width and 0 <= ny < height:
            yield (nx, ny)


def square(center: Cell, radius: int, width: int, height: int) -> list[Cell]:
    """Cells of the (2r+1)x(2r+1) square around ``center``, clipped to the board, row by row."""
    cx, cy = center
    return [(x, y)
            for y in range(max(0, cy - radius), min(height, cy + radius + 1))
            for x in range(max(0, cx - radius), min(width, cx + radius + 1))]


def straight_line(a: Cell, b: Cell) -> list[Cell] | None:
    """The cells strictly between ``a`` and ``b`` if they share a row or column, else None."""
    if a[0] != b[0] and a[1] != b[1]:
        return None
    dx = (b[0] > a[0]) - (b[0] < a[0])
    dy = (b[1] > a[1]) - (b[1] < a[1])
    cells, cur = [], (a[0] + dx, a[1] + dy)
    while cur != b:
        cells.append(cur)
        cur = (cur[0] + dx, cur[1] + dy)
    return cells


StepOk = Callable[[Cell, Cell], bool]


def reachable(start: Cell, budget: int, step_ok: StepOk, width: int, height: int) -> dict[Cell, int]:
    """Every cell reachable in at most ``budget`` orthogonal steps, with its distance."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        d = dist[cur]
        if d == budget:
            continue
        for nxt in neighbours(cur, width, height):
            if nxt not in dist and step_ok(cur, nxt):
                dist[nxt] = d + 1
                queue.append(nxt)
    return dist


def shortest_path(start: Cell, goal: Cell, step_ok: StepOk, width: int, height: int,
                  limit: int | None = None) -> list[Cell] | None:
    """A shortest orthogonal path from ``start`` to ``goal`` (excluding ``start``), or None.

    Ties are broken the same way every time (neighbour order N, E, S, W), so paths are
    deterministic. ``limit`` bounds the search depth.
    """
    if start == goal:
        return []
    prev: dict[Cell, Cell] = {start: start}
    depth = {start: 0}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        if limit is not None and depth[cur] >= limit:
            continue
        for nxt in neighbours(cur, width, height):
            if nxt in prev or not step_ok(cur, nxt):
                continue
            prev[nxt] = cur
            depth[nxt] = depth[cur] + 1
            if nxt == goal:
                path = [nxt]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                path.pop()
                return path[::-1]
            queue.append(nxt)
    return None


def path_through(start: Cell, waypoints: Iterable[Cell], step_ok: StepOk, width: int, height: int) -> list[Cell] | None:
    """Chain shortest paths through each waypoint in order; None if any leg is impossible."""
    path: list[Cell] = []
    cur = start
    for point in waypoints:
        leg = shortest_path(cur, point, step_ok, width, height)
        if leg is None:
            return None
        path.extend(leg)
        cur = point
    return path
