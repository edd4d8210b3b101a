"""The board as a PNG, readable on a phone: the core's grid painter with cells large enough for
a picture at least MIN_WIDTH pixels wide; generals as discs in their side's colour with their
stable two-character marks (bodies grey), the general acting ringed in white, obstacles by
grade (II rock, III 天堑, IV wall). Under the board a legend in the picture's own font (capitals
and digits): each side's colour with its generals' marks, the symbols, and the round's order
(who has acted, who is acting, who is still to come). The post's text names every mark."""

from __future__ import annotations

from typing import Any

from gm_tool.core import picture as pic
from gm_tool.core.grid import parse_cell
from gm_tool.rulesets.hunlu.narrate import marks

GRADE_RGB: dict[int, pic.RGB] = {2: (120, 110, 95), 3: (40, 40, 70), 4: (30, 30, 30)}
MIN_WIDTH = 600  # pixels: a board picture readable on a phone
FONT = 2  # pixel size of the legend's font


class Painter(pic.GridPainter):
    """The board at least MIN_WIDTH pixels wide (tokens and labels grow with the cells)."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__(state["map"]["width"], state["map"]["height"], list(state["sides"]))
        self.left, self.top, self.header_scale = 34, 22, 3
        self.cell = max(pic.GridPainter.cell, -(-(MIN_WIDTH - self.left - self.pad) // self.width))
        self.label_scale = min(4, max(1, self.cell // 18))
        self.terrain = {parse_cell(o["pos"]): o["grade"] for o in state["obstacles"]}

    def cell_colour(self, x: int, y: int, fogged: bool) -> pic.RGB:
        grade = self.terrain.get((x, y))
        return GRADE_RGB[grade] if grade else super().cell_colour(x, y, fogged)

    def extra_colours(self) -> set[pic.RGB]:
        return set(GRADE_RGB.values())

    def fog(self) -> Any:
        """No fog in 魂陆 (the whole board is public): no fogged layer is drawn."""
        return self.clear()

    def layers(self) -> tuple[Any, Any]:
        """The one layer, mapped onto the palette; the full-colour board is let go once mapped
        (`gm resolve`'s peak memory: a 600-pixel board is an image of over a megabyte)."""
        if self._layers is None:
            from PIL import Image

            pal = self.palette()
            board = self.clear()
            if pal is not None:
                board = board.quantize(palette=pal, dither=Image.Dither.NONE)
                self._clear = None
            self._layers = (board, board)
        return self._layers

    def slots(self, n: int) -> list[tuple[int, int, int]]:
        return [(x, y, r * self.cell // 28) for x, y, r in super().slots(n)]

    def picture(self, state: dict[str, Any]) -> bytes:
        """The board and its legend as PNG bytes."""
        labels = marks(state)
        due = acting(state)
        board = self.draw([pic.Mark(u["pos"], u["side"] if u["alive"] else "dead", labels[u["id"]], own=u["id"] == due)
                           for u in state["units"] if u["pos"]])
        return pic.png(self.with_legend(board, legend_rows(state, labels, due), FONT))


def acting(state: dict[str, Any]) -> str | None:
    """The general whose turn it is (None once the game is over or nobody can act)."""
    return None if state.get("winner") is not None else (state.get("next") or {}).get("unit")


def drawable(word: str) -> str:
    """``word`` in the picture's font (capitals and digits), or "" when it has other letters."""
    return word.upper() if word.isascii() and word.replace("_", "").isalnum() else ""


def legend_rows(state: dict[str, Any], labels: dict[str, str], due: str | None) -> list[list[tuple[str, pic.RGB | None]]]:
    """The legend under the board: one line per side (its colour, its name, its generals'
    marks), the symbols, the round's order: DONE (acted), NOW (ringed in white on the board),
    NEXT (still to act)."""
    sides = list(state["sides"])
    rows: list[list[tuple[str, pic.RGB | None]]] = []
    for i, side in enumerate(sides):
        units = [labels[u["id"]] for u in state["units"] if u["side"] == side and u["alive"]]
        rows.append([(drawable(side) or f"SIDE {i + 1}", pic.side_colour(side, sides)), (" ".join(units), None)])
    rows.append([("DEAD", pic.NEUTRAL), ("ROCK", GRADE_RGB[2]), ("CHASM", GRADE_RGB[3]), ("WALL", GRADE_RGB[4])])
    if state.get("winner") is None:
        done = [labels[u] for u in state["order"] if u in state["acted"] and u != due]
        later = [labels[u] for u in state["order"] if u not in state["acted"] and u != due]
        row: list[tuple[str, pic.RGB | None]] = [(f"ROUND {state['round']}", None)]
        row += [("DONE " + " ".join(done), None)] if done else []
        row += [("NOW " + labels[due], None)] if due else []
        row += [("NEXT " + " ".join(later), None)] if later else []
        rows.append(row)
    return rows


def board_png(state: dict[str, Any]) -> bytes:
    return Painter(state).picture(state)

