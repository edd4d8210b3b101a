"""The grail war's forum posts: a public post and one private post per player, per turn, in
BBCode and Markdown (an HTML preview is rendered from the Markdown on demand), plus the map
pictures they show.

What goes in each is decided by the event log's audiences (vision.assign_audiences) and the
player's view (view.view); this module gathers it into plain data and the templates
(``templates/*.j2``, overridable by a campaign's ``templates/`` folder) only lay it out.
Rulings P1-P6 (docs/rulings/grail_war.md) say what the public post tells.

Files per turn (``reports/turn-NNN/``): ``public.{bbcode,md}``, ``PLAYER.{bbcode,md}``,
``map-public.png``, ``map-PLAYER.png`` (only what PLAYER sees) and ``gm-map.png`` (everything).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm_tool.core.deck import Card
from gm_tool.core.events import visible_to
from gm_tool.core.grid import column_name, parse_cell
from gm_tool.core.render import display_name, environment, markups, render_all
from gm_tool.core.ruleset import Posts
from gm_tool.rulesets.grail_war import amend as _amend  # noqa: F401  (registers the GM edits' sentences)
from gm_tool.rulesets.grail_war import narrate
from gm_tool.rulesets.grail_war.combat import text as _text  # noqa: F401  (registers the fight's sentences)
from gm_tool.rulesets.grail_war.view import view

TEMPLATES = Path(__file__).parent / "templates"
GM_MAP = "gm-map.png"

LABELS: dict[str, dict[str, Any]] = {
    "zh": {"turn": "第 {n} 回合", "public": "战报", "private": "私信", "territory": "领土", "side": "阵营",
           "cells": "格数", "events": "本回合经过", "nothing": "无事发生。", "character": "角色", "hp": "体力",
           "hand": "手牌", "equipment": "装备", "weapon": "武器", "armor": "防具", "pos": "位置", "map": "视野地图",
           "none": "无", "class": "职阶", "no": "#", "name": "名称", "kind": "功能", "strongholds": "据点",
           "owner": "归属", "dead": "阵亡", "winner": "胜者", "neutral": "中立", "destroyed": "已毁", "closed": "已关闭", "in_tunnel": "海底隧道内（{cell}）",
           "seen": "视野内的其他角色", "seen_none": "视野内没有其他角色。", "drawn": "本回合获得的牌",
           "fights": "本回合共发生 {n} 场战斗。", "no_fights": "本回合没有发生战斗。",
           "died": "本回合阵亡", "fallen": "已阵亡", "limit": "手牌上限", "alive": "存活", "state": "状态",
           "picture": "地图", "next": "下回合要发送的指令表",
           "next_sheet": "请发送第 {n} 回合的指令表（回合: {n}，玩家: {player}）；不发送则原地不动，战术选项取默认值。",
           "skills": "技能", "who": "{name}（{cls}，{side}）", "fallen_who": "{name}（{side} {cls}）", "closed_area": "GM 关闭的区域（不得进入）", "closed_sh": "GM 关闭的据点",
           "opening": "开局", "opening_intro": "你操控的角色如下。每回合请按最后的指令表格式发送指令（可直接修改后回帖或私信给 GM）。",
           "handover": "交接（第 {n} 回合前）", "handover_intro": "GM 把以下角色交给了你（原玩家 {old}）。请按最后的指令表格式发送本回合的指令。",
           "roster": "参战玩家", "sep": "、", "first_hand": "起始手牌",
           "sheet": "第 {n} 回合指令表（可直接修改后发送）", "attach": "（请把图片 {file} 作为附件插入此处）",
           "next_keep": "{name} 现有手牌 {count} 张，下回合开始时手牌上限为 {limit}：请在 keep（保留）中按想留的顺序列出，否则按默认顺序弃掉 {extra} 张。",
           "next_dead": "你的角色已阵亡，无需再发送指令。", "next_over": "游戏已结束，无需再发送指令。",
           "legend": "图例：@ 自己  A 队友  E 敌人  1-9/a-l 据点  ~ 河道  ^ 高地  # 悬崖  , 视野外  x 已关闭",
           "picture_legend": "地图：圆点为角色（编号见上表，白圈为自己），方块为据点（内色为功能，外框为归属），灰暗处在视野外，打叉处已被 GM 关闭。",
           "public_picture_legend": "地图：方块为据点（内色为功能，外框为归属），着色格为各阵营领土，打叉处已被 GM 关闭。",
           "kinds": {"hand": "手牌", "equipment": "装备", "heal": "回复", "vision": "视野", "teleport": "瞬移",
                     "bridge": "大桥"}},
    "en": {"turn": "Turn {n}", "public": "Battle report", "private": "Private report", "territory": "Territory",
           "side": "Side", "cells": "Cells", "events": "This turn", "nothing": "Nothing happened.",
           "character": "Character", "hp": "HP", "hand": "Hand", "equipment": "Equipment", "weapon": "Weapon",
           "armor": "Armor", "pos": "Position", "map": "Vision map", "none": "none", "class": "Class", "no": "#",
           "name": "Name", "kind": "Kind", "strongholds": "Strongholds", "owner": "Owner", "dead": "Dead",
           "winner": "Winner", "neutral": "neutral", "destroyed": "destroyed", "closed": "closed", "in_tunnel": "inside the tunnel ({cell})",
           "seen": "Other characters in sight", "seen_none": "No other character in sight.",
           "drawn": "Cards received this turn", "fights": "{n} fight(s) took place this turn.",
           "no_fights": "No fight took place this turn.", "died": "Died this turn", "fallen": "Fallen",
           "limit": "Hand limit", "alive": "alive", "state": "State", "picture": "Map",
           "next": "What to send next turn",
           "next_sheet": "Send your order sheet for turn {n} (turn: {n}, player: {player}); with no sheet you stay and keep the default options.",
           "skills": "Skill", "who": "{name} ({cls}, {side})", "fallen_who": "{name} ({side} {cls})", "closed_area": "Cells closed by the GM (no entry)", "closed_sh": "Strongholds closed by the GM",
           "opening": "Opening", "opening_intro": "These are your characters. Each turn, send orders in the form of the sheet at the end (edit it and send it to the GM).",
           "handover": "Handover (before turn {n})", "handover_intro": "The GM has handed you these characters (their player was {old}). Send this turn's orders in the form of the sheet at the end.",
           "roster": "Players", "sep": ", ", "first_hand": "Starting hand",
           "sheet": "Order sheet for turn {n} (edit it and send it)", "attach": "(attach the picture {file} here)",
           "next_keep": "{name} holds {count} cards and the hand limit at the start of next turn is {limit}: list the cards to keep under keep, most wanted first, or {extra} are discarded in the default order.",
           "next_dead": "Your character is dead: there is nothing to send.", "next_over": "The game is over: there is nothing to send.",
           "legend": "Legend: @ you  A ally  E enemy  1-9/a-l strongholds  ~ river  ^ high  # cliff  , unseen  x closed",
           "picture_legend": "Map: dots are characters (numbered as in the table; white ring: you), squares are strongholds (inside: kind; rim: owner); the dark part is out of sight; a cross is closed by the GM.",
           "public_picture_legend": "Map: squares are strongholds (inside: kind; rim: owner); tinted cells are each side's territory; a cross is closed by the GM.",
           "kinds": {"hand": "hand", "equipment": "equipment", "heal": "heal", "vision": "vision",
                     "teleport": "teleport", "bridge": "bridge"}},
}

_SH_MARK = "123456789abcdefghijklmnopqrstuvwxyz"
UNSEEN = ","  # ASCII: a CJK font draws "·" full width and the map's columns would drift
CLOSED = "x"

# What each equipment does: (name, the seed's wording l.204-223, in English).
_EQUIPMENT_ROWS: tuple[tuple[str, str, str], ...] = (
    ('七夜',
     '出牌阶段，你可以额外使用一张【杀】。',
     'In the basic-card phase you may use one more 杀.'),
    ('万华杖',
     '当你使用【杀】造成伤害时，你可以防止此伤害，改为你选择并获得该角色的一张牌。',
     "When your 杀 causes damage you may prevent it and take one of that character's cards instead."),
    ('石中剑',
     '锁定技，当你使用的【杀】造成伤害时，若指定的目标没有手牌，该伤害+1。',
     'Locked: when your 杀 causes damage to a target with no hand cards, the damage is +1.'),
    ('干将莫邪',
     '当你使用的【杀】被对方的【闪】抵消时，你可以收回之前使用的【杀】。',
     'When your 杀 is cancelled by a 闪, you may take the 杀 back.'),
    ('佩耳修斯之剑',
     '当你需要使用（或打出）一张【杀】时，你可以将两张手牌当一张【杀】使用。',
     'When you need to use or play a 杀, you may use two hand cards as one 杀.'),
    ('黑键',
     '当你使用的【杀】被抵消时，你可以立即对相同的目标再使用一张【杀】。',
     'When your 杀 is cancelled, you may at once use another 杀 on the same target.'),
    ('物干焯',
     '你使用【杀】对目标角色造成伤害时，你可以立刻对该目标角色额外使用一张【杀】。',
     'When your 杀 damages a target, you may at once use one more 杀 on it.'),
    ('穿刺死棘之枪',
     '目标角色使用【闪】抵消你使用【杀】的效果时，你可以弃两张牌，则【杀】依然造成伤害。',
     'When the target cancels your 杀 with a 闪, you may discard two cards: the 杀 still deals damage.'),
    ('破魔红蔷薇',
     '锁定技，每当你使用【杀】时，无视目标角色的防具。',
     "Locked: your 杀 ignores the target's armor."),
    ('斩击皇帝',
     '你使用【杀】对目标角色造成伤害时，你可以弃掉目标角色的一张牌。',
     'When your 杀 damages a target, you may discard one of its cards.'),
    ('誓约胜利之剑',
     '当你使用【杀】时，同时多弃2张手牌，可令自己使用的这张【杀】造成的伤害+1。',
     'When you use a 杀 you may discard 2 more hand cards: that 杀 deals +1 damage.'),
    ('乖离剑',
     '当你使用【杀】时，可多弃一张【杀】令伤害+1。',
     'When you use a 杀 you may discard one more 杀 for +1 damage.'),
    ('奉纳殿六十四层',
     '每当你需要使用（或打出）一张【闪】时，你可以进行一次判定：若结果为红色，则视为你使用（或打出）了一张【闪】；若为黑色，则你仍可以从手牌里使用（或打出）。',
     'When you need a 闪 you may judge: red counts as a 闪; on black you may still play one from your hand.'),
    ('六道境界',
     '锁定技，普通杀对你无效。',
     'Locked: plain 杀 have no effect on you.'),
    ('月灵髓液',
     '当你和敌人一对一战斗时，每回合一次，使用【月灵髓液】视为你使用了一张【杀】或【闪】。',
     'In a one-on-one fight, once a turn, 月灵髓液 counts as a 杀 or a 闪.'),
    ('炽天覆七重圆环',
     '锁定技：每次你受到伤害时，最多承受1点伤害；受到伤害时，你可以弃掉【炽天覆七重圆环】防止此伤害。',
     'Locked: you take at most 1 damage at a time; when damaged you may discard it to prevent the damage.'),
    ('正式外典',
     '你可以将你手牌的【杀】当【闪】，【闪】当【杀】使用（或打出）。',
     'You may use or play a 杀 from your hand as a 闪, and a 闪 as a 杀.'),
    ('天之服',
     '锁定技，你的手牌上限为7张。',
     'Locked: your hand limit is 7.'),
)
EQUIPMENT_TEXT: dict[str, dict[str, str]] = {name: {"zh": zh, "en": en} for name, zh, en in _EQUIPMENT_ROWS}


def equipment_text(name: str, lang: str) -> str:
    """What an equipment does, in ``lang`` (empty for a name the seed does not list)."""
    entry = EQUIPMENT_TEXT.get(name) or {}
    return entry.get(lang) or entry.get("zh", "")


def skill_texts(ids: list[str], custom: dict[str, Any] | None, lang: str) -> list[dict[str, str]]:
    """A character's skills: ``[{"name", "text"}]`` in ``lang`` (a scenario's own skills first)."""
    from gm_tool.rulesets.grail_war.combat.skills import of

    out = []
    for sk in of(list(ids or ()), custom):
        text = sk.text if isinstance(sk.text, str) else (sk.text.get(lang) or sk.text.get("zh") or sk.text.get("en") or "")
        out.append({"name": sk.name, "text": text})
    return out


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


def map_file(who: str) -> str:
    """The picture file of a post (``who`` is a player or ``"public"``)."""
    return f"map-{who}.png"


# events whose cards join a character's hand or equipment this turn ("本回合获得的牌")
GAINS = ("draw", "stronghold_card", "stronghold_equipment", "take_card_seen", "take_card", "retrieve",
         "gm_give_card_detail")


def _hand_limit(c: dict[str, Any]) -> int:
    return 7 if "天之服" in (c.get("equipment") or {}).values() else max(c["hp"], 0) + 2


def _label(card: Any) -> str:
    return Card.from_dict(card).label if isinstance(card, dict) else str(card)


class _Turn:
    """Everything shared by the posts of one turn."""

    def __init__(self, before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], lang: str):
        self.before, self.after, self.events, self.lang = before, after, events, lang
        self.L = LABELS[lang]
        self.names = {c["id"]: c["name"] for c in after["characters"]}
        self.tellers = {fmt: narrate.Teller(self.names, lang, m) for fmt, m in markups().items()}
        self.sides = list(after["sides"])
        self.sheet_game: Any = None  # the state as a Game for the sheets, converted once

    def side(self, side: Any) -> str:
        return narrate.side_name(side, self.lang) if side else self.L["neutral"]

    def place(self, pos: str) -> str:
        """A cell as told to a player: cells inside a tunnel lie below the map (ruling M16)."""
        return self.L["in_tunnel"].format(cell=pos) if parse_cell(pos)[1] >= self.after["map"]["height"] else pos

    def common(self) -> dict[str, Any]:
        L, after = self.L, self.after
        strongholds = [{"id": s["id"], "name": s["name"], "pos": s["pos"], "kind": L["kinds"].get(s["kind"], s["kind"]),
                        "owner": self.side(s["owner"]), "territory": len(s.get("territory", [])),
                        "destroyed": bool(s.get("destroyed")), "closed": bool(s.get("closed"))}
                       for s in after["strongholds"]]
        territory = [{"side": self.side(side), "cells": after["territory"].get(side, 0),
                      "strongholds": [s["id"] for s in after["strongholds"] if s["owner"] == side]}
                     for side in self.sides]
        return {"L": L, "lang": lang_of(self.lang), "turn": after["turn"], "title_turn": L["turn"].format(n=after["turn"]),
                "winner": self.side(after["winner"]) if after["winner"] is not None else None,
                "closed": " ".join(after.get("closed_cells") or ()),
                "closed_strongholds": " ".join(f'{s["id"]}「{s["name"]}」' for s in after["strongholds"] if s.get("closed")),
                "strongholds": strongholds, "territory": territory,
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
                "fights": sum(1 for e in self.events if e["type"] == "fight"), "map_image": map_file("public")}

    def private(self, player: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The context of ``player``'s post and their view (for the picture)."""
        L, v = self.L, view(self.after, player)
        mine = [c for c in v["characters"] if c.get("player") == player]
        others = [c for c in v["characters"] if c.get("player") != player]
        numbers = {c["id"]: str(i + 1) for i, c in enumerate(mine + others)}
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
        seen = [{"no": numbers[c["id"]], "name": c["name"], "class": c["class"], "side": self.side(c["side"]),
                 "ally": c["side"] in {x["side"] for x in mine}, "hp": c["hp"], "max_hp": c["max_hp"], "pos": c["pos"],
                 "equipment": " ".join(x for x in (c.get("equipment") or {}).values() if x) or L["none"]}
                for c in others]
        drawn = [_label(card) for e in self.events
                 if e["type"] in GAINS and e.get("character") in own_ids and visible_to(e, player)
                 for card in (e.get("cards") or ([e["card"]] if e.get("card") else []))]
        nxt: list[tuple[str, dict[str, Any]]] = []
        if self.after["winner"] is not None:
            nxt.append(("next_over", {}))
        elif not any(c["alive"] for c in me):
            nxt.append(("next_dead", {}))
        else:
            nxt.append(("next_sheet", {"n": self.after["turn"] + 1, "player": player}))
            for c in me:
                if c["alive"] and len(c["hand"]) > c["limit"]:
                    nxt.append(("next_keep", {"name": c["name"], "count": len(c["hand"]), "limit": c["limit"],
                                              "extra": len(c["hand"]) - c["limit"]}))
        if nxt and nxt[0][0] == "next_sheet":
            if self.sheet_game is None:
                self.sheet_game = _sheet_game(self.after)
            sheet = _sheet(self.after, player, self.lang, self.sheet_game)
        else:
            sheet = ""
        seen_rows = [[c["no"], c["name"], c["class"], c["side"], f'{c["hp"]}/{c["max_hp"]}', c["pos"], c["equipment"]]
                     for c in seen]
        context = {**self.common(), "player": display_name(player), "player_id": player, "me": me, "seen": seen, "seen_rows": seen_rows, "drawn": drawn,
                   "in_sight": {c["id"] for c in v["characters"]},
                   "drawn_text": "".join(f"【{x}】" for x in drawn),
                   "next": nxt, "sheet_text": sheet, "text_map": draw_map(v, player), "map_image": map_file(player)}
        return context, {"view": v, "numbers": numbers}


