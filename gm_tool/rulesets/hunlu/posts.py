"""What each post of 魂陆 holds, as content for the core's pipeline (``gm_tool.core.posts``
renders it): every roll with its source, the pips it was read against and the outcome, so
players can check the arithmetic; the board as text and as a picture with its legend, the
generals as a table, the round's order (who has acted, who is acting), the reader's standing
orders in words and the pre-filled sheet of a player who is due. Also views and `gm show` text.
No markup and no display name here: the template names players with the core's ``name()``."""

from __future__ import annotations

import copy
from typing import Any

from gm_tool.core.grid import parse_cell
from gm_tool.core.posts import Post, PostTurn
from gm_tool.core.render import display_name
from gm_tool.rulesets.hunlu import narrate
from gm_tool.rulesets.hunlu.engine import skills_of
from gm_tool.rulesets.hunlu.messages import TEXTS
from gm_tool.rulesets.hunlu.resolve import round_cut

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
    """The board as a monospace grid, two characters a cell: generals by the marks the picture
    shows (upper case the first side, lower case the other, ``x`` a body), ``##`` II, ``~~`` III
    天堑, ``██`` IV; then the marks and the legend."""
    w, h = state["map"]["width"], state["map"]["height"]
    grid = [["· "] * w for _ in range(h)]
    signs = {2: "##", 3: "~~", 4: "██"}
    for o in state["obstacles"]:
        x, y = parse_cell(o["pos"])
        grid[y][x] = signs[o["grade"]]
    tags = unit_tags(state)
    for u in state["units"]:
        if u["pos"]:
            x, y = parse_cell(u["pos"])
            grid[y][x] = tags[u["id"]] if u["alive"] else "x "
    head = "   " + " ".join(f"{chr(65 + x):<2}" for x in range(w))
    rows = [f"{y + 1:>2} " + " ".join(grid[y]).rstrip() for y in range(h)]
    names = narrate.unit_names(state)
    shown = ", ".join(f"{tags[u['id']]}={names[u['id']]}" for u in state["units"] if u["pos"] and u["alive"])
    sides = [narrate.side_name(s, lang) for s in state["sides"]]
    legend = TEXTS.label(lang, "legend", first=sides[0], second=sides[-1])
    return "\n".join([head.rstrip()] + rows + [TEXTS.label(lang, "labels_legend", labels=shown), legend])


def unit_tags(state: dict[str, Any]) -> dict[str, str]:
    """The text board's marks: the picture's, upper case for the first side, lower for the other."""
    first = state["sides"][0]
    return {uid: mark if u["side"] == first else mark.lower()
            for (uid, mark), u in zip(narrate.marks(state).items(), state["units"])}


def unit_values(u: dict[str, Any], lang: str) -> dict[str, Any]:
    """One general as plain values for the table (its player by id: the template names them)."""
    L = TEXTS.labels(lang)
    statuses = L["list_sep"].join(
        TEXTS.label(lang, "status_item", name=s["name"], pending="" if s["active"] else L["status_pending"],
                    rounds=L["forever"] if s["rounds"] is None else TEXTS.label(lang, "rounds", rounds=s["rounds"]))
        for s in u["statuses"])
    where = u["pos"] or (L["where"]["chasm"] if u.get("chasm") else L["where"]["bench"] if u["role"] == "reserve"
                         else L["where"]["none"])
    return {"id": u["id"], "name": u["name"], "player": u["player"], "side": narrate.side_name(u["side"], lang),
            "role": L["roles"][u["role"]], "pos": where, "jing": f"{u['jing']}/{u['max_jing']}",
            "qi": f"{u['qi']}/{u['max_qi']}", "shen": str(u["shen"]), "move": str(u["move"]), "ap": str(u["ap"]),
            "range": str(u["range"]), "statuses": statuses or "-"}


def unit_row(u: dict[str, Any], lang: str) -> list[str]:
    """One general as a line of `gm show`'s text."""
    values = unit_values(u, lang)
    values["player"] = display_name(u["player"])
    return [values[k] for k in FIELDS]


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


def post(rs: Any, turn: PostTurn, reader: str | None) -> Post:
    """One post of a resolved turn (or of the opening, turn 0), as content for the core: the
    reader's view in plain values (players by id: the template names them), the board as text
    and as a picture (public post), the round's order, the reader's standing orders in words,
    and the pre-filled sheet of a player who is due."""
    lang = turn.lang
    v = view(turn.after, reader)
    L = TEXTS.labels(lang)
    nxt = v.get("next") if v.get("winner") is None else None
    if turn.n == 0:
        title = TEXTS.label(lang, "title_opening", name=v["name"])
    else:
        title = TEXTS.label(lang, "title", name=v["name"], n=turn.n, round=turn.before["round"])
    names = narrate.unit_names(v)
    ctx = {"title": title, "board": board_text(v, lang), "order": order_line(v, lang) if nxt else "",
           "head": [L["head"][k] for k in FIELDS], "units": [unit_values(u, lang) for u in v["units"]],
           "sides": [{"name": narrate.side_name(side, lang),
                      "players": [p for p in v["players"] if any(u["player"] == p and u["side"] == side
                                                                 for u in v["units"])]} for side in v["sides"]],
           "next": {"unit": names[nxt["unit"]], "player": nxt["player"]} if nxt else None,
           "mine": nxt is not None and reader is not None and nxt["player"] == reader,
           "standing": standing_text(v, reader, lang),
           "yours": L["list_sep"].join(TEXTS.label(lang, "marked", unit=names[u["id"]], mark=L["roles"][u["role"]])
                                       for u in v["units"] if u["player"] == reader)}
    sheet = rs.template(turn.after, reader, lang) if reader is not None and reader in rs.due(turn.after) else None
    return Post("post.j2", ctx, picture=(lambda: picture(turn.after)) if reader is None else None, sheet=sheet)


def picture(state: dict[str, Any]) -> bytes:
    from gm_tool.rulesets.hunlu.picture import board_png

    return board_png(state)


def tell(rs: Any, turn: PostTurn, reader: str | None, teller: Any) -> list[dict[str, Any]]:
    """The story of a post: the sections of the events the reader may know; with ``rules.posts:
    round`` the public post tells a whole round once it is over (a note until then); the
    opening's first section is titled as such."""
    narration = rs.narration()
    if reader is None and turn.after["rules"].get("posts") == "round" and turn.n > 0:
        seen = round_story(turn.before, [e for e in turn.events if e.get("to") == "all"])
        story = narration.story(seen, teller, None, public=True)
    else:
        story = narration.story(turn.events, teller, reader, public=reader is None, cut=turn.cut(rs))
    if turn.n == 0 and story and story[0]["kind"] == "other":
        story[0] = {**story[0], "title": teller.title("opening", None)}
    return list(story)


def round_story(before: dict[str, Any], seen: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-round public posts: the whole round when this step ended it (or ended the game), else
    only a note (and what is told at once: GM edits, forum rolls)."""
    story = list(before.get("round_events") or []) + seen
    if any(e["type"] == "victory" for e in story):
        return story
    cut = round_cut(story)
    if cut is None:
        return [e for e in seen if e["type"] in ("amend", "dice_file", "dice_unused")] + \
            [{"type": "round_pending", "to": "all", "round": before["round"]}]
    return story[:cut]
