"""Posts of 光与影: the events told (every reaction with its cause, every bonus with its source,
every move with where it really ended), the board as a picture and as text with its legend, and
per player the pool, hand and squads, with a pre-filled sheet for the player due. Nothing is
hidden: the private posts add only what concerns their reader.

Words come from ``data/messages.yaml`` (narration and labels); player names are display names
and squads and pieces are named by their stable labels (:func:`unit_labels`), never by an id
made from a player's name.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core import picture
from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.core.narrate import Teller
from gm_tool.rulesets.guangying.messages import labels
from gm_tool.rulesets.guangying.model import ROCK, H, W, piece_label, seat

COLOURS = {"a": "red", "b": "blue"}  # the first player listed plays red, the second blue
LETTERS = {"野蛮人": "B", "诗人": "D", "牧师": "P", "德鲁伊": "U", "战士": "W", "圣武士": "K", "巡林客": "R",
           "游荡者": "G", "术士": "S", "法师": "M"}


def unit_labels(state: dict[str, Any]) -> dict[str, str]:
    """How posts name every unit the game has had, by id (R36): each squad by its board label,
    each piece (on the board, in hand or dead) and each 岩 or 风墙 (on the board or removed) by
    its id, an automatic id made from its owner's name showing the owner's seat instead
    (``alice-warrior3`` is ``a-warrior3``, ``alice-rock1`` is ``a-rock1``)."""
    out: dict[str, str] = dict(state.get("squad_labels") or {})
    owners: dict[str, str | None] = {p["id"]: p["owner"] for p in state["pieces"]}
    owners.update((m["id"], m["owner"]) for m in state["markers"])
    for pl in state["players"]:
        owners.update((h["id"], pl["player"]) for h in pl["in_hand"])
        owners.update((d, pl["player"]) for d in pl["dead"])
    for ident in state.get("retired") or ():
        if ident not in out:
            owners.setdefault(ident, None)
    for ident in sorted(owners):
        owner = owners[ident] or next((pl["player"] for pl in state["players"]
                                       if ident.startswith(pl["player"] + "-")), None)
        out[ident] = piece_label(state, ident, owner) if owner else ident
    return out


class GyTeller(Teller):
    name_keys = ("player", "piece", "squad", "target", "new_squad", "owner", "extra", "into", "leader", "joined",
                 "by", "marker", "target_owner")
    name_list_keys = ("pieces", "by")

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.L = labels(self.lang)

    def text(self, path: str, **params: Any) -> str:
        value: Any = self.L
        for part in path.split("."):
            value = value[part]
        return str(value).format(**params)

    def value(self, key: str, value: Any, event: dict[str, Any], params: dict[str, Any]) -> str | None:
        if key in ("kind", "cause", "via", "why", "how", "what") and isinstance(value, str):
            return self.m.esc(self.L["words"].get(value, value))
        if key == "full":
            return self.m.esc(self.L["full"]) if value else ""
        if key == "verb":
            return self.m.esc(self.L["verbs"].get(value, value))
        return None

    def params(self, event: dict[str, Any]) -> dict[str, Any]:
        p = super().params(event)
        if isinstance(event.get("cells"), list):
            p["cells"] = self.m.esc(self.sep.join(event["cells"]))
        extra = getattr(self, "_" + event["type"], None)
        if extra is not None:
            extra(event, p)
        return p

    def bonus(self, parts: list[str]) -> str:
        if not parts:
            return ""
        return self.esc(self.text("bonus.wrap", parts=self.L["bonus"]["sep"].join(parts)))

    def esc(self, text: str) -> str:
        """Escaped, a leading space kept as a space (Markdown would escape it)."""
        body = text.lstrip()
        return text[:len(text) - len(body)] + self.m.esc(body)

    # --- per event type ------------------------------------------------------------------------
    def _attack(self, e: dict[str, Any], p: dict[str, Any]) -> None:
        if e.get("fortress"):
            p["target"] = self.m.esc(self.text("fortress_of", player="\x00")).replace("\x00", self.name(e["target_owner"]))
        parts = []
        if e.get("song") or e.get("formation") or e.get("full"):
            parts.append(self.text("bonus.power", n=e["power"]))
            if e.get("song"):
                parts.append(self.text("bonus.song", n=e["song"]))
            if e.get("formation"):
                parts.append(self.text("bonus.formation", n=e["formation"]))
            if e.get("full"):
                parts.append(self.text("bonus.full"))
        p["bonus"] = self.bonus(parts)

    def _reaction(self, e: dict[str, Any], p: dict[str, Any]) -> None:
        parts = []
        if "power" in e:
            parts.append(self.text("bonus.power", n=e["power"]))
            if e.get("song"):
                parts.append(self.text("bonus.song", n=e["song"]))
            if e.get("rogue"):
                parts.append(self.text("bonus.rogue_ambush" if e["kind"] == "ambush" else "bonus.rogue_opportunity"))
            elif e["kind"] != "ambush":
                parts.append(self.text("bonus.half"))
        p["bonus"] = self.bonus(parts)

    def _move(self, e: dict[str, Any], p: dict[str, Any]) -> None:
        p["path"] = self.m.esc("→".join(e["path"])) if e.get("path") else self.m.esc(self.L["nowhere"])
        kind = e.get("stop") or ("joined" if e.get("joined") else "reached")
        outcome = self.text("stop." + kind, dest="\x01", planned=e.get("planned", e["dest"]), joined="\x02")
        p["outcome"] = (self.m.esc(outcome).replace("\x01", self.m.esc(e["dest"]))
                        .replace("\x02", self.name(e.get("joined") or "")))

    def _summon(self, e: dict[str, Any], p: dict[str, Any]) -> None:
        squad = self.name(e["squad"])
        p["joins"] = self.m.esc(self.text("joins" if e.get("joined") else "joins_new", squad="\x00")).replace("\x00", squad)
        p["penalty"] = (self.m.esc(self.text("penalty_yes", squad="\x00")).replace("\x00", squad) if e["penalty"]
                        else self.m.esc(self.L["penalty_no"]))

    def _ability(self, e: dict[str, Any], p: dict[str, Any]) -> None:
        template = self.L["ability_detail"].get(e["ability"], "")
        bonus = self.bonus([self.text("bonus.shot"), self.text("bonus.song", n=e["song"])]) if e.get("song") else ""
        keep = {k: p[k] for k in ("target", "marker", "cells") if k in p}
        marks = {k: f"\x00{k}\x00" for k in keep}
        text = self.esc(template.format(hp=e.get("hp", ""), amount=e.get("amount", ""), bonus="\x00bonus\x00", **marks))
        for k, v in keep.items():
            text = text.replace(f"\x00{k}\x00", v)
        p["detail"] = text.replace("\x00bonus\x00", bonus)

    def _action_skipped(self, e: dict[str, Any], p: dict[str, Any]) -> None:
        from gm_tool.i18n import message

        params = {k: self.names.get(v, v) if isinstance(v, str) else v for k, v in (e.get("params") or {}).items()}
        p["reason"] = self.m.esc(message("guangying.action." + e["reason"], self.lang, **params))
        p["number"] = e.get("number", e["index"] + 1)

    def _rest_skipped(self, e: dict[str, Any], p: dict[str, Any]) -> None:
        key = "rest_one" if e["first"] == e["last"] else "rest_many"
        p["which"] = self.m.esc(self.text(key, first=e["first"], last=e["last"]))

    def _game_over(self, e: dict[str, Any], p: dict[str, Any]) -> None:
        if e["winner"] == "draw":
            p["result"] = self.m.esc(self.L["result_draw"])
        else:
            p["result"] = self.m.esc(self.text("result_winner", winner="\x00")).replace("\x00", self.name(e["winner"]))

    def _amend(self, e: dict[str, Any], p: dict[str, Any]) -> None:
        args = [self.name(a) if a in self.names else self.m.esc(self.L["words"].get(a, a)) for a in e.get("args", [])]
        template = self.L["amend"].get(e["action"])
        if template is None:
            p["edit"] = self.m.esc(e["action"]) + " " + self.sep.join(args)
        else:
            marks = [f"\x00{i}\x00" for i in range(len(args))]
            text = self.m.esc(template.format(*marks, *[""] * 3))
            for i, a in enumerate(args):
                text = text.replace(f"\x00{i}\x00", a)
            p["edit"] = text
        p["reason"] = self.m.esc(e.get("reason", ""))


# --- the board as text -----------------------------------------------------------------------

def text_board(state: dict[str, Any]) -> str:
    """The board as fixed-width text: squads by their labels, ## fortress, ^^ rock, ~~ wall."""
    names = state.get("squad_labels") or {}
    tags = {q["pos"]: names.get(q["id"], "?") for q in state["squads"]}
    fort = {c: "##" for p in state["players"] for c in p["fortress"]}
    marks = {c: "^^" if m["kind"] == ROCK else "~~" for m in state["markers"] for c in m["cells"]}
    w = max([3, *(len(t) for t in tags.values())])
    lines = ["    " + " ".join(f"{chr(65 + x):>{w}}" for x in range(W))]
    for y in range(H):  # row 1 on top, as in the picture
        row = []
        for x in range(W):
            name = cell_name((x, y))
            row.append(f"{tags.get(name) or fort.get(name) or marks.get(name) or '.':>{w}}")
        lines.append(f"{y + 1:>3} " + " ".join(row))
    return "\n".join(lines)


