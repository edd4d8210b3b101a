"""Views, `gm show` text and the turn's posts: every roll with its source, the pips it was read
against and the outcome, so players can check the arithmetic; the board as text and picture,
the generals as a table, the round's order with who has acted and who is acting. Every word
comes from ``data/messages.yaml``; players are named by their display names."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from gm_tool.core.events import visible_to
from gm_tool.core.grid import parse_cell
from gm_tool.core.render import display_name, environment, render_all
from gm_tool.core.ruleset import Posts
from gm_tool.rulesets.hunlu import narrate
from gm_tool.rulesets.hunlu.engine import skills_of
from gm_tool.rulesets.hunlu.messages import TEXTS

PACKAGE = Path(__file__).parent / "templates"
FIELDS = ("id", "name", "player", "side", "role", "pos", "jing", "qi", "shen", "move", "ap", "range", "statuses")


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


def board_text(state: dict[str, Any], lang: str) -> str:
    """The board as a monospace grid: units by their marks (upper case the first side, lower
    case the other, ``x`` a body), ``#`` II, ``~`` III 天堑, ``█`` IV; then the legend."""
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
    names = narrate.unit_names(state)
    shown = ", ".join(f"{tags[u['id']]}={names[u['id']]}" for u in state["units"] if u["pos"] and u["alive"])
    sides = [narrate.side_name(s, lang) for s in state["sides"]]
    legend = TEXTS.label(lang, "legend", first=sides[0], second=sides[-1])
    return "\n".join([head] + rows + [TEXTS.label(lang, "labels_legend", labels=shown), legend])


def unit_tags(state: dict[str, Any]) -> dict[str, str]:
    """One character per unit: the first side upper case letters A.., the other lower case."""
    out = {}
    counters = {side: 0 for side in state["sides"]}
    for u in state["units"]:
        k = counters[u["side"]]
        counters[u["side"]] += 1
        base = "A" if u["side"] == state["sides"][0] else "a"
        out[u["id"]] = chr(ord(base) + k % 26)
    return out


def unit_row(u: dict[str, Any], lang: str) -> list[str]:
    """One general as a table row, every value in words."""
    L = TEXTS.labels(lang)
    statuses = L["list_sep"].join(TEXTS.label(lang, "status_item", name=s["name"], pending="" if s["active"] else L["status_pending"],
                                    rounds=L["forever"] if s["rounds"] is None else TEXTS.label(lang, "rounds", rounds=s["rounds"]))
                        for s in u["statuses"])
    where = u["pos"] or (L["where"]["chasm"] if u.get("chasm") else L["where"]["bench"] if u["role"] == "reserve"
                         else L["where"]["none"])
    return [u["id"], u["name"], display_name(u["player"]), narrate.side_name(u["side"], lang), L["roles"][u["role"]],
            where, f"{u['jing']}/{u['max_jing']}", f"{u['qi']}/{u['max_qi']}", str(u["shen"]), str(u["move"]),
            str(u["ap"]), str(u["range"]), statuses or "-"]


def order_line(state: dict[str, Any], lang: str) -> str:
    """The round's acting order, who has acted and who is acting now."""
    L = TEXTS.labels(lang)
    names = narrate.unit_names(state)
    nxt = (state.get("next") or {}).get("unit")
    parts = []
    for uid in state["order"]:
        mark = L["due"] if uid == nxt else L["acted"] if uid in state["acted"] else ""
        parts.append(TEXTS.label(lang, "marked", unit=names[uid], mark=mark) if mark else names[uid])
    return TEXTS.label(lang, "round_order", round=state["round"], order=L["order_sep"].join(parts))


