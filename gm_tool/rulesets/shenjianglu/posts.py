"""Posts (contract §1): the public post (every action and counter, deaths, kings' 体力, the board
as a picture and as text) and one private post per player (their own hand, deck count, cards
drawn, mana, and on their turn a pre-filled sheet). Built from views and event audiences only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm_tool.core import picture as pic
from gm_tool.core.grid import column_name, parse_cell
from gm_tool.core.narrate import Teller
from gm_tool.core.render import MARKUPS, environment, render_all
from gm_tool.core.ruleset import Posts
from gm_tool.rulesets.shenjianglu.cards import catalogue
from gm_tool.rulesets.shenjianglu.messages import NARRATION
from gm_tool.rulesets.shenjianglu.view import view

TEMPLATES = Path(__file__).parent / "templates"
SIDES = ["red", "green"]

LABELS: dict[str, dict[str, Any]] = {
    "zh": {"title": "神将录 · 第 {turn} 回合", "public": "公开战报", "private": "{player} 的私信",
           "board": "棋盘", "units": "场上人物", "kings": "各家状况", "legend_pic": "图：圆点为人物（标签见上表），红队、绿队着色；白圈为你的人物。",
           "legend_text": "文字棋盘：# 空缺，^ 无人的王位，* 无人的出兵点，. 空格；标签见人物表。",
           "label": "标签", "id": "编号", "card": "卡牌", "owner": "玩家", "pos": "位置", "facing": "朝向",
           "stats": "武力/体力/移动力", "damage": "伤害", "equipment": "装备", "seat": "座位", "player": "玩家",
           "team": "队伍", "king": "王", "king_hp": "王的体力", "hand": "手牌", "deck": "牌堆", "grave": "墓地",
           "out": "已出局", "in": "在场", "next": "下一位行动：{player}", "winner": "游戏结束，胜者：{winner}",
           "your_hand": "你的手牌", "cost": "法力消耗", "type": "类型", "mana": "下个回合的法力：{mana}，摸牌 {draw} 张",
           "your_turn": "轮到你了！请按下面的指令表回复（已预填）：", "drawn": "本回合摸到的牌",
           "none": "无", "red": "红队", "green": "绿队", "draw": "平局",
           "types": {"character": "人物", "spell": "法术", "equipment": "装备"},
           "picture": "棋盘图"},
    "en": {"title": "神将录 · turn {turn}", "public": "public report", "private": "private report for {player}",
           "board": "Board", "units": "Units", "kings": "Seats", "legend_pic": "Picture: dots are units (labels as in the table), red and green by team; white ring: yours.",
           "legend_text": "Text board: # void, ^ empty throne, * empty spawn point, . empty; labels as in the unit table.",
           "label": "Label", "id": "Id", "card": "Card", "owner": "Player", "pos": "Cell", "facing": "Facing",
           "stats": "Atk/Sta/Move", "damage": "Damage", "equipment": "Equipment", "seat": "Seat", "player": "Player",
           "team": "Team", "king": "King", "king_hp": "King's 体力", "hand": "Hand", "deck": "Deck", "grave": "Graveyard",
           "out": "out", "in": "in", "next": "Next to play: {player}", "winner": "The game is over; winner: {winner}",
           "your_hand": "Your hand", "cost": "Cost", "type": "Type", "mana": "Mana next turn: {mana}, draws {draw}",
           "your_turn": "Your turn! Reply with the sheet below (pre-filled):", "drawn": "Cards drawn this turn",
           "none": "none", "red": "red", "green": "green", "draw": "draw",
           "types": {"character": "character", "spell": "spell", "equipment": "equipment"},
           "picture": "Board picture"},
}


WORDS: dict[str, dict[str, Any]] = {
    "zh": {"how": {"normal": "普通攻击", "counter": "反击", "skill": "技能攻击", "spell": "法术攻击"},
           "facing": {"N": "北", "E": "东", "S": "南", "W": "西"},
           "winner": {"red": "红队", "green": "绿队", "draw": "平局"},
           "reason": {"game_over": "游戏已结束", "player_out": "该玩家已出局",
                      "not_first": "本回合已受过攻击，只反击第一次受到的攻击", "no_counter": "攻击者的技能不被反击",
                      "no_damage": "攻击不带伤害", "countered": "本回合已反击过"},
           "shove": {"push": "击退", "pull": "拉近"},
           "effect": {"heal": "回复", "mana": "法力"}, "stat": {"attack": "武力", "stamina": "体力", "move": "移动力"},
           "zone": {"deck": "牌堆", "hand": "手牌", "graveyard": "墓地"}, "none": "无"},
    "en": {"how": {"normal": "normal attack", "counter": "counter", "skill": "skill attack", "spell": "spell attack"},
           "facing": {}, "winner": {}, "reason": {"game_over": "the game is over", "player_out": "the player is out",
                                                  "not_first": "it was attacked already this turn and answers only the first attack",
                                                  "no_counter": "the attacker's skill is not countered",
                                                  "no_damage": "the attack does no damage", "countered": "it has countered once this turn"},
           "shove": {"push": "pushed", "pull": "pulled"},
           "effect": {}, "stat": {}, "zone": {}, "none": "none"},
}


class SjlTeller(Teller):
    """Values told in the post's language: attack kinds, facings, buffs, an absent equipment."""

    def value(self, key: str, value: Any, event: dict[str, Any], params: dict[str, Any]) -> str | None:
        w = WORDS["zh" if self.lang == "zh" else "en"]
        table = {"how": w["shove"] if event["type"] in ("shoved", "not_shoved") else w["how"],
                 "facing": w["facing"], "winner": w["winner"], "reason": w["reason"],
                 "effect": w["effect"], "frm": w["zone"], "into": w["zone"]}.get(key)
        if table is not None and isinstance(value, str):
            return self.m.esc(table.get(value, value))
        if key == "replaced" and value is None:
            return self.m.esc(w["none"])
        if key == "buff" and isinstance(value, dict):
            return self.m.esc(self.sep.join(f"{w['stat'].get(k, k)} {v:+d}" for k, v in value.items()))
        if key == "path" and isinstance(value, list):
            return self.m.esc("→".join(value))
        return None