def legend(state: dict[str, Any], lang: str) -> dict[str, list[dict[str, Any]]]:
    """The legend as data, for the template to word (player names through ``name()``): squads
    with their members (leader first, marked *), flags (防御, a 唱诗 on, a portal open), rocks with
    the priest that keeps each, walls, fortresses, and each player's colour and side."""
    L = labels(lang)
    tags = state.get("squad_labels") or {}
    pieces = {p["id"]: p for p in state["pieces"]}
    names = unit_labels(state)
    squads = []
    for q in sorted(state["squads"], key=lambda q: (seat(state, q["owner"]), _number(tags.get(q["id"], "")))):
        members = ", ".join(f"{'*' if i == 0 else ''}{pieces[m]['class']} {names.get(m, m)} "
                            f"{pieces[m]['hp']}/{pieces[m]['max_hp']}" for i, m in enumerate(q["members"]))
        flags = []
        if q["defending"]:
            flags.append(L["flag_defending"])
        for m in q["members"]:
            if pieces[m].get("singing"):
                flags.append(L["flag_singing"].format(piece=names.get(m, m)))
            if pieces[m].get("portal_open"):
                flags.append(L["flag_portal"].format(piece=names.get(m, m)))
        tag = tags.get(q["id"], "?")
        squads.append({"tag": tag, "id": q["id"] if q["id"] != tag and q["id"] not in names else "",
                       "owner": q["owner"], "pos": q["pos"], "members": members,
                       "flags": L["flag_sep"].join(flags)})
    markers = [{"id": names.get(m["id"], m["id"]), "kind": m["kind"], "owner": m["owner"], "cells": ", ".join(m["cells"]),
                "by": names.get(m.get("by") or "", m.get("by") or "")} for m in state["markers"]]
    forts = [{"owner": p["player"], "cells": ", ".join(p["fortress"]), "hp": p["fortress_hp"],
              "max": p.get("fortress_max_hp", 100)} for p in state["players"]]
    seats = [{"player": p["player"], "colour": L["colours"][seat(state, p["player"])], "side": L["side_names"][p["side"]],
              "rows": "-".join(str(r) for r in (p["home_rows"][0], p["home_rows"][-1])),
              "first": p["player"] == state["first"]} for p in state["players"]]
    return {"squads": squads, "markers": markers, "fortresses": forts, "seats": seats}