def summary(v: dict[str, Any], player: str | None, lang: str) -> str:
    """`gm show` as text: the round, the next general, the order, the board and every general."""
    nxt = v.get("next")
    names = narrate.unit_names(v)
    head = TEXTS.label(lang, "summary_head", name=v["name"], round=v["round"], turn=v["turn"])
    if v.get("winner"):
        head += " " + TEXTS.label(lang, "summary_over", winner=narrate.winner_words(v["winner"], lang))
    elif nxt:
        head += " " + TEXTS.label(lang, "summary_next", unit=names[nxt["unit"]], player=display_name(nxt["player"]))
    lines = [head, order_line(v, lang), board_text(v, lang)]
    lines += [" ".join(unit_row(u, lang)) for u in v["units"]]
    lines.append(TEXTS.label(lang, "summary_dice", dice=" ".join(map(str, v["dice"])) or "-"))
    mine = standing_text(v, player, lang)
    if mine:
        lines.append(TEXTS.label(lang, "summary_standing", orders=mine))
    return "\n".join(lines)


def standing_text(shown: dict[str, Any], player: str | None, lang: str) -> str:
    """A player's stored standing orders in words (their 心战 cards included): generals and
    skills by name, no codes."""
    mine = shown["standing"].get(player) if player is not None else None
    if not mine:
        return ""
    L = TEXTS.labels(lang)
    names = narrate.unit_names(shown)
    units = {u["id"]: u for u in shown["units"]}
    sep = L["list_sep"]

    def say(key: str, uid: str, value: Any) -> str:
        if key == "joint_attack":
            against = L["any_target"] if value["against"] == "any" else sep.join(names.get(x, x) for x in value["against"])
            return TEXTS.label(lang, "joint_spec", against=against, when=L["when"][value["when"]], keep_qi=value["keep_qi"])
        if key == "first_skills":
            skills = {sk["id"]: sk["name"] for sk in skills_of(shown, units[uid])}
            return sep.join(f"【{skills.get(x, x)}】" for x in value)
        if key == "first_recast":
            return str(L["recast"][value])
        if key == "heart_card":
            return str(L["cards"][value])
        return sep.join(value)  # chasm_return: points

    parts = []
    for key in sorted(mine):
        value = mine[key]
        if key == "reserve_order":
            text = sep.join(names.get(x, x) for x in value)
        else:
            text = L["part_sep"].join(f"{names.get(uid, uid)} {say(key, uid, x)}" for uid, x in value.items())
        parts.append(TEXTS.label(lang, "standing_item", key=L["standing_keys"].get(key, key), value=text))
    return L["part_sep"].join(parts)


def posts(before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], lang: str,
          templates_dir: Path | None = None) -> Posts:
    """A public post and one private post per player, each built from that reader's view and the
    events whose audience includes the reader."""
    env = environment(PACKAGE, templates_dir)
    out = Posts()
    L = TEXTS.labels(lang)
    head = [L["head"][k] for k in FIELDS]
    for audience in ["public"] + list(after["players"]):
        player = None if audience == "public" else audience
        seen = [e for e in events if (e.get("to") == "all" if player is None else visible_to(e, player))]
        if player is None and after["rules"].get("posts") == "round":
            seen = round_story(before, seen)
        shown = view(after, player)
        ctx = {"lang": lang, "state": shown, "player": player, "board": board_text(shown, lang),
               "head": head, "rows": [unit_row(u, lang) for u in shown["units"]],
               "order": order_line(shown, lang) if shown.get("winner") is None else "",
               "next_note": narrate.next_note(shown, player, lang),
               "title": narrate.title(before, after, player, lang),
               "sheet": _sheet_for(after, player, lang),
               "standing": TEXTS.label(lang, "standing_mine", orders=standing_text(shown, player, lang))
               if standing_text(shown, player, lang) else ""}
        out.texts[audience] = render_all(env, "post.j2", ctx, lambda fmt, m, seen=seen, shown=shown: {
            "lines": narrate.lines(seen, shown, lang, m)})
    try:
        from gm_tool.rulesets.hunlu.picture import board_png

        out.files["map-public.png"] = board_png(after)
    except ImportError:  # pragma: no cover - Pillow missing
        pass
    return out


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
