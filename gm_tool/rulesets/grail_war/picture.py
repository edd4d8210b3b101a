"""Map pictures (PNG) for the posts: terrain, strongholds with their owners and territory, and
the characters a viewer sees; cells outside the viewer's vision are fogged (R7).

Three kinds, all from the same drawing: the public map (terrain, strongholds, territory, no
character), a player's map (the public map, fogged outside their vision, with the characters
of their view) and the GM's full map (every living character, no fog). The grid, the pixel
font, tokens, fog and PNG encoding are the core's (:mod:`gm_tool.core.picture`).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from gm_tool.core import picture as core
from gm_tool.core.grid import parse_cell
from gm_tool.core.picture import INK, NEUTRAL, WHITE, Mark, mix, side_colour, text, text_width

TERRAIN_RGB = {".": (232, 222, 186), "~": (86, 146, 214), "^": (178, 198, 128), "#": (146, 116, 88)}
KIND_RGB = {"hand": (60, 110, 230), "equipment": (220, 50, 50), "heal": (40, 170, 70), "vision": (235, 205, 40),
            "teleport": (140, 60, 200), "bridge": (140, 90, 40)}
DESTROYED = (60, 60, 60)


def cell_box(x: int, y: int) -> tuple[int, int, int, int]:
    """The pixel box (left, top, right, bottom; exclusive) of cell (x, y) on the grail war's maps."""
    left, top = core.GridPainter.left + x * Painter.cell, core.GridPainter.top + y * Painter.cell
    return left, top, left + Painter.cell, top + Painter.cell


class Painter(core.GridPainter):
    """Fuyuki-style maps: terrain, territory tint, tunnel mouths and strongholds, over 600 px
    wide for the seed's 20 columns, with a legend under the board (:meth:`picture`)."""

    cell = 30

    def __init__(self, board: dict[str, Any], strongholds: list[dict[str, Any]], sides: list[str],
                 closed: list[str] | tuple[str, ...] = ()) -> None:
        super().__init__(board["width"], board["height"], sides)
        self.board, self.strongholds = board, strongholds
        self._legends: dict[bool, Any] = {}  # the legend strips, drawn once (picture)
        # cells the GM closed (流局) and closed strongholds: crossed out while closed
        self.closed = [parse_cell(c) for c in closed] + [parse_cell(s["pos"]) for s in strongholds if s.get("closed")]
        self.owner_of: dict[tuple[int, int], str] = {}
        for s in strongholds:
            if s.get("owner"):
                for c in s.get("territory", []):
                    self.owner_of[parse_cell(c)] = s["owner"]

    def layers(self) -> tuple[Any, Any]:
        """The clear and fogged board layers, from the layer cache when this board (terrain,
        strongholds, owners, closed cells) was drawn before: a campaign's board changes only
        when a stronghold changes hands or the GM closes something, so most turns draw it no
        more (the pictures are byte-identical either way)."""
        if self._layers is None:
            key = self.cache_key()
            cached = _load_layers(key, self.size())
            if cached is not None:
                from PIL import Image

                self._layers, colours = cached
                self._index = {c: i for i, c in enumerate(colours)}
                pal = Image.new("P", (1, 1))
                pal.putpalette(_palette_data(colours))
                self._palette = pal
            else:
                layers = super().layers()
                if self._palette is not None:
                    _store_layers(key, layers, sorted(self._index, key=self._index.__getitem__))
        assert self._layers is not None
        return self._layers

    def cache_key(self) -> str:
        """What the board layers are drawn from, hashed (with the drawing code's version)."""
        blob = json.dumps({"v": LAYER_VERSION, "board": self.board, "strongholds": self.strongholds,
                           "sides": self.sides, "closed": self.closed, "cell": self.cell},
                          sort_keys=True, ensure_ascii=False, default=list)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

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


    def key_lines(self, own: bool) -> list[list[tuple[str, Any]]]:
        """The legend under the board, in the pixel font's letters: a swatch and a word for each
        side (its name when the font can write it, else its number in the scenario's list), the
        stronghold kinds, and the reader's own ring."""
        sides: list[tuple[str, Any]] = []
        for i, side in enumerate(self.sides):
            word = str(side).upper()
            sides += [("", side_colour(side, self.sides)), (word if word.isascii() and word.isalnum() else str(i + 1), None)]
        kinds: list[tuple[str, Any]] = []
        for kind, word in KIND_WORDS.items():
            kinds += [("", KIND_RGB[kind]), (word, None)]
        lines = [sides, kinds]
        if own:
            lines.append([("", WHITE), ("YOU", None), ("", DESTROYED), ("DESTROYED  X CLOSED", None)])
        else:
            lines.append([("", DESTROYED), ("DESTROYED  X CLOSED", None)])
        return lines

    def picture(self, marks: list[Mark], visible: list[str] | None = None, own: bool = False) -> bytes:
        """The board with the legend under it (PNG); the legend is drawn once a turn."""
        from PIL import Image

        board = self.draw(marks, visible)
        legend = self.legend(own)
        out = Image.new(board.mode, (board.width, board.height + legend.height), self.ink(core.BACKGROUND))
        if board.mode == "P":
            out.putpalette(board.getpalette())
        out.paste(board, (0, 0))
        out.paste(legend, (0, board.height))
        return core.png(out)

    def legend(self, own: bool) -> Any:
        """The legend strip (an image in the board's mode), drawn once per painter and kind."""
        cache = self._legends
        if own in cache:
            return cache[own]
        from PIL import Image

        board = self.layers()[0]
        lines = self.key_lines(own)
        row = 14
        out = Image.new(board.mode, (board.width, row * len(lines) + 6), self.ink(core.BACKGROUND))
        if board.mode == "P":
            out.putpalette(board.getpalette())
        y = 3
        for line in lines:
            x = self.left
            for words, colour in line:
                if colour is not None:
                    out.paste(self.ink(INK), (x, y, x + 10, y + 10))
                    out.paste(self.ink(colour), (x + 1, y + 1, x + 9, y + 9))
                    x += 14
                    continue
                for word in words.split(" "):
                    if word:
                        text(out, x, y + 1, word, self.ink(INK), 2)
                        x += text_width(word, 2)
                    x += 8
                x += 6
            y += row
        cache[own] = out
        return out

    def extra_colours(self) -> set[Any]:
        return {*KIND_RGB.values(), DESTROYED}


