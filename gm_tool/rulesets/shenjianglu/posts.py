"""What each post of 神将录 holds (contract §1), as content for the core's pipeline
(``gm_tool.core.posts`` renders it): the public post (every action and counter, deaths, kings'
体力, the board as a picture and as text) and one private post per player (their own hand, deck
count, cards drawn, graveyard, mana; the core adds the pre-filled sheet of the player due).
Turn 0 has its opening posts: seats and order, the board; each player's hand, deck list and the
neutral cards dealt to them (seed l.87). Built from views and event audiences only; no markup
and no display name here: the templates name players with the core's ``name()``/``display()``."""

from __future__ import annotations

from collections import Counter
from typing import Any

from gm_tool.core import picture as pic
from gm_tool.core.grid import column_name, parse_cell
from gm_tool.core.narrate import Teller
from gm_tool.core.posts import Post, PostTurn
from gm_tool.rulesets.shenjianglu.cards import catalogue
from gm_tool.rulesets.shenjianglu.engine import made_id
from gm_tool.rulesets.shenjianglu.geometry import VECTORS
from gm_tool.rulesets.shenjianglu.messages import labels
from gm_tool.rulesets.shenjianglu.view import view as view_of

SIDES = ["red", "green"]
MIN_WIDTH = 600  # pixels: a board picture readable on a phone


class SjlTeller(Teller):
    """Values told in the post's language from the labels: attack kinds, facings, sides, reasons,
    zones, buffs; ``{left}``: 体力 left (one way of writing 体力 in every line and table)."""

    def params(self, event: dict[str, Any]) -> dict[str, Any]:
        params = super().params(event)
        if isinstance(event.get("damage"), int) and isinstance(event.get("stamina"), int):
            params["left"] = self.m.esc(max(0, event["stamina"] - event["damage"]))
        return params

    def value(self, key: str, value: Any, event: dict[str, Any], params: dict[str, Any]) -> str | None:
        from gm_tool.i18n import message

        L = labels(self.lang)
        if key == "how":
            table = L["shove"] if event["type"] in ("shoved", "not_shoved") else L["how"]
            return self.m.esc(table.get(value, value))
        if key in ("facing", "effect", "frm", "into") and isinstance(value, str):
            table = {"facing": L["facing"], "effect": L["effect"], "frm": L["zone"], "into": L["zone"]}[key]
            return self.m.esc(table.get(value, value))
        if key == "winner" and isinstance(value, str):
            return self.m.esc(L["sides"].get(value) or message("posts.draw", self.lang))
        if key == "reason" and isinstance(value, str):
            word = L["reason"].get(value)
            return self.m.esc(word if word is not None else message(value, self.lang, **(event.get("params") or {})))
        if key == "replaced" and value is None:
            return self.m.esc(L["none"])
        if key == "buff" and isinstance(value, dict):
            return self.m.esc(self.sep.join(f"{L['stat'].get(k, k)} {v:+d}" for k, v in value.items()))
        if key == "path" and isinstance(value, list):
            return self.m.esc("→".join(value))
        return None


def unit_labels(v: dict[str, Any]) -> dict[str, str]:
    """Every unit's label for the whole game, by id (kept in the state from the turn it came on)."""
    return dict(v.get("labels") or {})


def unit_names(v: dict[str, Any]) -> dict[str, str]:
    """How posts name each unit: its label, with the id it was given when one was (``1·a1``:
    a sheet may use either); never an id the tool made from a player's (``alice-1``)."""
    players = [s["player"] for s in v["seats"]]
    return {uid: label if made_id(uid, players) else f"{label}·{uid}" for uid, label in unit_labels(v).items()}


def text_board(v: dict[str, Any]) -> str:
    b = v["board"]
    w, h = b["width"], b["height"]
    grid = [["." for _ in range(w)] for _ in range(h)]
    for c in b["void"]:
        x, y = parse_cell(c)
        grid[y][x] = "#"
    for cells in b["spawns"].values():
        for c in cells:
            x, y = parse_cell(c)
            grid[y][x] = "*"
    for c in b["thrones"].values():
        x, y = parse_cell(c)
        grid[y][x] = "^"
    names = unit_labels(v)
    for u in v["units"]:
        x, y = parse_cell(u["pos"])
        grid[y][x] = names.get(u["id"], "?")[:3]
    head = "    " + "".join(f"{column_name(x):>3}" for x in range(w))
    return "\n".join([head] + [f"{y + 1:>3} " + "".join(f"{v:>3}" for v in row) for y, row in enumerate(grid)])