def labels_of(state: dict[str, Any]) -> dict[str, str]:
    """Two-character labels for the board: kings K1..K8, troops numbered in board order."""
    out, n = {}, 0
    for u in state["units"]:
        if u["king"]:
            out[u["id"]] = u["id"]
        else:
            n += 1
            out[u["id"]] = str(n) if n < 100 else "??"
    return out


def text_board(state: dict[str, Any]) -> str:
    b = state["board"]
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
    labels = labels_of(state)
    for u in state["units"]:
        x, y = parse_cell(u["pos"])
        grid[y][x] = labels[u["id"]]
    head = "    " + "".join(f"{column_name(x):>3}" for x in range(w))
    return "\n".join([head] + [f"{y + 1:>3} " + "".join(f"{v:>3}" for v in row) for y, row in enumerate(grid)])


class Painter(pic.GridPainter):
    """The board: void cells dark, thrones and spawn points tinted by their seat's team."""

    def __init__(self, board: dict[str, Any]):
        super().__init__(board["width"], board["height"], SIDES)
        self.void = {parse_cell(c) for c in board["void"]}
        self.tint: dict[tuple[int, int], pic.RGB] = {}
        for seat, cells in board["spawns"].items():
            colour = pic.mix(pic.GROUND, pic.side_colour("red" if int(seat) % 2 else "green", SIDES), 0.25)
            for c in cells:
                self.tint[parse_cell(c)] = colour
        for seat, c in board["thrones"].items():
            self.tint[parse_cell(c)] = pic.mix(pic.GROUND, pic.side_colour("red" if int(seat) % 2 else "green", SIDES), 0.5)

    def cell_colour(self, x: int, y: int, fogged: bool) -> pic.RGB:
        if (x, y) in self.void:
            return pic.FOG
        return self.tint.get((x, y), pic.GROUND)


_PAINTERS: dict[str, Painter] = {}


def painter_of(board: dict[str, Any]) -> Painter:
    import json

    key = json.dumps(board, sort_keys=True)
    if key not in _PAINTERS:
        if len(_PAINTERS) > 16:
            _PAINTERS.clear()
        _PAINTERS[key] = Painter(board)
    return _PAINTERS[key]


def marks(state: dict[str, Any], player: str | None) -> list[pic.Mark]:
    labels = labels_of(state)
    return [pic.Mark(u["pos"], u["team"], labels[u["id"]], own=u["owner"] == player) for u in state["units"]]