def _number(tag: str) -> int:
    return int(tag[2:]) if tag[2:].isdigit() else 0


# --- the board as a picture --------------------------------------------------------------------

class Painter(picture.GridPainter):
    """The board at twice the pixel font's size (10 columns of 58 px: over 600 px wide), with a
    legend under it: a colour swatch per seat (red: the first player listed, south or north as
    set) and the token letters."""

    scale = 2

    def __init__(self, state: dict[str, Any]):
        super().__init__(W, H, [COLOURS[seat(state, p["player"])] for p in state["players"]])
        self.state = state

    def cell_colour(self, x: int, y: int, fogged: bool) -> picture.RGB:
        row = y + 1
        name = cell_name((x, y))
        for i, p in enumerate(self.state["players"]):
            if name in p["fortress"]:
                return picture.mix(picture.side_colour(self.sides[i], self.sides), picture.INK, 0.5)
            if row in p["home_rows"]:
                return picture.mix(picture.GROUND, picture.side_colour(self.sides[i], self.sides), 0.18)
        return picture.GROUND

    def decorate(self, im: Any, draw: Any, fogged: bool) -> None:
        for m in self.state["markers"]:
            for c in m["cells"]:
                left, top, right, bottom = self.cell_box(*parse_cell(c))
                colour = (110, 110, 110) if m["kind"] == ROCK else (150, 200, 230)
                draw.rectangle([left + 2, top + 2, right - 3, bottom - 3], fill=colour)
        for p in self.state["players"]:
            first = sorted(p["fortress"], key=lambda c: parse_cell(c))[0]
            left, top, _, _ = self.cell_box(*parse_cell(first))
            picture.text(im, left + 4, top + 10, str(p["fortress_hp"]), picture.WHITE, 2)

    def extra_colours(self) -> set[picture.RGB]:
        return {(110, 110, 110), (150, 200, 230)}

    def key_lines(self) -> list[list[tuple[str, picture.RGB | None]]]:
        """The legend under the board: words of the pixel font, a colour before each seat."""
        seats = []
        for p in self.state["players"]:
            colour = picture.side_colour(COLOURS[seat(self.state, p["player"])], self.sides)
            seats += [("", colour), (f"{seat(self.state, p['player']).upper()} {p['side'].upper()}", None)]
        return [seats,
                [("B BARBARIAN  D BARD  P PRIEST  U DRUID  W WARRIOR", None)],
                [("K PALADIN  R RANGER  G ROGUE  S SORCERER  M MAGE  @ LEADER", None)]]

    def picture(self, marks: list[picture.Mark]) -> bytes:
        from PIL import Image

        small = self.draw(marks)
        w, h = small.size
        big = small.resize((w * self.scale, h * self.scale), Image.Resampling.NEAREST)
        lines = self.key_lines()
        row = 18
        out = Image.new(big.mode, (big.width, big.height + row * len(lines) + 8), self.ink(picture.BACKGROUND))
        if big.mode == "P":
            out.putpalette(big.getpalette())
        out.paste(big, (0, 0))
        y = big.height + 4
        for line in lines:
            x = 8
            for words, colour in line:
                if colour is not None:
                    out.paste(self.ink(colour), (x, y, x + 14, y + 12))
                    x += 20
                    continue
                for word in words.split(" "):
                    if word:
                        picture.text(out, x, y + 1, word, self.ink(picture.INK), 2)
                    x += picture.text_width(word, 2) + 8
                x += 12
            y += row
        return picture.png(out)