# the stronghold kinds in the legend's letters (the post's own legend words them in its language)
KIND_WORDS = {"hand": "HAND", "equipment": "EQUIP", "heal": "HEAL", "vision": "VISION", "teleport": "GATE",
              "bridge": "BRIDGE"}
LAYER_VERSION = 2  # bump when the drawing of the board changes


def _palette_data(colours: list[tuple[int, int, int]]) -> list[int]:
    return [v for c in colours for v in c] + [0, 0, 0] * (256 - len(colours))


def _cache_dir() -> Path | None:
    """A private folder of this user's for the layer cache (like Jinja's bytecode cache: in the
    temp folder, mode 0700, owned by the user), or None when none can be had safely."""
    if os.environ.get("GM_NO_LAYER_CACHE"):
        return None
    path = Path(tempfile.gettempdir()) / f"gm-tool-layers-{os.getuid()}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        st = path.lstat()
        if path.is_symlink() or st.st_uid != os.getuid() or st.st_mode & 0o077:
            return None
    except OSError:
        return None
    return path


def _load_layers(key: str, size: tuple[int, int]) -> tuple[tuple[Any, Any], list[tuple[int, int, int]]] | None:
    folder = _cache_dir()
    if folder is None:
        return None
    try:
        meta = json.loads((folder / f"{key}.json").read_text("utf-8"))
        data = (folder / f"{key}.png").read_bytes()
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("sha256") != hashlib.sha256(data).hexdigest():
        return None  # a torn or foreign file: draw again
    import io

    from PIL import PngImagePlugin

    try:  # opened as the PNG it is: Image.open would load Pillow's other format plugins first (~3 ms)
        with PngImagePlugin.PngImageFile(io.BytesIO(data)) as im:
            im.load()
            both = im.copy()
    except Exception:  # noqa: BLE001  (any undecodable file is a miss)
        return None
    w, h = size
    colours = [tuple(c) for c in meta.get("colours", [])]
    if both.mode != "P" or both.size != (w, 2 * h) or not 0 < len(colours) <= 256:
        return None
    pal = _palette_data(colours)  # type: ignore[arg-type]
    layers = []
    for top in (0, h):
        layer = both.crop((0, top, w, top + h))
        layer.putpalette(pal)
        layers.append(layer)
    return (layers[0], layers[1]), colours  # type: ignore[return-value]


def _store_layers(key: str, layers: tuple[Any, Any], colours: list[tuple[int, int, int]]) -> None:
    folder = _cache_dir()
    if folder is None:
        return
    from PIL import Image

    clear, fog = layers
    both = Image.new("P", (clear.size[0], 2 * clear.size[1]))
    both.putpalette(_palette_data(colours))
    both.paste(clear, (0, 0))
    both.paste(fog, (0, clear.size[1]))
    data = core.png(both)
    for name, raw in ((f"{key}.png", data),
                      (f"{key}.json", json.dumps({"sha256": hashlib.sha256(data).hexdigest(), "colours": colours}).encode())):
        try:
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                fh.write(raw)
            os.replace(tmp, folder / name)
        except OSError:
            return


def marks_of(v: dict[str, Any], player: str | None, labels: dict[str, str] | None = None) -> list[Mark]:
    """The living characters of a view as marks, each with its label (the number it keeps for
    the whole game; ``labels`` overrides)."""
    labels = labels or {c["id"]: c.get("label") or "?" for c in v["characters"]}
    height = v["map"]["height"]
    return [Mark(c["pos"], c["side"], labels.get(c["id"], "?"), player is not None and c.get("player") == player)
            for c in v["characters"] if c["alive"] and parse_cell(c["pos"])[1] < height]  # tunnel cells: not drawn


def for_view(v: dict[str, Any], player: str | None, labels: dict[str, str] | None = None) -> bytes:
    """The PNG of a view: a player's view (fogged outside their vision), or with ``player=None``
    the full state: the GM's map."""
    painter = Painter(v["map"], v["strongholds"], v["sides"], v.get("closed_cells") or ())
    return painter.picture(marks_of(v, player, labels), v.get("visible") if player is not None else None, player is not None)


def public(state: dict[str, Any]) -> bytes:
    """The public map: terrain, strongholds and territory, no character."""
    return Painter(state["map"], state["strongholds"], state["sides"], state.get("closed_cells") or ()).picture([])
