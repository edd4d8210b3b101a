"""What each grail-war post holds: the content the core's pipeline (:mod:`gm_tool.core.posts`)
renders in every format and dialect, with display names and the pictures it names.

What goes in each is decided by the event log's audiences (vision.assign_audiences) and the
reader's view (view.view); this module gathers it into plain data (:class:`Post`), and the
templates (``templates/*.j2``, overridable by a campaign's ``templates/`` folder) only lay it out
with the words of data/messages.yaml (``L.posts``). Rulings P1-P11 (docs/rulings/grail_war.md)
say what each post tells. Pictures: the public map (terrain, strongholds, territory), each
player's map (only what that player sees) and the GM's (everything), each with its legend.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm_tool.core.deck import Card
from gm_tool.core.events import visible_to
from gm_tool.core.grid import column_name, parse_cell
from gm_tool.core.posts import Post, PostTurn
from gm_tool.core.render import display_name
from gm_tool.rulesets.grail_war import narrate
from gm_tool.rulesets.grail_war.view import view
from gm_tool.rulesets.grail_war.words import equipment_text, labels, skill_texts

if TYPE_CHECKING:
    from gm_tool.core.posts import Posts
    from gm_tool.core.ruleset import RulesetBase

_SH_MARK = "123456789abcdefghijklmnopqrstuvwxyz"
UNSEEN = ","  # ASCII: a CJK font draws "·" full width and the map's columns would drift
CLOSED = "x"
# the colour a side is drawn in (gm_tool.core.picture.side_colour), for the legend's words
_COLOURS = ("green", "purple", "orange", "teal")


def text_map(state: dict[str, Any], player: str | None) -> str:
    """The board as text: terrain everywhere (public), pieces only where ``player`` sees."""
    return draw_map(view(state, player), player)


def draw_map(v: dict[str, Any], player: str | None) -> str:
    """Draw a view (already filtered for ``player``; the GM's view shows everything)."""
    board = v["map"]
    seen = None if player is None else {parse_cell(c) for c in v["visible"]}
    grid = [list(row) for row in board["rows"]]
    for cell in v.get("closed_cells") or ():  # closed by the GM (流局): shown while closed
        x, y = parse_cell(cell) if isinstance(cell, str) else tuple(cell)
        if 0 <= y < board["height"] and 0 <= x < board["width"]:
            grid[y][x] = CLOSED
    for s in v["strongholds"]:
        x, y = parse_cell(s["pos"])
        grid[y][x] = _SH_MARK[(s["id"] - 1) % len(_SH_MARK)]
    mine = {c["side"] for c in v["characters"] if player and c.get("player") == player}
    for c in v["characters"]:  # the reader's own mark wins in a shared cell
        if c["alive"]:
            x, y = parse_cell(c["pos"])
            if y >= board["height"]:  # inside a tunnel (ruling M16): told in words, not drawn
                continue
            if grid[y][x] != "@":
                grid[y][x] = (c["side"][0].upper() if player is None else
                              "@" if c.get("player") == player else ("A" if c["side"] in mine else "E"))
    if seen is not None:
        for y, row in enumerate(grid):
            for x, ch in enumerate(row):
                if (x, y) not in seen and ch == ".":
                    row[x] = UNSEEN
    head = "    " + "".join(column_name(x)[-1] for x in range(board["width"]))
    return "\n".join([head] + [f"{y + 1:>3} " + "".join(row) for y, row in enumerate(grid)])


# events whose cards join a character's hand or equipment this turn ("本回合获得的牌")
GAINS = ("draw", "stronghold_card", "stronghold_equipment", "take_card_seen", "take_card", "retrieve",
         "gm_give_card_detail")


def _hand_limit(c: dict[str, Any]) -> int:
    return 7 if "天之服" in (c.get("equipment") or {}).values() else max(c["hp"], 0) + 2


def _label(card: Any) -> str:
    return Card.from_dict(card).label if isinstance(card, dict) else str(card)


def number_of(c: dict[str, Any], state: dict[str, Any]) -> str:
    """A character's number on every map and table: its label, kept in the state from setup
    (older states: its place in the roster, which is the same)."""
    return str(c.get("label") or next(i + 1 for i, x in enumerate(state["characters"]) if x["id"] == c["id"]))


class _Turn:
    """What the posts of one turn share (converted once, kept in ``PostTurn.shared``)."""

    def __init__(self, turn: PostTurn):
        self.before, self.after, self.events, self.lang = turn.before, turn.after, turn.events, turn.lang
        self.opening = turn.opening
        self.words = labels(turn.lang)
        self.L = self.words["posts"]
        self.sides = list(self.after["sides"])
        self.sheet_game: Any = None  # the state as a Game for the sheets, converted once
        self._painter: Any = None

    @classmethod
    def of(cls, turn: PostTurn) -> _Turn:
        t = turn.shared.get("grail_war")
        if t is None:
            t = turn.shared["grail_war"] = cls(turn)
        return t

    def painter(self) -> Any:
        if self._painter is None:
            from gm_tool.rulesets.grail_war import picture

            a = self.after
            self._painter = picture.Painter(a["map"], a["strongholds"], a["sides"], a.get("closed_cells") or ())
        return self._painter

    def side(self, side: Any) -> str:
        return narrate.side_name(side, self.lang) if side else self.L["neutral"]

    def place(self, pos: str) -> str:
        """A cell as told to a player: cells inside a tunnel lie below the map (ruling M16)."""
        return self.L["in_tunnel"].format(cell=pos) if parse_cell(pos)[1] >= self.after["map"]["height"] else pos

    def colour_key(self) -> str:
        """Which colour is which side, for the picture's legend in words."""
        others = iter(_COLOURS)
        colours = self.L["colours"]
        return self.words["import"]["sep"].join(
            self.L["colour_side"].format(colour=colours[side if side in ("red", "blue") else next(others, "teal")],
                                         side=self.side(side)) for side in self.sides)

    def common(self) -> dict[str, Any]:
        L, after = self.L, self.after
        strongholds = [{"id": s["id"], "name": s["name"], "pos": s["pos"], "kind": L["kinds"].get(s["kind"], s["kind"]),
                        "owner": self.side(s["owner"]), "territory": len(s.get("territory", [])),
                        "destroyed": bool(s.get("destroyed")), "closed": bool(s.get("closed"))}
                       for s in after["strongholds"]]
        territory = [{"side": self.side(side), "cells": after["territory"].get(side, 0),
                      "strongholds": [s["id"] for s in after["strongholds"] if s["owner"] == side]}
                     for side in self.sides]
        return {"P": L, "title_turn": L["opening"] if self.opening else L["turn"].format(n=after["turn"]),
                "colour_key": self.colour_key(),
                "closed": " ".join(after.get("closed_cells") or ()),
                "closed_strongholds": " ".join(f'{s["id"]}「{s["name"]}」' for s in after["strongholds"] if s.get("closed")),
                "territory_rows": [[t["side"], t["cells"], " ".join(map(str, t["strongholds"])) or L["none"]] for t in territory],
                "stronghold_rows": [[s["id"], s["name"], s["pos"], s["kind"] + "".join(f" ({L[flag]})" for flag in ("destroyed", "closed") if s[flag]),
                                     s["owner"], s["territory"]] for s in strongholds]}

    def gone(self, in_sight: set[str]) -> set[str]:
        """The living characters a reader no longer sees at the end of the turn (``in_sight``:
        those of the reader's view): a path the reader saw ends "out of sight" (ruling P7)."""
        return {c["id"] for c in self.after["characters"] if c["alive"] and c["id"] not in in_sight}

    def public(self) -> dict[str, Any]:
        alive_before = {c["id"] for c in self.before["characters"] if c["alive"]}
        died = [{"name": c["name"], "side": self.side(c["side"]), "class": c["class"]}
                for c in self.after["characters"] if not c["alive"] and c["id"] in alive_before]
        fallen = [{"name": c["name"], "side": self.side(c["side"]), "class": c["class"]}
                  for c in self.after["characters"] if not c["alive"] and c["id"] not in alive_before]
        return {**self.common(), "died": died, "fallen": fallen,
                "fights": sum(1 for e in self.events if e["type"] == "fight")}

    def private(self, player: str, due: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        """The context of ``player``'s post, and its view and marks (for the picture)."""
        L, v = self.L, view(self.after, player)
        mine = [c for c in v["characters"] if c.get("player") == player]
        others = [c for c in v["characters"] if c.get("player") != player]
        numbers = {c["id"]: number_of(c, self.after) for c in mine + others}
        own_ids = {c["id"] for c in mine}
        me = [{"no": numbers[c["id"]], "name": c["name"], "class": c["class"], "side": self.side(c["side"]),
               "hp": c["hp"], "max_hp": c["max_hp"], "pos": self.place(c["pos"]), "alive": c["alive"],
               "hand": [_label(x) for x in c["hand"]],
               "hand_text": "".join(f"【{_label(x)}】" for x in c["hand"]),
               "limit": _hand_limit(c) if c["alive"] else None,  # the dead hold nothing and keep nothing
               "weapon": c["equipment"].get("weapon"), "armor": c["equipment"].get("armor"),
               "skills": skill_texts(c.get("skills") or [], v.get("skills"), self.lang),
               "gear": [{"slot": L[slot], "name": c["equipment"][slot], "text": equipment_text(c["equipment"][slot], self.lang)}
                        for slot in ("weapon", "armor") if c["equipment"].get(slot)]} for c in mine]
        seen = [[numbers[c["id"]], c["name"], c["class"], self.side(c["side"]), f'{c["hp"]}/{c["max_hp"]}', c["pos"],
                 " ".join(x for x in (c.get("equipment") or {}).values() if x) or L["none"]] for c in others]
        drawn = [_label(card) for e in self.events
                 if e["type"] in GAINS and e.get("character") in own_ids and visible_to(e, player)
                 for card in (e.get("cards") or ([e["card"]] if e.get("card") else []))]
        nxt: list[tuple[str, dict[str, Any]]] = []
        if self.after["winner"] is not None:
            nxt.append(("next_over", {}))
        elif not any(c["alive"] for c in me):
            nxt.append(("next_dead", {}))
        else:
            nxt.append(("next_sheet", {"n": self.after["turn"] + 1}))
            for c in me:
                if c["alive"] and len(c["hand"]) > c["limit"]:
                    nxt.append(("next_keep", {"name": c["name"], "count": len(c["hand"]), "limit": c["limit"],
                                              "extra": len(c["hand"]) - c["limit"]}))
        context = {**self.common(), "me": me, "seen_rows": seen, "drawn_text": "".join(f"【{x}】" for x in drawn),
                   "next": nxt, "text_map": draw_map(v, player)}
        return context, {"view": v, "numbers": numbers, "in_sight": {c["id"] for c in v["characters"]},
                         "sheet": self.sheet(player) if due and nxt[0][0] == "next_sheet" else None}

    def sheet(self, player: str) -> str:
        """The pre-filled order sheet of ``player``'s next turn (what `gm template` writes). A
        sheet never reads the piles: they are left out of the conversion, done once a turn."""
        from gm_tool.rulesets.grail_war.model import Game
        from gm_tool.rulesets.grail_war.sheet import template

        if self.sheet_game is None:
            self.sheet_game = Game.from_state({**self.after, "deck": {"draw_pile": [], "discard_pile": []},
                                               "equipment_pile": []})
        return template(self.after, player, self.lang, self.sheet_game)


def post(ruleset: RulesetBase, turn: PostTurn, reader: str | None) -> Post:
    """A resolved turn's post: the public post (``reader`` None: deaths, fights as a number,
    territory, strongholds, the public map) or a player's (ruling P2)."""
    from gm_tool.rulesets.grail_war import picture

    t = _Turn.of(turn)
    if reader is None:
        return Post("public.j2", t.public(), picture=lambda: t.painter().picture([]))
    context, extra = t.private(reader, reader in ruleset.due(turn.after))
    marks = picture.marks_of(extra["view"], reader, extra["numbers"])
    return Post("private.j2", context, picture=lambda: t.painter().picture(marks, extra["view"]["visible"], True),
                sheet=extra["sheet"], story_options={"gone": t.gone(extra["in_sight"])})


def opening_post(ruleset: RulesetBase, turn: PostTurn, reader: str | None) -> Post:
    """Turn 0 (ruling P10): who takes part, by forum name only (which character a player leads,
    and on which side, is not public), the strongholds and the map; each player's characters,
    starting hand, map and first sheet."""
    from gm_tool.rulesets.grail_war import picture

    t = _Turn.of(turn)
    if reader is None:
        return Post("opening_public.j2", {**t.common(), "players": ruleset.players(turn.after)},
                    picture=lambda: t.painter().picture([]))
    context, extra = t.private(reader, reader in ruleset.due(turn.after))
    context.update(intro=t.L["opening_intro"], hand_label=t.L["first_hand"])
    marks = picture.marks_of(extra["view"], reader, extra["numbers"])
    return Post("opening.j2", context, picture=lambda: t.painter().picture(marks, extra["view"]["visible"], True),
                sheet=extra["sheet"])


def handover_post(ruleset: RulesetBase, turn: PostTurn, reader: str | None, player: str, old: str) -> Post | None:
    """The post a replacement player gets at once from `gm amend reassign` (issue 23): what their
    characters hold, the map they see and the sheet of the turn due, as an opening post is built."""
    from gm_tool.rulesets.grail_war import picture

    if reader != player:
        return None
    t = _Turn.of(turn)
    context, extra = t.private(player, True)
    context.update(title_turn=t.L["handover"].format(n=turn.after["turn"] + 1), hand_label=t.L["hand"],
                   intro=t.L["handover_intro"].format(old=display_name(old)))
    marks = picture.marks_of(extra["view"], player, extra["numbers"])
    return Post("opening.j2", context, picture=lambda: t.painter().picture(marks, extra["view"]["visible"], True),
                sheet=extra["sheet"])


def gm_picture(turn: PostTurn) -> Any:
    """The GM's map: every living character, no fog."""
    from gm_tool.rulesets.grail_war import picture

    t = _Turn.of(turn)
    return lambda: t.painter().picture(picture.marks_of(turn.after, None, {c["id"]: number_of(c, turn.after)
                                                                          for c in turn.after["characters"]}))


def handover(ruleset: RulesetBase, state: dict[str, Any], player: str, old: str, lang: str,
             templates_dir: Path | None, secret: str) -> Posts:
    """The handover posts of a reassignment, rendered by the core as a turn's are."""
    from gm_tool.core.posts import render_posts

    turn = PostTurn(ruleset.turn(state), state, state, [], lang, opening=True)
    return render_posts(ruleset, turn, lambda tt, reader: handover_post(ruleset, tt, reader, player, old),
                        templates_dir=templates_dir, secret=secret)


def summary(v: dict[str, Any], player: str | None, lang: str) -> str:
    """A view as terminal text: the map, then one line per character it holds."""
    L = labels(lang)["posts"]
    lines = [L["turn"].format(n=v["turn"]) + (f" · {L['winner']}: {narrate.side_name(v['winner'], lang)}" if v["winner"] else ""),
             draw_map(v, player)]
    for c in v["characters"]:
        hand = " ".join(Card.from_dict(x).label for x in c["hand"]) if c.get("hand") is not None else "?"
        gear = " ".join(x for x in (c.get("equipment") or {}).values() if x) or L["none"]
        lines.append(f"{c['id']:<14} {c['name']} {c['class']:<9} {c['side']:<5} {L['hp']} {c['hp']}/{c['max_hp']} "
                     f"{c['pos']:<4} {'' if c['alive'] else L['dead']} {L['hand']}: {hand} {L['equipment']}: {gear}")
    lines.append(f"{L['territory']}: " + ", ".join(f"{s} {n}" for s, n in v["territory"].items()))
    return "\n".join(lines)
