"""Views, `gm show` text and the turn's posts: every roll with its source, the pips it was read
against and the outcome, so players can check the arithmetic; the board as text and picture."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from gm_tool.core.events import visible_to
from gm_tool.core.grid import parse_cell
from gm_tool.core.render import environment, render_all
from gm_tool.core.ruleset import Posts
from gm_tool.rulesets.hunlu import narrate

PACKAGE = Path(__file__).parent / "templates"


def view(state: dict[str, Any], player: str | None) -> dict[str, Any]:
    """Everything on the board is public; a player sees only their own standing orders (心战
    cards are in them) and no GM-only bookkeeping."""
    out = copy.deepcopy(state)
    if player is not None:
        out["standing"] = {p: s for p, s in out["standing"].items() if p == player}
        for u in out["units"]:
            for st in u["statuses"]:
                if "heart_card" in st and st.get("heart_owner") != player:
                    st["heart_card"] = None  # face down (l.120)
    return out


def board_text(state: dict[str, Any]) -> str:
    """The board as a monospace grid: units by a short tag, ``#`` II, ``~`` III 天堑, ``█`` IV."""
    w, h = state["map"]["width"], state["map"]["height"]
    grid = [["·"] * w for _ in range(h)]
    marks = {2: "#", 3: "~", 4: "█"}
    for o in state["obstacles"]:
        x, y = parse_cell(o["pos"])
        grid[y][x] = marks[o["grade"]]
    tags = unit_tags(state)
    for u in state["units"]:
        if u["pos"]:
            x, y = parse_cell(u["pos"])
            grid[y][x] = tags[u["id"]] if u["alive"] else "x"
    head = "   " + " ".join(chr(65 + x) for x in range(w))
    rows = [f"{y + 1:>2} " + " ".join(grid[y]) for y in range(h)]
    legend = ", ".join(f"{tags[u['id']]}={u['id']}" for u in state["units"] if u["pos"] and u["alive"])
    return "\n".join([head] + rows + [legend])


def unit_tags(state: dict[str, Any]) -> dict[str, str]:
    """One character per unit: red side upper case letters A.., the other side lower case."""
    out = {}
    counters = {side: 0 for side in state["sides"]}
    for u in state["units"]:
        k = counters[u["side"]]
        counters[u["side"]] += 1
        base = "A" if u["side"] == state["sides"][0] else "a"
        out[u["id"]] = chr(ord(base) + k % 26)
    return out


def unit_line(u: dict[str, Any], lang: str) -> str:
    st = ", ".join(f"{s['name']}({'∞' if s['rounds'] is None else s['rounds']}{'' if s['active'] else '*'})"
                   for s in u["statuses"])
    where = u["pos"] or ("天堑" if u.get("chasm") else "-")
    role = {"main": "主", "reserve": "副", "dead": "亡"}[u["role"]] if lang == "zh" else u["role"]
    return (f"{u['id']} {u['name']} [{u['player']}/{u['side']}/{role}] @{where} 精{u['jing']}/{u['max_jing']} "
            f"气{u['qi']}/{u['max_qi']} 神{u['shen']} 行动力{u['move']} 点{u['ap']} 射程{u['range']}"
            + (f" {st}" if st else ""))


def summary(v: dict[str, Any], player: str | None, lang: str) -> str:
    nxt = v.get("next")
    head = (f"魂陆 {v['name']} 第{v['round']}大回合 已结算{v['turn']}步 " if lang == "zh" else
            f"Hunlu {v['name']} round {v['round']}, {v['turn']} turns resolved ")
    if v.get("winner"):
        head += ("胜者：" if lang == "zh" else "winner: ") + str(v["winner"])
    elif nxt:
        head += ("轮到：" if lang == "zh" else "next: ") + f"{nxt['unit']} ({nxt['player']})"
    lines = [head, ("行动顺序：" if lang == "zh" else "order: ") + " > ".join(v["order"]), board_text(v)]
    lines += [unit_line(u, lang) for u in v["units"]]
    lines.append(("强制骰队列：" if lang == "zh" else "forced dice: ") + str(v["dice"]))
    if player is not None and v["standing"].get(player):
        lines.append(("常驻指令：" if lang == "zh" else "standing: ") + str(v["standing"][player]))
    return "\n".join(lines)


def posts(before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], lang: str,
          templates_dir: Path | None = None) -> Posts:
    """A public post and one private post per player, each built from that reader's view and the
    events whose audience includes the reader."""
    env = environment(PACKAGE, templates_dir)
    out = Posts()
    for audience in ["public"] + list(after["players"]):
        player = None if audience == "public" else audience
        seen = [e for e in events if (e.get("to") == "all" if player is None else visible_to(e, player))]
        if player is None and after["rules"].get("posts") == "round":
            seen = round_story(before, seen)
        shown = view(after, player)
        ctx = {"lang": lang, "state": shown, "player": player, "board": board_text(shown),
               "units": [unit_line(u, lang) for u in shown["units"]],
               "next_note": narrate.next_note(shown, player, lang),
               "title": narrate.title(before, after, player, lang),
               "sheet": _sheet_for(after, player, lang),
               "standing": _standing_line(shown, player, lang)}
        out.texts[audience] = render_all(env, "post.j2", ctx, lambda fmt, m, seen=seen, shown=shown: {
            "lines": narrate.lines(seen, shown, lang, m)})
    try:
        from gm_tool.rulesets.hunlu.picture import board_png

        out.files["map-public.png"] = board_png(after)
    except ImportError:  # pragma: no cover - Pillow missing
        pass
    return out


def _standing_line(shown: dict[str, Any], player: str | None, lang: str) -> str:
    """A player's private post repeats their stored standing orders (心战 cards included)."""
    mine = shown["standing"].get(player) if player is not None else None
    if not mine:
        return ""
    parts = []
    for key in sorted(mine):
        parts.append(f"{key}: {mine[key]}")
    return ("你的常驻指令：" if lang == "zh" else "your standing orders: ") + "; ".join(parts)


def round_story(before: dict[str, Any], seen: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-round public posts: the whole round when this step ended it, else only a note."""
    story = list(before.get("round_events") or []) + seen
    ends = [i for i, e in enumerate(story) if e["type"] == "round_end"]
    if not ends:
        return [e for e in seen if e["type"] in ("amend", "victory", "dice_file", "dice_unused")] + \
            [{"type": "round_pending", "round": before["round"]}]
    return story[:ends[-1] + 1] + [e for e in story[ends[-1] + 1:] if e["type"] == "victory"]


def _sheet_for(state: dict[str, Any], player: str | None, lang: str) -> str:
    """The due player's private post carries a pre-filled sheet of its general's legal actions."""
    nxt = state.get("next")
    if player is None or not nxt or nxt["player"] != player or state.get("winner") is not None:
        return ""
    from gm_tool.rulesets.hunlu.sheet import template

    return template(state, player, lang)