def board_png(state: dict[str, Any]) -> bytes:
    """The board picture: squads as stacked tokens (the leader ringed and marked @, members by
    their order), each piece by its class letter."""
    pieces = {p["id"]: p for p in state["pieces"]}
    marks = []
    for q in state["squads"]:
        side = COLOURS[seat(state, q["owner"])]
        for i, m in enumerate(q["members"]):
            label = LETTERS.get(pieces[m]["class"], "?") + ("@" if i == 0 else str(i + 1))
            marks.append(picture.Mark(q["pos"], side, label, own=i == 0))
    return Painter(state).picture(marks)


# --- the terminal summary (gm show) -------------------------------------------------------------

def summary(view: dict[str, Any], player: str | None, lang: str) -> str:
    L = labels(lang)
    S = L["summary"]
    if view.get("winner") is not None:
        result = L["result_draw"] if view["winner"] == "draw" else L["result_winner"].format(winner=view["winner"])
    else:
        result = S["going"]
    head = S["head"].format(turn=view["turn"], next=view["next"] or L["nobody"], result=result)
    if view.get("pending_win"):
        head += S["pending"].format(player=view["pending_win"])
    lines = [head, text_board(view)]
    lines += [_legend_line(L, q, q["owner"]) for q in legend(view, lang)["squads"]]
    for p in view["players"]:
        if player is not None and p["player"] != player:
            continue
        lines.append(S["player"].format(player=p["player"], pool=_pool(p), hand=_hand(L, p) or L["none"],
                                        dead=", ".join(p["dead"]) or L["none"]))
    return "\n".join(lines)


