"""Board pictures (PNG) for posts: a grid of cells with column letters and row numbers, tokens,
and fog outside a viewer's sight.

Only axis-aligned rectangles, pre-computed disc masks and a built-in 3x5 pixel font (digits
and capital letters) are drawn, so the pixels are the same on every machine and Pillow version
(no system font is needed). Pictures are composed and encoded in palette mode when the colours
fit (a palette PNG holds the same pixels as an RGB one and is much faster to encode).

A ruleset subclasses :class:`GridPainter`: ``cell_colour`` colours a cell, ``decorate`` draws
what lies on the board itself (public features), ``mark_colour`` colours a token.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from gm_tool.core.grid import column_name, parse_cell

RGB = tuple[int, int, int]

BACKGROUND: RGB = (250, 250, 246)
GROUND: RGB = (232, 222, 186)
FOG: RGB = (70, 70, 78)
GRID: RGB = (120, 112, 96)
NEUTRAL: RGB = (150, 150, 150)
INK: RGB = (30, 30, 30)
WHITE: RGB = (255, 255, 255)
SIDE_RGB: dict[str, RGB] = {"red": (205, 40, 40), "blue": (40, 78, 205)}
OTHER_SIDES: list[RGB] = [(30, 150, 60), (150, 60, 170), (210, 140, 20), (20, 150, 160)]

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
    """A token drawn on the board: where, its side, a short label (two characters are drawn)
    and whether it belongs to the viewer (a white ring)."""

    pos: str
    side: str
    label: str
    own: bool = False


def side_colour(side: str, sides: list[str]) -> RGB:
    """Red and blue are fixed; other sides take the next free colour in their listed order."""
    if side in SIDE_RGB:
        return SIDE_RGB[side]
    others = [s for s in sides if s not in SIDE_RGB]
    return OTHER_SIDES[others.index(side) % len(OTHER_SIDES)] if side in others else NEUTRAL


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return tuple(round(a[i] * (1 - t) + b[i] * t) for i in range(3))  # type: ignore[return-value]


def text(im: Any, x: int, y: int, label: str, colour: Any, scale: int = 1) -> None:
    """Draw ``label`` with the pixel font, top-left at (x, y); ``colour`` is an RGB triple, or a
    palette index on a palette image. Characters outside the font print as ``?``."""
    for ch in label.upper():
        im.paste(colour, (x, y), _glyph(ch, scale))
        x += 4 * scale


@cache
def _glyph(ch: str, scale: int) -> Any:
    """The mask (mode "1") of one character of the pixel font at ``scale``."""
    from PIL import Image

    mask = Image.new("1", (3 * scale, 5 * scale), 0)
    for i, bit in enumerate(_FONT.get(ch, _FONT["?"])):
        if bit == "1":
            px, py = (i % 3) * scale, (i // 3) * scale
            mask.paste(1, (px, py, px + scale, py + scale))
    return mask


def text_width(label: str, scale: int = 1) -> int:
    return max(0, 4 * scale * len(label) - scale)


@lru_cache(maxsize=8)
def disc(radius: int) -> Any:
    """A disc mask (mode "L": 255 inside, 0 outside) of the given radius: a pixel is inside when
    its centre lies within ``radius`` of the disc's centre."""
    from PIL import Image

    d = 2 * radius
    r2 = radius * radius
    inside = bytes(255 if (x - radius + 0.5) ** 2 + (y - radius + 0.5) ** 2 <= r2 else 0
                   for y in range(d) for x in range(d))
    return Image.frombytes("L", (d, d), inside)


class _PngBuffer(io.BytesIO):
    """An in-memory file named ``*.png``: Pillow then loads only its PNG plugin to save it,
    where an explicit ``format="PNG"`` loads its BMP, GIF, JPEG and PPM plugins too."""

    name = "picture.png"


