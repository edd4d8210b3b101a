"""Map pictures (PNG) for the posts: terrain, strongholds with their owners and territory, and
the characters a viewer sees; cells outside the viewer's vision are fogged (R7).

Three kinds, all from the same drawing: the public map (terrain, strongholds, territory, no
character), a player's map (the public map, fogged outside their vision, with the characters
of their view) and the GM's full map (every living character, no fog). The grid, the pixel
font, tokens, fog and PNG encoding are the core's (:mod:`gm_tool.core.picture`).
"""

from __future__ import annotations

from typing import Any

from gm_tool.core import picture as core
from gm_tool.core.grid import parse_cell
from gm_tool.core.picture import INK, NEUTRAL, WHITE, Mark, mix, side_colour, text, text_width

TERRAIN_RGB = {".": (232, 222, 186), "~": (86, 146, 214), "^": (178, 198, 128), "#": (146, 116, 88)}
KIND_RGB = {"hand": (60, 110, 230), "equipment": (220, 50, 50), "heal": (40, 170, 70), "vision": (235, 205, 40),
            "teleport": (140, 60, 200), "bridge": (140, 90, 40)}
DESTROYED = (60, 60, 60)
CELL = core.GridPainter.cell


def cell_box(x: int, y: int) -> tuple[int, int, int, int]:
    """The pixel box (left, top, right, bottom; exclusive) of cell (x, y)."""
    return core.GridPainter(1, 1, []).cell_box(x, y)


class Painter(core.GridPainter):
    """Fuyuki-style maps: terrain, territory tint, tunnel mouths and strongholds."""

    def __init__(self, board: dict[str, Any], strongholds: list[dict[str, Any]], sides: list[str],
                 closed: list[str] | tuple[str, ...] = ()) -> None:
        super().__init__(board["width"], board["height"], sides)
        self.board, self.strongholds = board, strongholds
        # cells the GM closed (流局) and closed strongholds: crossed out while closed
        self.closed = [parse_cell(c) for c in closed] + [parse_cell(s["pos"]) for s in strongholds if s.get("closed")]
        self.owner_of: dict[tuple[int, int], str] = {}
        for s in strongholds:
            if s.get("owner"):
                for c in s.get("territory", []):
                    self.owner_of[parse_cell(c)] = s["owner"]

    def cell_colour(self, x: int, y: int, fogged: bool) -> tuple[int, int, int]:
        colour = TERRAIN_RGB.get(self.board["rows"][y][x], TERRAIN_RGB["."])
        if (x, y) in self.owner_of:
            colour = mix(colour, side_colour(self.owner_of[(x, y)], self.sides), 0.22)
        return mix(colour, core.FOG, 0.62) if fogged else colour

    def decorate(self, im: Any, draw: Any, fogged: bool) -> None:
        for tunnel in self.board.get("tunnels", []):
            for c in tunnel.get("mouths", []):
                l, t, r, b = self.cell_box(*parse_cell(c))
                draw.rectangle([l + 9, t + 9, r - 10, b - 10], fill=INK)
        for s in self.strongholds:
            l, t, r, b = self.cell_box(*parse_cell(s["pos"]))
            ring = side_colour(s["owner"], self.sides) if s.get("owner") else NEUTRAL
            fill = DESTROYED if s.get("destroyed") else KIND_RGB.get(s["kind"], NEUTRAL)
            draw.rectangle([l + 2, t + 2, r - 3, b - 3], fill=ring)
            draw.rectangle([l + 5, t + 5, r - 6, b - 6], fill=fill)
            label = str(s["id"])
            ink = INK if s["kind"] == "vision" and not s.get("destroyed") else WHITE
            text(im, l + (self.cell - text_width(label)) // 2, t + (self.cell - 5) // 2, label, ink)
        for x, y in self.closed:
            if 0 <= x < self.width and 0 <= y < self.height:
                self.cross(draw, x, y)

    def cross(self, draw: Any, x: int, y: int) -> None:
        """An X over a cell, drawn in 2x2 squares (no anti-aliasing: the same pixels everywhere)."""
        l, t, r, b = self.cell_box(x, y)
        for i in range(3, self.cell - 4):
            draw.rectangle([l + i, t + i, l + i + 1, t + i + 1], fill=INK)
            draw.rectangle([r - 2 - i, t + i, r - 1 - i, t + i + 1], fill=INK)


def marks_of(v: dict[str, Any], player: str | None, labels: dict[str, str] | None = None) -> list[Mark]:
    """The living characters of a view as marks; ``labels`` maps ids to marker labels (default:
    their index in the view, from 1)."""
    labels = labels or {c["id"]: str(i + 1) for i, c in enumerate(v["characters"])}
    height = v["map"]["height"]
    return [Mark(c["pos"], c["side"], labels.get(c["id"], "?"), player is not None and c.get("player") == player)
            for c in v["characters"] if c["alive"] and parse_cell(c["pos"])[1] < height]  # tunnel cells: not drawn


def for_view(v: dict[str, Any], player: str | None, labels: dict[str, str] | None = None) -> bytes:
    """The PNG of a view: a player's view (fogged outside their vision), or with ``player=None``
    the full state: the GM's map."""
    painter = Painter(v["map"], v["strongholds"], v["sides"], v.get("closed_cells") or ())
    return painter.png(marks_of(v, player, labels), v.get("visible") if player is not None else None)


def public(state: dict[str, Any]) -> bytes:
    """The public map: terrain, strongholds and territory, no character."""
    return Painter(state["map"], state["strongholds"], state["sides"], state.get("closed_cells") or ()).png([])
