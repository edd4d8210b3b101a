"""`gm template`: a commented order sheet for one player's next turn that validates as it is.

Keys are Chinese with ``lang="zh"`` (the seed's wording, accepted as aliases) and English with
``lang="en"``. Values are the defaults a missing sheet gets.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.grid import cell_name
from gm_tool.rulesets.grail_war import movement
from gm_tool.rulesets.grail_war.combat.engine import default_use
from gm_tool.rulesets.grail_war.hands import choose_kept
from gm_tool.rulesets.grail_war.model import RIVER, Game
from gm_tool.rulesets.grail_war.orders import default

_KEYS = {
    "zh": {"turn": "回合", "player": "玩家", "keep": "保留", "skill": "技能", "use": "使用", "discard": "丢弃",
           "target_priority": "目标优先", "strike_order": "出杀顺序", "dodge_order": "出闪顺序", "against": "对",
           "use_curse": "咒", "gem": "宝石", "magic": "魔术牌", "zone_priority": "区域优先", "hand_size": "手牌数",
           "move": "移动", "to": "目的地", "special": "特殊", "character": "角色", "equipment": "装备", "zones": "区域"},
}
_TEXT = {
    "zh": {
        "head": "# {name}（{cls}）第 {turn} 回合指令表。玩家：{player}",
        "status": "# 体力 {hp}/{max_hp}，位置 {pos}，移动力 {move}，手牌上限 {limit}",
        "hand": "# 手牌：{hand}",
        "equipment": "# 装备：武器 {weapon}，防具 {armor}",
        "keep": "# 0. 保留的牌，最想要的在前；其余弃到手牌上限（不填则按默认顺序：闪、宝石、杀、咒、万法破尽，其余按得到的先后）",
        "keep_default": "# 手牌超过上限：不填则保留 {kept}，弃掉 {dropped}",
        "skill": "# 1.1 是否使用角色技能（及其丢弃的牌：要弃牌的技能只在写明丢弃哪些牌时发动）",
        "target": "# 1.2 格内有两名敌人时，技能先针对：血多的优先 | 牌多的优先",
        "strike": "# 2. 出杀顺序：对敌人出杀 | 对技能出杀 | 对魔术牌出杀 | 不出杀（其后都不出）；可加 张数",
        "dodge": "# 3. 出闪顺序：对杀出闪 | 对技能出闪 | 对魔术牌出闪 | 不出闪；转换: 转换用的装备（如 正式外典）",
        "curse": "# 4. 本回合是否用咒（下一张杀伤害 +1）：是 | 否",
        "gem": "# 5. 宝石：自用 | 救队友优先 | 不用",
        "magic": "# 6. 魔术牌：是否使用；区域优先 武器/防具/手牌；两名敌人都可选时 手牌多 | 手牌少",
        "move": "# 8. 移动：目的地（如 C11），可选 途经 与 特殊（瞬移 | 跳跃 | 渡河 | 攀登）",
        "skill_text": "# 技能【{name}】：{text}",
        "equipment_text": "# {slot}【{name}】：{text}",
        "tunnel": "# （第 {row} 行起的格子在海底隧道内：进入隧道后看不见地图，也不被看见）",
        "dest": "# 可到达的格子：{cells}",
        "special_dest": "# 发动介职特效（{special}: {value}）还可到达：{cells}",
        "tele": "# 可瞬移到（{special}: 瞬移）：{cells}",
        "equipment_opts": "# 7. 装备：可选效果是否发动（下面是不填时的默认），及其可用区域 装备区 | 手牌",
        "character": "# 本表指挥的角色（你有多名角色时每名角色一张表）",
        "none": "无", "weapon": "武器", "armor": "防具",
        "all_dead": "# 玩家 {player} 的角色{names}已阵亡：不必再交指令（gm check / gm submit 会拒绝为阵亡角色写的指令表）。",
        "dead": "# 已阵亡（不再听指令）：{names}",
    },
    "en": {
        "head": "# {name} ({cls}), orders for turn {turn}. Player: {player}",
        "status": "# HP {hp}/{max_hp}, at {pos}, move {move}, hand limit {limit}",
        "hand": "# Hand: {hand}",
        "equipment": "# Equipment: weapon {weapon}, armor {armor}",
        "keep": "# 0. Cards to keep, most wanted first; the rest are discarded down to the hand limit (default order: 闪, 宝石, 杀, 咒, 万法破尽, then the order received)",
        "keep_default": "# The hand is over the limit: with no list it keeps {kept} and discards {dropped}",
        "skill": "# 1.1 Use the character skill (and the cards it discards: a skill that costs cards is used only when they are named)",
        "target": "# 1.2 With two enemies in the cell, skills aim first at: more_hp | more_cards",
        "strike": "# 2. 出杀 order: enemy | skill | magic | none (nothing after it counts); count optional",
        "dodge": "# 3. 出闪 order: strike | skill | magic | none; via: an equipment that converts (e.g. 正式外典)",
        "curse": "# 4. Use 咒 this turn (next 杀 +1 damage)",
        "gem": "# 5. 宝石: self_first | ally_first | never",
        "magic": "# 6. Magic cards: use them; zone priority weapon/armor/hand; with two enemies, more | fewer hand cards first",
        "move": "# 8. Move: destination (e.g. C11), optional waypoints via and special movement (teleport | jump | cross | climb)",
        "skill_text": "# Skill 【{name}】: {text}",
        "equipment_text": "# {slot} 【{name}】: {text}",
        "tunnel": "# (cells from row {row} on are inside the undersea tunnel: there you see nothing and nobody sees you)",
        "dest": "# Reachable cells: {cells}",
        "special_dest": "# With class movement ({special}: {value}) also: {cells}",
        "tele": "# Teleport destinations ({special}: teleport): {cells}",
        "equipment_opts": "# 7. Equipment: use each optional effect or not (as shown: what a missing sheet does), and from which zones: equipment | hand",
        "character": "# The character these orders are for (one sheet per character when you have several)",
        "none": "none", "weapon": "Weapon", "armor": "Armor",
        "all_dead": "# Every character of player {player} ({names}) is dead: no sheet is due (gm check / gm submit refuse a sheet for a dead character).",
        "dead": "# Dead (take no orders): {names}",
    },
}


# the values a zh sheet is written with (the seed's wording; orders.py reads them back)
_VALUES: dict[str, dict[str, dict[Any, str]]] = {
    "zh": {
        "target_priority": {"more_hp": "血多的优先", "more_cards": "牌多的优先"},
        "strike": {"enemy": "对敌人出杀", "skill": "对技能出杀", "magic": "对魔术牌出杀", "none": "不出杀"},
        "dodge": {"strike": "对杀出闪", "skill": "对技能出闪", "magic": "对魔术牌出闪", "none": "不出闪"},
        "gem": {"self_first": "自用", "ally_first": "救队友优先", "never": "不用"},
        "zone": {"weapon": "武器", "armor": "防具", "hand": "手牌", "equipment": "装备区"},
        "hand_size": {"more": "手牌多", "fewer": "手牌少"},
        "bool": {True: "是", False: "否"},
        "special": {"teleport": "瞬移", "jump": "跳跃", "cross": "渡河", "climb": "攀登"},
    },
    "en": {"bool": {True: "true", False: "false"}},
}


def _k(lang: str, key: str) -> str:
    return _KEYS.get(lang, {}).get(key, key)


def _v(lang: str, kind: str, value):
    """A value as a ``lang`` sheet writes it (English codes where no wording is set)."""
    return _VALUES.get(lang, {}).get(kind, {}).get(value, value)


# the class movement a sheet offers (movement.special_problem says who may use which)
CLASS_SPECIAL = {"LANCER": "jump", "RIDER": "cross", "CASTER": "climb"}


def destinations(game: Game, char) -> tuple[list[str], list[str], list[str]]:
    """Cells ``char`` may end its move in: walking, only with its class movement, by teleport."""
    def ends(special: str | None) -> set:
        reach = movement.reachable(game, char, special)
        return {c for c in reach if c[0] >= 0 and c[1] >= 0 and c not in game.closed_cells
                and (c[1] >= game.board.height or c[0] < game.board.width and game.board.terrain(c) != RIVER)}

    order = lambda cells: [cell_name(c) for c in sorted(cells, key=lambda c: (c[1], c[0]))]  # noqa: E731
    walk = ends(None)
    special = CLASS_SPECIAL.get(char.cls)
    extra = ends(special) - walk if special and movement.special_problem(char, special) is None else set()
    tele = [s.pos for s in game.strongholds if movement.teleport_problem(game, char, s.pos) is None]
    return order(walk), order(extra), order(tele)


def template(state: dict, player: str, lang: str, game: Game | None = None) -> str:
    """The sheet; ``game`` is ``state`` already converted (the posts convert a turn's state once
    for every player's sheet; a sheet reads no pile)."""
    from gm_tool.rulesets.grail_war.posts import equipment_text, skill_texts

    game = Game.from_state(state) if game is None else game
    t = _TEXT[lang]
    dead = [c for c in game.of_player(player) if not c.alive]
    names = ("、" if lang == "zh" else ", ").join(f"{c.name}（{c.id}）" if lang == "zh" else f"{c.name} ({c.id})" for c in dead)
    if dead and len(dead) == len(game.of_player(player)):  # ruling G9: nothing to order
        return t["all_dead"].format(player=player, names=names) + "\n"
    o = default(game, player)
    char = game.character(o.character)
    k = lambda key: _k(lang, key)  # noqa: E731
    v = lambda kind, value: _v(lang, kind, value)  # noqa: E731
    hand = " ".join(c.label for c in char.hand) or t["none"]
    eq = {slot: (card.name if card else t["none"]) for slot, card in char.equipment.items()}
    walk, extra, tele = destinations(game, char)
    kept, dropped = choose_kept(char, None)  # what no keep list keeps (ruling C23)
    # the optional effects of what is worn, as a missing sheet uses them (ruling C14)
    defaults = default_use()
    choices = {card.name: bool(defaults[card.name]) for card in char.equipment.values()
               if card is not None and card.name in defaults}
    several = len(game.of_player(player)) > 1
    below = game.board.height + 1
    in_tunnel = any(int(cell.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) >= below for cell in walk + extra)
    lines = [
        t["head"].format(name=char.name, cls=char.cls, turn=o.turn, player=player),
        t["status"].format(hp=char.hp, max_hp=char.max_hp, pos=cell_name(char.pos), move=char.move, limit=char.hand_limit()),
        t["hand"].format(hand=hand),
        t["equipment"].format(**eq),
        *[t["equipment_text"].format(slot=t[slot], name=card.name, text=equipment_text(card.name, lang))
          for slot, card in char.equipment.items() if card is not None],
        *[t["skill_text"].format(**sk) for sk in skill_texts(list(char.skills), state.get("skills"), lang)],
        f"{k('turn')}: {o.turn}",
        f"{k('player')}: {player}",
        *([t["dead"].format(names=names)] if dead else []),
        *([t["character"], f"{k('character')}: {char.id}"] if several else []),
        t["keep"],
        *([t["keep_default"].format(kept=" ".join(c.label for c in kept), dropped=" ".join(c.label for c in dropped))]
          if dropped else []),
        f"{k('keep')}: []",
        t["skill"],
        f"{k('skill')}: {{{k('use')}: {v('bool', bool(char.skills))}, {k('discard')}: []}}",
        t["target"],
        f"{k('target_priority')}: {v('target_priority', o.target_priority)}",
        t["strike"],
        f"{k('strike_order')}:",
        *[f"  - {{{k('against')}: {v('strike', e.against)}}}" for e in o.strike_order],
        f"  - {v('strike', 'none')}",
        t["dodge"],
        f"{k('dodge_order')}:",
        *[f"  - {{{k('against')}: {v('dodge', e.against)}}}" for e in o.dodge_order],
        f"  - {v('dodge', 'none')}",
        t["curse"],
        f"{k('use_curse')}: {v('bool', False)}",
        t["gem"],
        f"{k('gem')}: {v('gem', o.gem)}",
        t["magic"],
        f"{k('magic')}: {{{k('use')}: {v('bool', True)}, {k('zone_priority')}: [{', '.join(v('zone', z) for z in o.zone_priority)}], "
        f"{k('hand_size')}: {v('hand_size', o.hand_size)}}}",
        *([t["equipment_opts"], f"{k('equipment')}:",
           *[f"  {name}: {{{k('use')}: {v('bool', choices[name])}, {k('zones')}: [{v('zone', 'equipment')}, {v('zone', 'hand')}]}}"
             for name in choices]]
          if choices else []),
        t["move"],
        t["dest"].format(cells=" ".join(walk) or t["none"]),
        *([t["special_dest"].format(special=k("special"), value=v("special", CLASS_SPECIAL[char.cls]), cells=" ".join(extra))]
          if extra else []),
        *([t["tele"].format(special=k("special"), cells=" ".join(tele))] if tele else []),
        *([t["tunnel"].format(row=below)] if in_tunnel else []),
        f"{k('move')}: {{{k('to')}: {cell_name(char.pos)}}}",
    ]
    return "\n".join(lines) + "\n"