def png(im: Any) -> bytes:
    """PNG bytes of an image (no timestamp or other varying chunk)."""
    buf = _PngBuffer()
    im.save(buf, compress_level=1)  # a palette picture: level 1 is 2x faster than 6 for ~5 KB more
    return buf.getvalue()


class GridPainter:
    """Draws every picture of one turn of a ``width`` x ``height`` board: the board layers (clear
    and fogged) are drawn once, then each picture adds its tokens and fog."""

    cell = 28          # pixels per cell
    left, top = 22, 16  # room for the row numbers and column letters
    pad = 4
    header_scale = 2   # pixel size of the font of column letters and row numbers
    label_scale = 1    # pixel size of the font of token labels (a painter with large cells raises both)

    def __init__(self, width: int, height: int, sides: list[str]) -> None:
        self.width, self.height, self.sides = width, height, list(sides)
        self._clear: Any = None
        self._fog: Any = None
        self._palette: Any = False  # not computed yet
        self._index: dict[RGB, int] = {}
        self._layers: Any = None

    # what a ruleset draws --------------------------------------------------------------------
    def cell_colour(self, x: int, y: int, fogged: bool) -> RGB:
        """The fill of cell (x, y)."""
        return mix(GROUND, FOG, 0.62) if fogged else GROUND

    def decorate(self, im: Any, draw: Any, fogged: bool) -> None:
        """Draw what lies on the board itself (public knowledge), after the cells."""

    def mark_colour(self, mark: Mark) -> RGB:
        return side_colour(mark.side, self.sides)

    def extra_colours(self) -> set[RGB]:
        """Colours tokens may use besides the sides', ink and white."""
        return set()

    # geometry ----------------------------------------------------------------------------------
    def size(self) -> tuple[int, int]:
        return self.left + self.width * self.cell + self.pad, self.top + self.height * self.cell + self.pad

    def cell_box(self, x: int, y: int) -> tuple[int, int, int, int]:
        """The pixel box (left, top, right, bottom; exclusive) of cell (x, y)."""
        left, top = self.left + x * self.cell, self.top + y * self.cell
        return left, top, left + self.cell, top + self.cell

    def slots(self, n: int) -> list[tuple[int, int, int]]:
        """Centres (relative to the cell) and radius for ``n`` tokens in one cell."""
        c = self.cell
        if n <= 1:
            return [(c // 2, c // 2, 9)]
        q = c // 4
        spots = [(q, q), (3 * q, q), (q, 3 * q), (3 * q, 3 * q)]
        return [(x, y, 6) for x, y in spots[:n]] + [(3 * q, 3 * q, 6)] * max(0, n - 4)

    # layers ------------------------------------------------------------------------------------
    def _base(self, fogged: bool) -> Any:
        from PIL import Image, ImageDraw

        im = Image.new("RGB", self.size(), BACKGROUND)
        draw = ImageDraw.Draw(im)
        for y in range(self.height):
            for x in range(self.width):
                l, t, r, b = self.cell_box(x, y)
                draw.rectangle([l, t, r - 1, b - 1], fill=self.cell_colour(x, y, fogged))
        self.decorate(im, draw, fogged)
        c, left, top = self.cell, self.left, self.top
        for x in range(self.width + 1):
            draw.rectangle([left + x * c, top, left + x * c, top + self.height * c], fill=GRID)
        for y in range(self.height + 1):
            draw.rectangle([left, top + y * c, left + self.width * c, top + y * c], fill=GRID)
        s = self.header_scale
        for x in range(self.width):
            label = column_name(x)
            text(im, left + x * c + (c - text_width(label, s)) // 2, 2, label, INK, s)
        for y in range(self.height):
            label = str(y + 1)
            text(im, left - 3 - text_width(label, s), top + y * c + (c - 5 * s) // 2, label, INK, s)
        return im

    def clear(self) -> Any:
        if self._clear is None:
            self._clear = self._base(fogged=False)
        return self._clear

    def fog(self) -> Any:
        if self._fog is None:
            self._fog = self._base(fogged=True)
        return self._fog

    def palette(self) -> Any:
        """A palette image holding every colour this turn's pictures can use, or None if there
        are more than 256 of them. Pictures are mapped onto it exactly."""
        if self._palette is False:
            from PIL import Image

            colours: set[RGB] = {INK, WHITE, NEUTRAL, *(side_colour(s, self.sides) for s in self.sides),
                                 *self.extra_colours()}
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

    def layers(self) -> tuple[Any, Any]:
        """The clear and the fogged layer, mapped onto the palette once."""
        if self._layers is None:
            from PIL import Image

            pal = self.palette()
            clear, fog = self.clear(), self.fog()
            if pal is not None:
                clear = clear.quantize(palette=pal, dither=Image.Dither.NONE)
                fog = fog.quantize(palette=pal, dither=Image.Dither.NONE)
            self._layers = (clear, fog)
        return self._layers

    def ink(self, colour: RGB) -> Any:
        """What to paint ``colour`` with: its palette index in palette mode, else the colour."""
        return self._index[colour] if self.palette() is not None else colour

    # pictures ----------------------------------------------------------------------------------
    def draw(self, marks: list[Mark], visible: list[str] | None = None) -> Any:
        """The picture as a PIL image. ``visible=None`` draws no fog; else every cell not named
        in ``visible`` is fogged."""
        from PIL import Image

        clear, fog = self.layers()
        if visible is not None:
            mask = Image.new("1", clear.size, 0)
            for c in visible:
                mask.paste(1, self.cell_box(*parse_cell(c)))
            im = Image.composite(clear, fog, mask)
        else:
            im = clear.copy()
        by_cell: dict[str, list[Mark]] = {}
        for mk in marks:
            by_cell.setdefault(mk.pos, []).append(mk)
        for pos in sorted(by_cell, key=lambda p: parse_cell(p)[::-1]):
            group = by_cell[pos]
            left, top, _, _ = self.cell_box(*parse_cell(pos))
            for mk, (cx, cy, radius) in zip(group, self.slots(len(group))):
                x0, y0 = left + cx - radius, top + cy - radius
                if mk.own:
                    im.paste(self.ink(WHITE), (x0 - 2, y0 - 2), disc(radius + 2))
                else:
                    im.paste(self.ink(INK), (x0 - 1, y0 - 1), disc(radius + 1))
                im.paste(self.ink(self.mark_colour(mk)), (x0, y0), disc(radius))
                label, s = mk.label[:2], self.label_scale
                text(im, left + cx - text_width(label, s) // 2, top + cy - 5 * s // 2, label, self.ink(WHITE), s)
        return im

    def png(self, marks: list[Mark], visible: list[str] | None = None) -> bytes:
        return png(self.draw(marks, visible))

    def with_legend(self, board: Any, rows: list[list[tuple[str, RGB | None]]], scale: int = 2) -> Any:
        """``board`` (from :meth:`draw`) with a legend under it, one line per row: each row a list
        of ``(words, colour)``, a colour painting a swatch before its words (the colours must be
        the painter's: sides, ink, white or ``extra_colours``). The pixel font has capitals and
        digits and no space: words are drawn one by one."""
        from PIL import Image

        row = 5 * scale + 10
        out = Image.new(board.mode, (board.width, board.height + row * len(rows) + 8), self.ink(BACKGROUND))
        if board.mode == "P":
            out.putpalette(board.getpalette())
        out.paste(board, (0, 0))
        y = board.height + 4
        for line in rows:
            x = self.left
            for words, colour in line:
                if colour is not None:
                    out.paste(self.ink(colour), (x, y, x + row - 6, y + row - 6))
                    x += row
                for word in words.split():
                    text(out, x, y + (row - 6 - 5 * scale) // 2, word, self.ink(INK), scale)
                    x += text_width(word, scale) + 4 * scale
                x += 4 * scale
            y += row
        return out
