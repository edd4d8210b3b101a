"""Posts of 光与影: the events told (every reaction with its cause), the board as text and as a
picture, and per player the pool, hand and squads, with "your turn" and a pre-filled sheet for
the player due. Nothing is hidden: the private posts add only what concerns their reader."""

from __future__ import annotations

from typing import Any

from gm_tool.core import picture
from gm_tool.core.grid import cell_name
from gm_tool.core.narrate import Narration, Teller
from gm_tool.core.render import BBCode, Markdown, environment
from gm_tool.rulesets.guangying.messages import texts
from gm_tool.rulesets.guangying.model import ROCK, H, W

NARRATION = Narration(texts()["titles"], silent=("chance",))
NARRATION.register(texts()["narration"])
WORDS: dict[str, dict[str, str]] = texts()["words"]


class GyTeller(Teller):
    name_keys = ("player", "piece", "squad", "target", "new_squad", "owner", "extra", "winner")
    name_list_keys = ("pieces", "by")

    def value(self, key: str, value: Any, event: dict[str, Any], params: dict[str, Any]) -> str | None:
        words = WORDS[self.lang]
        if key in ("kind", "cause", "via", "why", "how", "what") and isinstance(value, str):
            return self.m.esc(words.get(value, value))
        if key == "full":
            return words["full"] if value else ""
        if key == "reason" and event["type"] == "action_skipped":
            from gm_tool.i18n import message

            return self.m.esc(message("guangying.action." + value, self.lang, **event.get("params", {})))
        if key == "params":
            return ""
        return None


def _names(state: dict[str, Any]) -> dict[str, str]:
    names = {p["player"]: p["player"] for p in state["players"]}
    return names


def text_board(state: dict[str, Any]) -> tuple[str, list[str]]:
    """The board as fixed-width text and its legend lines (squad tags, leaders first, marked *)."""
    tags: dict[str, str] = {}
    legend: list[str] = []
    owners = [p["player"] for p in state["players"]]
    pieces = {p["id"]: p for p in state["pieces"]}
    counts = {o: 0 for o in owners}
    for q in sorted(state["squads"], key=lambda q: (owners.index(q["owner"]), q["id"])):
        counts[q["owner"]] += 1
        tag = ("ab"[owners.index(q["owner"])]) + str(counts[q["owner"]])
        tags[q["pos"]] = tag
        members = ", ".join(f"{'*' if i == 0 else ''}{m} {pieces[m]['class']} {pieces[m]['hp']}/{pieces[m]['max_hp']}"
                            for i, m in enumerate(q["members"]))
        flags = (" [防御]" if q["defending"] else "")
        legend.append(f"{tag} = {q['id']} ({q['owner']}) @{q['pos']}: {members}{flags}")
    fort = {c: "##" for p in state["players"] for c in p["fortress"]}
    marks = {}
    for m in state["markers"]:
        for c in m["cells"]:
            marks[c] = "^^" if m["kind"] == ROCK else "~~"
    lines = ["    " + " ".join(f"{chr(65 + x):>2}" for x in range(W))]
    for y in range(H):  # row 1 on top, as in the picture
        row = []
        for x in range(W):
            name = cell_name((x, y))
            row.append(f"{tags.get(name) or fort.get(name) or marks.get(name) or ' .':>2}")
        lines.append(f"{y + 1:>3} " + " ".join(row))
    for m in state["markers"]:
        legend.append(f"{'^^' if m['kind'] == ROCK else '~~'} = {m['kind']} {m['id']} ({m['owner']}): {', '.join(m['cells'])}")
    for p in state["players"]:
        legend.append(f"## = {p['player']} 要塞/fortress {', '.join(p['fortress'])}: {p['fortress_hp']} HP")
    return "\n".join(lines), legend


LETTERS = {"野蛮人": "B", "诗人": "D", "牧师": "P", "德鲁伊": "U", "战士": "W", "圣武士": "K", "巡林客": "R",
           "游荡者": "G", "术士": "S", "法师": "M"}


class Painter(picture.GridPainter):
    def __init__(self, state: dict[str, Any]):
        sides = ["red", "blue"]
        super().__init__(W, H, sides)
        self.state = state

    def cell_colour(self, x: int, y: int, fogged: bool) -> picture.RGB:
        row = y + 1
        for i, p in enumerate(self.state["players"]):
            name = cell_name((x, y))
            if name in p["fortress"]:
                return picture.mix(picture.side_colour(self.sides[i], self.sides), picture.INK, 0.5)
            if row in p["home_rows"]:
                return picture.mix(picture.GROUND, picture.side_colour(self.sides[i], self.sides), 0.18)
        return picture.GROUND

    def decorate(self, im: Any, draw: Any, fogged: bool) -> None:
        for m in self.state["markers"]:
            for c in m["cells"]:
                from gm_tool.core.grid import parse_cell

                left, top, right, bottom = self.cell_box(*parse_cell(c))
                colour = (110, 110, 110) if m["kind"] == ROCK else (150, 200, 230)
                draw.rectangle([left + 2, top + 2, right - 3, bottom - 3], fill=colour)
        for p in self.state["players"]:
            from gm_tool.core.grid import parse_cell

            first = sorted(p["fortress"], key=lambda c: parse_cell(c))[0]
            left, top, _, _ = self.cell_box(*parse_cell(first))
            picture.text(im, left + 4, top + 10, str(p["fortress_hp"]), picture.WHITE, 2)

    def extra_colours(self) -> set[picture.RGB]:
        return {(110, 110, 110), (150, 200, 230)}


