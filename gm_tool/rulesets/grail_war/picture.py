"""Map pictures (PNG) for the posts: terrain, strongholds with their owners and territory, and
the characters a viewer sees; cells outside the viewer's vision are fogged (R7).

Three kinds, all from the same drawing: the public map (terrain, strongholds, territory, no
character), a player's map (the public map, fogged outside their vision, with the characters
of their view) and the GM's full map (every living character, no fog).

Only axis-aligned rectangles, pre-computed disc masks and a built-in 3x5 pixel font are drawn,
so the pixels are the same on every machine and Pillow version (no system font is needed).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gm_tool.core.grid import column_name, parse_cell

CELL = 28          # pixels per cell
LEFT, TOP = 22, 16  # room for the row numbers and column letters
PAD = 4

TERRAIN_RGB = {".": (232, 222, 186), "~": (86, 146, 214), "^": (178, 198, 128), "#": (146, 116, 88)}
FOG = (70, 70, 78)
GRID = (120, 112, 96)
NEUTRAL = (150, 150, 150)
SIDE_RGB = {"red": (205, 40, 40), "blue": (40, 78, 205)}
OTHER_SIDES = [(30, 150, 60), (150, 60, 170), (210, 140, 20), (20, 150, 160)]
KIND_RGB = {"hand": (60, 110, 230), "equipment": (220, 50, 50), "heal": (40, 170, 70), "vision": (235, 205, 40),
            "teleport": (140, 60, 200), "bridge": (140, 90, 40)}
DESTROYED = (60, 60, 60)
BACKGROUND = (250, 250, 246)
INK = (30, 30, 30)
WHITE = (255, 255, 255)

# a 3x5 pixel font: digits and capital letters, one string of 15 bits (rows top first) each
_FONT = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001010010010",
    "8": "111101111101111", "9": "111101111001111", "A": "010101111101101", "B": "110101110101110",
    "C": "011100100100011", "D": "110101101101110", "E": "111100110100111", "F": "111100110100100",
    "G": "011100101101011", "H": "101101111101101", "I": "111010010010111", "J": "001001001101010",
    "K": "101101110101101", "L": "100100100100111", "M": "101111111101101", "N": "110101101101101",
    "O": "010101101101010", "P": "110101110100100", "Q": "010101101110011", "R": "110101110101101",
    "S": "011100010001110", "T": "111010010010010", "U": "101101101101111", "V": "101101101101010",
    "W": "101101111111101", "X": "101101010101101", "Y": "101101010010010", "Z": "111001010100111",
    "@": "010101111100011", "?": "111001010000010",
}


@dataclass(frozen=True, slots=True)
class Mark:
    """A character drawn on the map: where, its side, a short label and whether it is the viewer's."""

    pos: str
    side: str
    label: str
    own: bool = False


def side_colour(side: str, sides: list[str]) -> tuple[int, int, int]:
    if side in SIDE_RGB:
        return SIDE_RGB[side]
    others = [s for s in sides if s not in SIDE_RGB]
    return OTHER_SIDES[others.index(side) % len(OTHER_SIDES)] if side in others else NEUTRAL


def size(board: dict[str, Any]) -> tuple[int, int]:
    return LEFT + board["width"] * CELL + PAD, TOP + board["height"] * CELL + PAD


def cell_box(x: int, y: int) -> tuple[int, int, int, int]:
    """The pixel box (left, top, right, bottom; exclusive) of cell (x, y)."""
    left, top = LEFT + x * CELL, TOP + y * CELL
    return left, top, left + CELL, top + CELL


def _text(im, x: int, y: int, text: str, colour: Any, scale: int = 1) -> None:
    """Draw ``text`` with the pixel font, top-left at (x, y); ``colour`` is an RGB triple, or a
    palette index on a palette image."""
    for ch in text.upper():
        im.paste(colour, (x, y), _glyph(ch, scale))
        x += 4 * scale


@lru_cache(maxsize=None)
def _glyph(ch: str, scale: int):
    """The mask (mode "1") of one character of the pixel font at ``scale``."""
    from PIL import Image

    mask = Image.new("1", (3 * scale, 5 * scale), 0)
    for i, bit in enumerate(_FONT.get(ch, _FONT["?"])):
        if bit == "1":
            px, py = (i % 3) * scale, (i // 3) * scale
            mask.paste(1, (px, py, px + scale, py + scale))
    return mask


def text_width(text: str, scale: int = 1) -> int:
    return max(0, 4 * scale * len(text) - scale)


@lru_cache(maxsize=8)
def _disc(radius: int):
    """A disc mask (mode "L": 255 inside, 0 outside) of the given radius: a pixel is inside when
    its centre lies within ``radius`` of the disc's centre."""
    from PIL import Image

    d = 2 * radius
    r2 = radius * radius
    inside = bytes(255 if (x - radius + 0.5) ** 2 + (y - radius + 0.5) ** 2 <= r2 else 0
                   for y in range(d) for x in range(d))
    return Image.frombytes("L", (d, d), inside)


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(a[i] * (1 - t) + b[i] * t) for i in range(3))  # type: ignore[return-value]