def _blocks(m: Any, story: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each told section with its lines as one block of list items (``block``): a template may
    fold a long fight (``m.collapse``) where the forum's dialect can."""
    return [{**s, "block": "\n".join(m.item(line) for line in s["lines"])} for s in story]


def sheet_for(m: Any, sheet: str) -> str:
    """A sheet to show in a code block: names in its comment lines open no BBCode tag (a zero-width
    space after ``[``); the YAML lines are left as they are, so the sheet still pastes as it is."""
    if m.name != "bbcode":
        return sheet
    return "\n".join(line.replace("[", "[\u200b") if line.startswith("#") else line for line in sheet.split("\n"))


def _sheet(state: dict[str, Any], player: str, lang: str, game: Any = None) -> str:
    """The pre-filled order sheet of ``player``'s next turn (what `gm template` writes). A sheet
    never reads the piles: they are left out of the conversion, done once a turn (``game``)."""
    from gm_tool.rulesets.grail_war.sheet import template

    return template(state, player, lang, game if game is not None else _sheet_game(state))


def _sheet_game(state: dict[str, Any]) -> Any:
    from gm_tool.rulesets.grail_war.model import Game

    return Game.from_state({**state, "deck": {"draw_pile": [], "discard_pile": []}, "equipment_pile": []})


def lang_of(lang: str) -> str:
    return "zh" if lang == "zh" else "en"


def posts(before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], lang: str,
          templates_dir: Path | None = None) -> Posts:
    """The posts of one turn: public and per player, formats ``bbcode`` and ``md``, with the
    map pictures as files. The HTML preview is the Markdown rendered on demand
    (``gm report --format html``), so a turn does not pay for it."""
    from gm_tool.rulesets.grail_war import picture

    env = environment(TEMPLATES, templates_dir)
    public_tpl, private_tpl = env.get_template("public.j2"), env.get_template("private.j2")
    t = _Turn(before, after, events, lang)
    painter = picture.Painter(after["map"], after["strongholds"], after["sides"], after.get("closed_cells") or ())
    out: dict[str, dict[str, str]] = {}
    files: dict[str, bytes] = {}
    cut = narrate.sections(events)

    def render(tpl, context: dict[str, Any], reader: str | None, public: bool) -> dict[str, str]:
        return render_all(env, tpl, context, lambda fmt, m: {
            "story": _blocks(m, narrate.story(events, t.tellers[fmt], reader, public=public, cut=cut,
                                              gone=None if public else t.gone(context["in_sight"]))),
            **({"sheet": sheet_for(m, context["sheet_text"])} if "sheet_text" in context else {})})

    out["public"] = render(public_tpl, t.public(), None, True)
    files[map_file("public")] = painter.png([])
    for player in _players(after):
        context, extra = t.private(player)
        out[player] = render(private_tpl, context, player, False)
        files[map_file(player)] = painter.png(picture.marks_of(extra["view"], player, extra["numbers"]),
                                              extra["view"]["visible"])
    files[GM_MAP] = painter.png(picture.marks_of(after, None))
    return Posts(out, files)  # each picture encoded as soon as drawn: one image in memory at a time