def _rows(state: dict[str, Any], L: dict[str, Any]) -> tuple[list[list[Any]], list[list[Any]]]:
    labels = labels_of(state)
    units = [[labels[u["id"]], u["id"], u["card"], u["owner"], u["pos"], u["facing"],
              f"{u['attack']}/{u['stamina']}/{u['move']}", u["damage"], u["equipment"] or "-"]
             for u in state["units"]]
    kings = {u["owner"]: u for u in state["units"] if u["king"]}
    seats = []
    for s in state["seats"]:
        k = kings.get(s["player"])
        hp = f"{k['stamina'] - k['damage']}/{k['stamina']}" if k else "0"
        seats.append([s["seat"], s["player"], L[s["team"]], s["king"], hp, s["hand_count"], s["deck_count"],
                      len(s["graveyard"]), L["out"] if s["out"] else L["in"]])
    return units, seats


def _winner(state: dict[str, Any], L: dict[str, Any]) -> str | None:
    w = state.get("winner")
    return None if w is None else L.get(w, w)


def posts(before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], lang: str,
          templates_dir: Path | None = None) -> Posts:
    from gm_tool.rulesets.shenjianglu.sheet import template

    L = LABELS["zh" if lang == "zh" else "en"]
    env = environment(TEMPLATES, templates_dir)
    names: dict[str, str] = {}
    tellers = {fmt: SjlTeller(NARRATION, names, lang, m) for fmt, m in MARKUPS.items()}
    cut = NARRATION.sections(events)
    painter = painter_of(after["board"])
    units, seats = _rows(after, L)
    common = {"L": L, "title": L["title"].format(turn=after["turn"]), "winner": _winner(after, L),
              "next": after.get("next"), "unit_rows": units, "seat_rows": seats, "board_text": text_board(after)}
    out: dict[str, dict[str, str]] = {}
    files: dict[str, bytes] = {}

    def render(name: str, context: dict[str, Any], reader: str | None, public: bool) -> dict[str, str]:
        return render_all(env, name, context, lambda fmt, m: {
            "story": NARRATION.story(events, tellers[fmt], reader, public=public, cut=cut)})

    out["public"] = render("public.j2", {**common, "map_image": "map-public.png"}, None, True)
    files["map-public.png"] = painter.png(marks(after, None))
    cat = catalogue(after)
    for seat in after["seats"]:
        player = seat["player"]
        v = view(after, player)
        mine = next(s for s in v["seats"] if s["player"] == player)
        hand = [[c, L["types"].get(cat[c]["type"], cat[c]["type"]), cat[c]["cost"]] for c in mine["hand"]]
        drawn = [e["card"] for e in events if e["type"] == "drawn" and e.get("player") == player]
        sheet = template(after, player, lang) if after.get("next") == player else None
        ctx = {**common, "player": player, "hand_rows": hand, "drawn": drawn, "sheet": sheet,
               "mana_line": L["mana"].format(mana=mine["mana"], draw=mine["draw"]),
               "deck_count": mine["deck_count"], "map_image": f"map-{player}.png",
               "private_title": L["private"].format(player=player)}
        out[player] = render("private.j2", ctx, player, False)
        files[f"map-{player}.png"] = painter.png(marks(v, player))
    return Posts(out, files)


def summary(v: dict[str, Any], player: str | None, lang: str) -> str:
    L = LABELS["zh" if lang == "zh" else "en"]
    units, seats = _rows(v, L)
    lines = [L["title"].format(turn=v["turn"]), text_board(v), ""]
    lines += ["  ".join(str(c) for c in row) for row in
              [[L["label"], L["id"], L["card"], L["owner"], L["pos"], L["facing"], L["stats"], L["damage"], L["equipment"]]] + units]
    lines.append("")
    lines += ["  ".join(str(c) for c in row) for row in
              [[L["seat"], L["player"], L["team"], L["king"], L["king_hp"], L["hand"], L["deck"], L["grave"], ""]] + seats]
    w = _winner(v, L)
    lines.append(L["winner"].format(winner=w) if w else L["next"].format(player=v.get("next")))
    for s in v["seats"]:
        if "hand" in s and player is not None:
            lines.append(f"{L['your_hand'] if s['player'] == player else s['player']}: {'、'.join(s['hand']) or L['none']}")
        elif player is None:
            lines.append(f"{s['player']} {L['hand']}: {'、'.join(s['hand']) or L['none']}; "
                         f"{L['deck']}: {'、'.join(s['deck']) or L['none']}")
    return "\n".join(lines) + "\n"