def _legend_line(L: dict[str, Any], q: dict[str, Any], owner: str) -> str:
    key = "legend_squad_id" if q["id"] else "legend_squad"
    return L[key].format(tag=q["tag"], id=q["id"], owner=owner, pos=q["pos"], members=q["members"],
                         flags=(" · " + q["flags"]) if q["flags"] else "")


def _pool(p: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in p["pool"].items() if v)


def _hand(L: dict[str, Any], p: dict[str, Any]) -> str:
    out = []
    for h in p["in_hand"]:
        text = f"{h['class']} {h['id']} {h['hp']}/{h['max_hp']}"
        if h["cannot_return_until"]:
            text += " (" + L["fled_until"].format(turn=h["cannot_return_until"]) + ")"
        out.append(text)
    return ", ".join(out)


# --- the posts of a turn --------------------------------------------------------------------------

def mine(state: dict[str, Any], me: dict[str, Any], lang: str) -> list[list[str]]:
    """The reader's own table: fortress, pool, hand, dead, the turns counted towards 三.1-2,
    standing orders."""
    L = labels(lang)
    names = unit_labels(state)
    st = me["standing"]
    words = L["words"]

    def limits(kind: str) -> str:
        return ", ".join(f"{names.get(k, k)} ≤{v}" for k, v in sorted((st.get(kind) or {}).items())) or L["none"]

    squads = ", ".join(f"{names.get(k, k)} {words.get(v, v)}" for k, v in sorted((st.get("squads") or {}).items()))
    return [[L["fortress"], f"{me['fortress_hp']}/{me.get('fortress_max_hp', 100)}"],
            [L["pool"], _pool(me) or L["none"]],
            [L["hand"], _hand(L, me) or L["none"]],
            [L["dead"], ", ".join(names.get(d, d) for d in me["dead"]) or L["none"]],
            [L["missing"], f"{me['guardian_missing_turns']}/{me['professional_missing_turns']}"],
            [L["standing"], L["standing_text"].format(leader_dies=words.get(st["leader_dies"], st["leader_dies"]),
                                                      squads=squads or L["none"], returns=limits("return"),
                                                      suicides=limits("suicide"))]]


def post(ruleset: Any, turn: Any, reader: str | None) -> Any:
    """One post's content for the core (gm_tool.core.posts): the public post (``reader`` None)
    or a player's; the opening post of turn 0 when ``turn.opening``. Nothing is hidden in this
    game, but a player's own table (pool, hand, standing orders) is only in their post."""
    from gm_tool.core.posts import Post

    after = turn.after
    me = next((p for p in after["players"] if p["player"] == reader), None)
    context = {"board": text_board(after), "legend": legend(after, turn.lang), "state": after,
               "mine": mine(after, me, turn.lang) if me else [], "opening": turn.opening}
    sheet = ruleset.template(after, reader, turn.lang) if reader is not None and reader in ruleset.due(after) else None

    def picture() -> bytes:  # one drawing a turn, for every post that shows it
        if "png" not in turn.shared:
            turn.shared["png"] = board_png(after)
        return bytes(turn.shared["png"])

    return Post("public.j2" if reader is None else "private.j2", context, picture=picture, sheet=sheet)
