"""The grail war's forum posts: a public post and one private post per player, per turn.

What goes in each is decided from the event log's audiences (vision.assign_audiences) and the
player's view (view.view); the templates only lay it out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm_tool.core.deck import Card
from gm_tool.core.events import visible_to
from gm_tool.core.grid import column_name, parse_cell
from gm_tool.core.render import MARKUPS, environment
from gm_tool.rulesets.grail_war import narrate
from gm_tool.rulesets.grail_war.view import view

TEMPLATES = Path(__file__).parent / "templates"

LABELS = {
    "zh": {"turn": "第 {n} 回合", "public": "战报", "private": "私信", "territory": "领土", "side": "阵营",
           "cells": "格数", "events": "本回合", "nothing": "无事发生。", "character": "角色", "hp": "体力",
           "hand": "手牌", "equipment": "装备", "weapon": "武器", "armor": "防具", "pos": "位置", "map": "视野地图",
           "next": "下回合请发送指令表（gm template 可生成），含保留的牌、战术选项与移动。", "none": "无",
           "strongholds": "据点", "owner": "归属", "dead": "阵亡", "winner": "胜者", "legend":
           "图例：@ 自己  A 队友  E 敌人  1-9/a-l 据点  ~ 河道  ^ 高地  # 悬崖  · 视野外", "neutral": "中立"},
    "en": {"turn": "Turn {n}", "public": "Battle report", "private": "Private report", "territory": "Territory",
           "side": "Side", "cells": "Cells", "events": "This turn", "nothing": "Nothing happened.", "character":
           "Character", "hp": "HP", "hand": "Hand", "equipment": "Equipment", "weapon": "Weapon", "armor": "Armor",
           "pos": "Position", "map": "Vision map", "next": "Send next turn's order sheet (gm template makes one): cards to keep, tactical options, move.",
           "none": "none", "strongholds": "Strongholds", "owner": "Owner", "dead": "Dead", "winner": "Winner",
           "legend": "Legend: @ you  A ally  E enemy  1-9/a-l strongholds  ~ river  ^ high  # cliff  · unseen",
           "neutral": "neutral"},
}

_SH_MARK = "123456789abcdefghijklmnopqrstuvwxyz"


def text_map(state: dict[str, Any], player: str | None) -> str:
    """The board as text: terrain everywhere (public), pieces only where ``player`` sees."""
    return draw_map(view(state, player), player)


def draw_map(v: dict[str, Any], player: str | None) -> str:
    """Draw a view (already filtered for ``player``; the GM's view shows everything)."""
    board = v["map"]
    seen = None if player is None else {parse_cell(c) for c in v["visible"]}
    grid = [list(row) for row in board["rows"]]
    for s in v["strongholds"]:
        x, y = parse_cell(s["pos"])
        grid[y][x] = _SH_MARK[(s["id"] - 1) % len(_SH_MARK)]
    mine = {c["side"] for c in v["characters"] if player and c.get("player") == player}
    for c in v["characters"]:
        if c["alive"]:
            x, y = parse_cell(c["pos"])
            grid[y][x] = (c["side"][0].upper() if player is None else
                          "@" if c.get("player") == player else ("A" if c["side"] in mine else "E"))
    if seen is not None:
        for y, row in enumerate(grid):
            for x, ch in enumerate(row):
                if (x, y) not in seen and ch == ".":
                    row[x] = "·"
    head = "    " + "".join(column_name(x)[-1] for x in range(board["width"]))
    return "\n".join([head] + [f"{y + 1:>3} " + "".join(row) for y, row in enumerate(grid)])


def posts(before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], lang: str,
          templates_dir: Path | None = None) -> dict[str, dict[str, str]]:
    env = environment(TEMPLATES, templates_dir)
    L = LABELS[lang]
    names = {c["id"]: c["name"] for c in after["characters"]}
    out: dict[str, dict[str, str]] = {}

    def told(player: str | None) -> dict[str, list[str]]:
        return {fmt: [narrate.sentence(e, names, lang, m) for e in events
                      if e["type"] not in ("chance", "turn") and
                      (e["to"] == "all" if player is None else visible_to(e, player))]
                for fmt, m in MARKUPS.items()}

    def render(template: str, context: dict[str, Any], lines: dict[str, list[str]]) -> dict[str, str]:
        tpl = env.get_template(template)
        return {fmt: tpl.render(m=m, lines=lines[fmt], **context).strip() + "\n" for fmt, m in MARKUPS.items()}

    sides_owned = {side: [s for s in after["strongholds"] if s["owner"] == side] for side in after["sides"]}
    dead = [c for c in after["characters"] if not c["alive"]]
    common = {"L": L, "lang": lang, "turn": after["turn"], "winner": after["winner"],
              "card_label": lambda d: Card.from_dict(d).label}
    territory_rows = [[side, after["territory"][side], " ".join(f"{s['id']}" for s in sides_owned[side]) or L["none"]]
                      for side in after["sides"]]
    out["public"] = render("public.j2", {**common, "territory_rows": territory_rows, "dead": dead}, told(None))
    for player in _players(after):
        v = view(after, player)
        mine = [c for c in v["characters"] if c.get("player") == player]
        out[player] = render("private.j2", {**common, "player": player, "mine": mine,
                                            "others": [c for c in v["characters"] if c.get("player") != player],
                                            "map": text_map(after, player)}, told(player))
    return out


def _players(state: dict[str, Any]) -> list[str]:
    seen: list[str] = []
    for c in state["characters"]:
        if c["player"] not in seen:
            seen.append(c["player"])
    return seen


def summary(v: dict[str, Any], player: str | None, lang: str) -> str:
    """A view as terminal text: the map, then one line per character it holds."""
    L = LABELS[lang]
    lines = [L["turn"].format(n=v["turn"]) + (f" · {L['winner']}: {v['winner']}" if v["winner"] else ""),
             draw_map(v, player)]
    for c in v["characters"]:
        hand = " ".join(Card.from_dict(x).label for x in c["hand"]) if c.get("hand") is not None else "?"
        lines.append(f"{c['id']:<14} {c['name']} {c['class']:<9} {c['side']:<5} {L['hp']} {c['hp']}/{c['max_hp']} "
                     f"{c['pos']:<4} {'' if c['alive'] else L['dead']} {L['hand']}: {hand}")
    lines.append(f"{L['territory']}: " + ", ".join(f"{s} {n}" for s, n in v["territory"].items()))
    return "\n".join(lines)