class Painter(pic.GridPainter):
    """The board, at least MIN_WIDTH pixels wide: void cells dark, spawn points and thrones
    tinted by their seat's team; tokens and labels grow with the cells."""

    def __init__(self, board: dict[str, Any]):
        super().__init__(board["width"], board["height"], SIDES)
        self.left, self.top, self.header_scale = 34, 22, 3
        self.cell = max(pic.GridPainter.cell, -(-(MIN_WIDTH - self.left - self.pad) // board["width"]))
        self.label_scale = min(4, max(1, self.cell // 18))
        self.void = {parse_cell(c) for c in board["void"]}
        self.tint: dict[tuple[int, int], pic.RGB] = {}
        for seat, cells in board["spawns"].items():
            colour = pic.mix(pic.GROUND, pic.side_colour(SIDES[0] if int(seat) % 2 else SIDES[1], SIDES), 0.25)
            for c in cells:
                self.tint[parse_cell(c)] = colour
        for seat, c in board["thrones"].items():
            self.tint[parse_cell(c)] = pic.mix(pic.GROUND, pic.side_colour(SIDES[0] if int(seat) % 2 else SIDES[1], SIDES), 0.5)

    def cell_colour(self, x: int, y: int, fogged: bool) -> pic.RGB:
        if (x, y) in self.void:
            return pic.FOG
        return self.tint.get((x, y), pic.GROUND)

    def slots(self, n: int) -> list[tuple[int, int, int]]:
        return [(x, y, r * self.cell // 28) for x, y, r in super().slots(n)]

    def picture(self, v: dict[str, Any], player: str | None) -> bytes:
        """The board with every unit (a white ring for ``player``'s own) and, on each token's
        edge, a tick towards where it faces (3.10)."""
        from PIL import ImageDraw

        im = self.draw(marks(v, player))
        draw = ImageDraw.Draw(im)
        ink = self.ink(pic.INK)
        (cx, cy, r), = self.slots(1)
        w = max(2, r // 4)
        for u in v["units"]:
            left, top, _, _ = self.cell_box(*parse_cell(u["pos"]))
            dx, dy = VECTORS[u["facing"]]
            x, y = left + cx + dx * (r + w), top + cy + dy * (r + w)
            draw.rectangle([x - w - abs(dy) * w, y - w - abs(dx) * w, x + w + abs(dy) * w, y + w + abs(dx) * w], fill=ink)
        return pic.png(im)


def painter(turn: PostTurn) -> Painter:
    """One painter per turn (the board layers are drawn once for every picture)."""
    if "painter" not in turn.shared:
        turn.shared["painter"] = Painter(turn.after["board"])
    return turn.shared["painter"]  # type: ignore[no-any-return]


def marks(v: dict[str, Any], player: str | None) -> list[pic.Mark]:
    names = unit_labels(v)
    return [pic.Mark(u["pos"], u["team"], names.get(u["id"], "?"), own=u["owner"] == player) for u in v["units"]]


def tables(v: dict[str, Any], L: dict[str, Any]) -> dict[str, Any]:
    """The seats and units of a view as rows of plain values (players by id: the template names them)."""
    kings = {u["owner"]: u for u in v["units"] if u["king"]}
    seats = []
    for s in v["seats"]:
        k = kings.get(s["player"])
        seats.append({"seat": s["seat"], "player": s["player"], "team": L["sides"][s["team"]], "king": s["king"],
                      "hp": f"{max(0, k['stamina'] - k['damage'])}/{k['stamina']}" if k else L["dead"],
                      "hand": s["hand_count"], "deck": s["deck_count"], "grave": len(s["graveyard"]),
                      "state": L["out"] if s["out"] else L["in"]})
    named = unit_names(v)
    units = [{"label": named.get(u["id"], "?"), "card": u["card"], "owner": u["owner"], "pos": u["pos"],
              "facing": L["facing"][u["facing"]], "stats": f"{u['attack']}/{u['stamina']}/{u['move']}",
              "hp": f"{max(0, u['stamina'] - u['damage'])}/{u['stamina']}", "equipment": u["equipment"] or "-",
              "captives": "、".join(c["card"] for c in u.get("captives") or ()) or "-"}
             for u in v["units"]]
    teams = [{"colour": L["colours"][side], "team": L["sides"][side],
              "players": [s["player"] for s in v["seats"] if s["team"] == side]} for side in SIDES]
    return {"seats": seats, "units": units, "teams": teams, "board_text": text_board(v), "next": v.get("next")}


def _me(v: dict[str, Any], reader: str) -> dict[str, Any]:
    return next(s for s in v["seats"] if s["player"] == reader)


def _hand_rows(v: dict[str, Any], me: dict[str, Any], L: dict[str, Any]) -> list[list[Any]]:
    cat = catalogue(v)
    return [[c, L["types"].get(cat[c]["type"], cat[c]["type"]), cat[c]["cost"]] for c in me.get("hand") or ()]


def _mana_line(v: dict[str, Any], me: dict[str, Any], L: dict[str, Any]) -> str | None:
    """This turn's mana for the player due (their turn is open), the next turn's for the others
    still in, nothing for a player who is out or a game that is over."""
    if me["out"] or v.get("winner") is not None:
        return None
    key = "mana_now" if v.get("next") == me["player"] else "mana_next"
    return str(L[key].format(mana=me["mana"], draw=me["draw"]))


def post(rs: Any, turn: PostTurn, reader: str | None) -> Post:
    L = labels(turn.lang)
    v = view_of(turn.after, reader)
    ctx: dict[str, Any] = {**tables(v, L), "title": L["title"].format(n=turn.n)}
    if reader is not None:
        me = _me(v, reader)
        ctx.update(hand_rows=_hand_rows(v, me, L), deck_count=me["deck_count"], mana_line=_mana_line(v, me, L),
                   drawn=[e["card"] for e in turn.events if e["type"] == "drawn" and e.get("player") == reader],
                   grave=me["graveyard"])
    sheet = rs.template(turn.after, reader, turn.lang) if reader is not None and reader in rs.due(turn.after) else None
    return Post("public.j2" if reader is None else "private.j2", ctx,
                picture=lambda: painter(turn).picture(v, reader), sheet=sheet)


def opening_post(rs: Any, turn: PostTurn, reader: str | None) -> Post:
    L = labels(turn.lang)
    v = view_of(turn.after, reader)
    cat = catalogue(v)
    ctx: dict[str, Any] = {**tables(v, L), "title": L["opening"],
                           "order": [{"seat": s["seat"], "player": s["player"], "team": L["sides"][s["team"]],
                                      "king": s["king"], "faction": cat[s["king"]]["faction"]} for s in v["seats"]]}
    if reader is not None:
        me = _me(v, reader)
        ctx.update(hand_rows=_hand_rows(v, me, L), deck_count=me["deck_count"], mana_line=_mana_line(v, me, L),
                   deck_list=[[c, n] for c, n in sorted(Counter(me.get("deck_list") or ()).items())],
                   neutrals="、".join(me.get("neutrals") or ()))
    sheet = rs.template(turn.after, reader, turn.lang) if reader is not None and reader in rs.due(turn.after) else None
    return Post("opening.j2", ctx, picture=lambda: painter(turn).picture(v, reader), sheet=sheet)


def summary(v: dict[str, Any], player: str | None, lang: str) -> str:
    """`gm show` in a terminal: the board, the units and seats, hands the viewer may see."""
    L = labels(lang)
    t = tables(v, L)
    lines = [L["title"].format(n=v["turn"]), t["board_text"], ""]
    head = [L["label"], L["card"], L["owner"], L["pos"], L["facing_head"], L["stats"], L["hp"], L["equipment"]]
    lines += ["  ".join(str(c) for c in row) for row in
              [head] + [[u["label"], u["card"], u["owner"], u["pos"], u["facing"], u["stats"], u["hp"], u["equipment"]]
                        for u in t["units"]]]
    lines.append("")
    head = [L["seat"], L["player"], L["team"], L["king"], L["king_hp"], L["hand"], L["deck"], L["grave"], L["state"]]
    lines += ["  ".join(str(c) for c in row) for row in
              [head] + [[s["seat"], s["player"], s["team"], s["king"], s["hp"], s["hand"], s["deck"], s["grave"], s["state"]]
                        for s in t["seats"]]]
    over = v.get("winner")
    if over:
        from gm_tool.i18n import message

        lines.append(L["over"].format(winner=L["sides"].get(over) or message("posts.draw", lang)))
    else:
        lines.append(L["next"].format(player=v.get("next")))
    for s in v["seats"]:
        if "hand" in s and (player is None or s["player"] == player):
            lines.append(L["summary_hand"].format(player=s["player"], cards="、".join(s["hand"]) or L["none"]))
        if "deck" in s:
            lines.append(L["summary_deck"].format(player=s["player"], cards="、".join(s["deck"]) or L["none"]))
    return "\n".join(lines) + "\n"