def board_png(state: dict[str, Any]) -> bytes:
    owners = [p["player"] for p in state["players"]]
    pieces = {p["id"]: p for p in state["pieces"]}
    marks = []
    for q in state["squads"]:
        side = ["red", "blue"][owners.index(q["owner"])]
        for i, m in enumerate(q["members"]):
            label = LETTERS.get(pieces[m]["class"], "?") + ("@" if i == 0 else str(i + 1))
            marks.append(picture.Mark(q["pos"], side, label, own=i == 0))
    return Painter(state).png(marks)


def summary(view: dict[str, Any], player: str | None, lang: str) -> str:
    board, legend = text_board(view)
    zh = lang == "zh"
    head = (f"第 {view['turn']} 回合后；待行动：{view['next'] or '-'}；胜者：{view['winner'] or '-'}" if zh else
            f"After turn {view['turn']}; due: {view['next'] or '-'}; winner: {view['winner'] or '-'}")
    if view.get("pending_win"):
        head += (f"（{view['pending_win']} 已获胜，后手还可再行动一次）" if zh else
                 f" ({view['pending_win']} has won; the second player has one more turn)")
    lines = [head, board, *legend]
    for p in view["players"]:
        if player is not None and p["player"] != player:
            continue
        pool = ", ".join(f"{k} {v}" for k, v in p["pool"].items())
        hand = ", ".join(f"{h['id']} {h['class']} {h['hp']}/{h['max_hp']}" for h in p["in_hand"]) or "-"
        lines.append(f"{p['player']}: {'池' if zh else 'pool'} {pool}; {'手中' if zh else 'hand'} {hand}; "
                     f"{'阵亡' if zh else 'dead'} {', '.join(p['dead']) or '-'}")
    return "\n".join(lines)


def posts(before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], lang: str,
          templates_dir: Any, package_dir: Any, template_text: Any) -> tuple[dict[str, dict[str, str]], dict[str, bytes]]:
    env = environment(package_dir / "templates", templates_dir)
    names = _names(after)
    cut = NARRATION.sections(events)
    board, legend = text_board(after)
    texts: dict[str, dict[str, str]] = {}
    audiences = [None] + [p["player"] for p in after["players"]]
    for who in audiences:
        out = {}
        for fmt, m in (("bbcode", BBCode()), ("md", Markdown())):
            teller = GyTeller(NARRATION, names, lang, m)
            story = NARRATION.story(events, teller, who, public=who is None, cut=cut)
            me = next((p for p in after["players"] if p["player"] == who), None)
            context = {"lang": lang, "m": m, "turn": after["turn"], "state": after, "story": story,
                       "board": board, "legend": legend, "player": who, "me": me,
                       "your_turn": who is not None and after.get("next") == who,
                       "sheet": template_text(after, who, lang) if who is not None and after.get("next") == who else "",
                       "winner": after.get("winner"), "picture": "map-public.png", "L": LABELS[lang],
                       "mine": _mine(after, me, lang) if me else []}
            out[fmt] = env.get_template("public.j2" if who is None else "private.j2").render(**context)
        texts["public" if who is None else who] = out
    return texts, {"map-public.png": board_png(after)}


LABELS: dict[str, dict[str, str]] = texts()["labels"]


def _mine(state: dict[str, Any], me: dict[str, Any], lang: str) -> list[list[str]]:
    zh = lang == "zh"
    pieces = {p["id"]: p for p in state["pieces"]}
    rows = [["要塞" if zh else "fortress", f"{me['fortress_hp']}"],
            ["棋子池" if zh else "pool", ", ".join(f"{k} {v}" for k, v in me["pool"].items())],
            ["手中" if zh else "hand", ", ".join(
                f"{h['id']} {h['class']} {h['hp']}/{h['max_hp']}"
                + (f" (≥{h['cannot_return_until']})" if h["cannot_return_until"] else "") for h in me["in_hand"]) or "-"],
            ["阵亡" if zh else "dead", ", ".join(me["dead"]) or "-"],
            ["缺护卫者/职业者回合" if zh else "turns without guardian/professional",
             f"{me['guardian_missing_turns']}/{me['professional_missing_turns']}"]]
    for q in state["squads"]:
        if q["owner"] == me["player"]:
            rows.append([q["id"] + " @" + q["pos"], ", ".join(
                f"{m} {pieces[m]['class']} {pieces[m]['hp']}/{pieces[m]['max_hp']}" for m in q["members"])])
    return rows