def _base(board: dict[str, Any], strongholds: list[dict[str, Any]], sides: list[str], fogged: bool):
    """Terrain, territory tint, tunnel mouths and strongholds (all public knowledge)."""
    from PIL import Image, ImageDraw

    im = Image.new("RGB", size(board), BACKGROUND)
    draw = ImageDraw.Draw(im)
    owner_of: dict[tuple[int, int], str] = {}
    for s in strongholds:
        if s.get("owner"):
            for c in s.get("territory", []):
                owner_of[parse_cell(c)] = s["owner"]
    for y, row in enumerate(board["rows"]):
        for x, ch in enumerate(row):
            colour = TERRAIN_RGB.get(ch, TERRAIN_RGB["."])
            if (x, y) in owner_of:
                colour = _mix(colour, side_colour(owner_of[(x, y)], sides), 0.22)
            if fogged:
                colour = _mix(colour, FOG, 0.62)
            l, t, r, b = cell_box(x, y)
            draw.rectangle([l, t, r - 1, b - 1], fill=colour)
    for tunnel in board.get("tunnels", []):
        for c in tunnel.get("mouths", []):
            l, t, r, b = cell_box(*parse_cell(c))
            draw.rectangle([l + 9, t + 9, r - 10, b - 10], fill=INK)
    for s in strongholds:
        l, t, r, b = cell_box(*parse_cell(s["pos"]))
        ring = side_colour(s["owner"], sides) if s.get("owner") else NEUTRAL
        fill = DESTROYED if s.get("destroyed") else KIND_RGB.get(s["kind"], NEUTRAL)
        draw.rectangle([l + 2, t + 2, r - 3, b - 3], fill=ring)
        draw.rectangle([l + 5, t + 5, r - 6, b - 6], fill=fill)
        label = str(s["id"])
        ink = INK if s["kind"] == "vision" and not s.get("destroyed") else WHITE
        _text(im, l + (CELL - text_width(label)) // 2, t + (CELL - 5) // 2, label, ink)
    for x in range(board["width"] + 1):
        draw.rectangle([LEFT + x * CELL, TOP, LEFT + x * CELL, TOP + board["height"] * CELL], fill=GRID)
    for y in range(board["height"] + 1):
        draw.rectangle([LEFT, TOP + y * CELL, LEFT + board["width"] * CELL, TOP + y * CELL], fill=GRID)
    for x in range(board["width"]):
        label = column_name(x)
        _text(im, LEFT + x * CELL + (CELL - text_width(label, 2)) // 2, 2, label, INK, 2)
    for y in range(board["height"]):
        label = str(y + 1)
        _text(im, LEFT - 3 - text_width(label, 2) // 1, TOP + y * CELL + (CELL - 10) // 2, label, INK, 2)
    return im


def _slots(n: int) -> list[tuple[int, int, int]]:
    """Centres (relative to the cell) and radius for ``n`` markers in one cell."""
    if n <= 1:
        return [(CELL // 2, CELL // 2, 9)]
    q = CELL // 4
    spots = [(q, q), (3 * q, q), (q, 3 * q), (3 * q, 3 * q)]
    return [(x, y, 6) for x, y in spots[:n]] + [(3 * q, 3 * q, 6)] * max(0, n - 4)


class Painter:
    """Draws every picture of one turn: the terrain layers (clear and fogged) are drawn once."""

    def __init__(self, board: dict[str, Any], strongholds: list[dict[str, Any]], sides: list[str]) -> None:
        self.board, self.strongholds, self.sides = board, strongholds, list(sides)
        self._clear = self._fog = None
        self._palette: Any = False  # not computed yet
        self._index: dict[tuple[int, int, int], int] = {}
        self._layers: Any = None

    def clear(self):
        if self._clear is None:
            self._clear = _base(self.board, self.strongholds, self.sides, fogged=False)
        return self._clear

    def fog(self):
        if self._fog is None:
            self._fog = _base(self.board, self.strongholds, self.sides, fogged=True)
        return self._fog

    def palette(self):
        """A palette image holding every colour this turn's pictures can use (the two terrain
        layers, side colours, ink and white), or None if there are more than 256 of them.
        Pictures are mapped onto it exactly (each pixel keeps its colour): a palette PNG holds
        the same pixels as an RGB one and costs a quarter of the time to encode."""
        if self._palette is False:
            from PIL import Image

            colours: set[tuple[int, int, int]] = {INK, WHITE, NEUTRAL, *(side_colour(s, self.sides) for s in self.sides)}
            for base in (self.clear(), self.fog()):
                found = base.getcolors(256)
                colours.update(c for _, c in found or [])
                if found is None:
                    colours = set(range(257))  # type: ignore[arg-type]
            if len(colours) > 256:
                self._palette = None
            else:
                ordered = sorted(colours)
                self._index = {c: i for i, c in enumerate(ordered)}
                pal = Image.new("P", (1, 1))
                pal.putpalette([v for c in ordered for v in c] + [0, 0, 0] * (256 - len(ordered)))
                self._palette = pal
        return self._palette

    def layers(self):
        """The clear and the fogged layer, mapped onto the palette once (when it holds every
        colour), so each picture is composed and drawn in palette mode."""
        if self._layers is None:
            from PIL import Image

            pal = self.palette()
            clear, fog = self.clear(), self.fog()
            if pal is not None:
                clear = clear.quantize(palette=pal, dither=Image.Dither.NONE)
                fog = fog.quantize(palette=pal, dither=Image.Dither.NONE)
            self._layers = (clear, fog)
        return self._layers

    def ink(self, colour: tuple[int, int, int]) -> Any:
        """What to paint ``colour`` with: its palette index in palette mode, else the colour."""
        return self._index[colour] if self.palette() is not None else colour

    def draw(self, marks: list[Mark], visible: list[str] | None = None):
        """The picture as a PIL image. ``visible=None`` draws no fog (the public and the GM's map)."""
        from PIL import Image

        clear, fog = self.layers()
        if visible is not None:
            mask = Image.new("1", clear.size, 0)
            for c in visible:
                mask.paste(1, cell_box(*parse_cell(c)))
            im = Image.composite(clear, fog, mask)
        else:
            im = clear.copy()
        by_cell: dict[str, list[Mark]] = {}
        for mk in marks:
            by_cell.setdefault(mk.pos, []).append(mk)
        for pos in sorted(by_cell, key=lambda p: parse_cell(p)[::-1]):
            group = by_cell[pos]
            left, top, _, _ = cell_box(*parse_cell(pos))
            for mk, (cx, cy, radius) in zip(group, _slots(len(group))):
                x0, y0 = left + cx - radius, top + cy - radius
                if mk.own:
                    im.paste(self.ink(WHITE), (x0 - 2, y0 - 2), _disc(radius + 2))
                else:
                    im.paste(self.ink(INK), (x0 - 1, y0 - 1), _disc(radius + 1))
                im.paste(self.ink(side_colour(mk.side, self.sides)), (x0, y0), _disc(radius))
                label = mk.label[:2]
                _text(im, left + cx - text_width(label) // 2, top + cy - 2, label, self.ink(WHITE))
        return im

    def png(self, marks: list[Mark], visible: list[str] | None = None) -> bytes:
        return png(self.draw(marks, visible))


def marks_of(v: dict[str, Any], player: str | None, labels: dict[str, str] | None = None) -> list[Mark]:
    """The living characters of a view as marks; ``labels`` maps ids to marker labels (default:
    their index in the view, from 1)."""
    labels = labels or {c["id"]: str(i + 1) for i, c in enumerate(v["characters"])}
    height = v["map"]["height"]
    return [Mark(c["pos"], c["side"], labels.get(c["id"], "?"), player is not None and c.get("player") == player)
            for c in v["characters"] if c["alive"] and parse_cell(c["pos"])[1] < height]  # tunnel cells: not drawn


class _PngBuffer(io.BytesIO):
    """An in-memory file named ``*.png``: Pillow then loads only its PNG plugin to save it,
    where an explicit ``format="PNG"`` loads its BMP, GIF, JPEG and PPM plugins too."""

    name = "picture.png"


def png(im) -> bytes:
    """PNG bytes of an image (no timestamp or other varying chunk)."""
    buf = _PngBuffer()
    im.save(buf, compress_level=1)  # a palette picture: level 1 is 2x faster than 6 for ~5 KB more
    return buf.getvalue()


def for_view(v: dict[str, Any], player: str | None, labels: dict[str, str] | None = None) -> bytes:
    """The PNG of a view: a player's view (fogged outside their vision), or with ``player=None``
    the full state: the GM's map."""
    painter = Painter(v["map"], v["strongholds"], v["sides"])
    return painter.png(marks_of(v, player, labels), v.get("visible") if player is not None else None)


def public(state: dict[str, Any]) -> bytes:
    """The public map: terrain, strongholds and territory, no character."""
    return Painter(state["map"], state["strongholds"], state["sides"]).png([])
