"""The board as a PNG, painted by the core's grid painter: generals as discs in their side's
colour (bodies grey), obstacles by grade (II rock, III 天堑, IV wall)."""

from __future__ import annotations

from typing import Any

from gm_tool.core.grid import parse_cell

GRADE_RGB = {2: (120, 110, 95), 3: (40, 40, 70), 4: (30, 30, 30)}


def board_png(state: dict[str, Any], viewer: str | None = None) -> bytes:
    from gm_tool.core import picture

    terrain = {parse_cell(o["pos"]): o["grade"] for o in state["obstacles"]}

    class Painter(picture.GridPainter):
        def cell_colour(self, x: int, y: int, fogged: bool) -> Any:
            grade = terrain.get((x, y))
            return GRADE_RGB[grade] if grade else super().cell_colour(x, y, fogged)

        def extra_colours(self) -> set:
            return set(GRADE_RGB.values())

    painter = Painter(state["map"]["width"], state["map"]["height"], list(state["sides"]))
    marks = [picture.Mark(u["pos"], u["side"] if u["alive"] else "dead", u["id"][:2].upper(),
                          own=viewer is not None and u["player"] == viewer)
             for u in state["units"] if u["pos"]]
    return painter.png(marks)