def opening(state: dict[str, Any], lang: str, templates_dir: Path | None = None) -> Posts:
    """The posts of turn 0 (``reports/turn-000/``): a public post (the map, the strongholds, the
    sides) and, per player, what they start with: each character's class, HP, skills and
    equipment with their text, the starting hand, their map and a pre-filled first sheet. Built
    from views only, like every post."""
    from gm_tool.rulesets.grail_war import picture

    env = environment(TEMPLATES, templates_dir)
    public_tpl, private_tpl = env.get_template("opening_public.j2"), env.get_template("opening.j2")
    t = _Turn(state, state, [], lang)
    painter = picture.Painter(state["map"], state["strongholds"], state["sides"], state.get("closed_cells") or ())
    out: dict[str, dict[str, str]] = {}
    files: dict[str, bytes] = {}

    def render(tpl, context: dict[str, Any]) -> dict[str, str]:
        return render_all(env, tpl, context, lambda fmt, m: (
            {"sheet": sheet_for(m, context["sheet_text"])} if "sheet_text" in context else {}))

    # who takes part, by forum name only: which character a player leads, and on which side, is
    # not public (P10: the public thread gives away no more than the characters' deaths later do)
    out["public"] = render(public_tpl, {**t.public(), "players": (t.L["sep"]).join(display_name(x) for x in _players(state)),
                                        "title_turn": t.L["opening"]})
    files[map_file("public")] = painter.png([])
    for player in _players(state):
        context, extra = t.private(player)
        context.update(title_turn=t.L["opening"], intro=t.L["opening_intro"], hand_label=t.L["first_hand"])
        out[player] = render(private_tpl, context)
        files[map_file(player)] = painter.png(picture.marks_of(extra["view"], player, extra["numbers"]),
                                              extra["view"]["visible"])
    files[GM_MAP] = painter.png(picture.marks_of(state, None))
    return Posts(out, files)


def handover(state: dict[str, Any], player: str, old: str, lang: str, templates_dir: Path | None = None) -> Posts:
    """The post a replacement player gets at once from `gm amend reassign` (issue 23): what their
    characters hold, the map they see and the sheet of the turn due, as an opening post is built
    (from the player's view of the state with the GM's edits)."""
    from gm_tool.rulesets.grail_war import picture

    env = environment(TEMPLATES, templates_dir)
    t = _Turn(state, state, [], lang)
    context, extra = t.private(player)
    context.update(title_turn=t.L["handover"].format(n=state["turn"] + 1), hand_label=t.L["hand"],
                   intro=t.L["handover_intro"].format(old=display_name(old)))
    text = render_all(env, env.get_template("opening.j2"), context, lambda fmt, m: (
        {"sheet": sheet_for(m, context["sheet_text"])} if "sheet_text" in context else {}))
    painter = picture.Painter(state["map"], state["strongholds"], state["sides"], state.get("closed_cells") or ())
    png = painter.png(picture.marks_of(extra["view"], player, extra["numbers"]), extra["view"]["visible"])
    return Posts({player: text}, {map_file(player): png})


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
        gear = " ".join(x for x in (c.get("equipment") or {}).values() if x) or L["none"]
        lines.append(f"{c['id']:<14} {c['name']} {c['class']:<9} {c['side']:<5} {L['hp']} {c['hp']}/{c['max_hp']} "
                     f"{c['pos']:<4} {'' if c['alive'] else L['dead']} {L['hand']}: {hand} {L['equipment']}: {gear}")
    lines.append(f"{L['territory']}: " + ", ".join(f"{s} {n}" for s, n in v["territory"].items()))
    return "\n".join(lines)
