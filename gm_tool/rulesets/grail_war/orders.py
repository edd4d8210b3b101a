"""Order sheets (spec §4): parsing, aliases (the seed's own Chinese wording) and validation.

``parse(game, sheet, source)`` returns :class:`Orders` or raises GmError listing every problem
with its field and what is allowed. Everything after parsing may trust the Orders it gets;
choices that turn impossible during resolution are skipped and logged there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gm_tool.core import yamlpos
from gm_tool.core.grid import Cell
from gm_tool.core.schema import Validator
from gm_tool.i18n import register
from gm_tool.rulesets.grail_war import cards
from gm_tool.rulesets.grail_war.model import Character, Game

# canonical key -> accepted spellings (the canonical English key is always accepted)
_KEY_ALIASES: dict[str, tuple[str, ...]] = {
    "turn": ("回合",), "player": ("玩家",), "character": ("角色",),
    "keep": ("保留", "弃牌保留", "手牌保留"), "skill": ("技能", "角色技能", "是否使用角色技能"),
    "target_priority": ("目标优先", "优先目标"), "strike_order": ("出杀顺序",), "dodge_order": ("出闪顺序",),
    "use_curse": ("咒", "使用咒", "是否使用咒"), "gem": ("宝石",), "magic": ("魔术牌",),
    "equipment": ("装备", "装备牌选择"), "move": ("移动",),
}
_SKILL_KEYS = {"use": ("使用", "是否使用"), "discard": ("丢弃", "弃牌"), "name": ("名称", "技能名")}
_STRIKE_KEYS = {"against": ("对", "目标"), "count": ("张数", "数量"), "via": ("经由", "转换", "发动")}
_DODGE_KEYS = {"against": ("对", "目标"), "count": ("张数", "数量"), "via": ("经由", "转换", "发动")}
_MAGIC_KEYS = {"use": ("使用", "是否使用"), "zone_priority": ("区域优先", "优先区域"), "hand_size": ("手牌数", "手牌")}
_EQUIP_KEYS = {"use": ("使用", "发动"), "zones": ("区域", "优先")}
_MOVE_KEYS = {"to": ("目的地", "到", "坐标"), "via": ("途经", "经过"), "special": ("特殊", "介职特效", "特效")}


def _keys(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {alias: key for key, spellings in table.items() for alias in (key, *spellings)}


KEYS, SKILL_KEYS, STRIKE_KEYS, DODGE_KEYS, MAGIC_KEYS, EQUIP_KEYS, MOVE_KEYS = map(
    _keys, (_KEY_ALIASES, _SKILL_KEYS, _STRIKE_KEYS, _DODGE_KEYS, _MAGIC_KEYS, _EQUIP_KEYS, _MOVE_KEYS))
yamlpos.register_aliases(KEYS, SKILL_KEYS, STRIKE_KEYS, DODGE_KEYS, MAGIC_KEYS, EQUIP_KEYS, MOVE_KEYS)

NONE = "none"
TARGET_PRIORITY = {"more_hp": "more_hp", "血多的优先": "more_hp", "血多": "more_hp",
                   "more_cards": "more_cards", "牌多的优先": "more_cards", "牌多": "more_cards"}
STRIKE_AGAINST = {"enemy": "enemy", "对敌人出杀": "enemy", "敌人": "enemy",
                  "skill": "skill", "对技能出杀": "skill", "技能": "skill",
                  "magic": "magic", "对魔术牌出杀": "magic", "魔术牌": "magic",
                  NONE: NONE, "不出杀": NONE}
DODGE_AGAINST = {"strike": "strike", "对杀出闪": "strike", "杀": "strike",
                 "skill": "skill", "对技能出闪": "skill", "技能": "skill",
                 "magic": "magic", "对魔术牌出闪": "magic", "魔术牌": "magic",
                 NONE: NONE, "不出闪": NONE}
GEM = {"self_first": "self_first", "自用": "self_first", "自己优先": "self_first",
       "ally_first": "ally_first", "救队友优先": "ally_first", "队友优先": "ally_first", "对队友优先": "ally_first",
       "never": "never", "不用": "never", "不使用": "never"}
ZONES = {"weapon": "weapon", "武器": "weapon", "armor": "armor", "防具": "armor",
         "hand": "hand", "手牌": "hand", "equipment": "equipment", "装备区": "equipment", "装备": "equipment"}
MAGIC_ZONES = {k: x for k, x in ZONES.items() if x != "equipment"}
HAND_SIZE = {"more": "more", "手牌多": "more", "多": "more", "fewer": "fewer", "手牌少": "fewer", "少": "fewer"}
SPECIAL = {"teleport": "teleport", "瞬移": "teleport", "传送": "teleport", "瞬间转移": "teleport", "瞬间移动": "teleport",
           "climb": "climb", "攀登": "climb", "攀爬": "climb", "jump": "jump", "跳跃": "jump",
           "cross": "cross", "渡河": "cross", "destroy": "destroy", "破坏": "destroy", "破坏据点": "destroy"}
BOOL = {True: True, False: False, "yes": True, "no": False, "是": True, "否": False,
        "使用": True, "不使用": False, "发动": True, "不发动": False, "用": True, "不用": False}


@dataclass(slots=True)
class Entry:
    """One line of a 出杀 / 出闪 priority list."""

    against: str
    count: int | None = None
    via: str | None = None


@dataclass(slots=True)
class EquipmentChoice:
    use: bool = True
    zones: list[str] = field(default_factory=lambda: ["equipment", "hand"])


@dataclass(slots=True)
class Orders:
    player: str
    turn: int
    character: str
    keep: list[str] | None = None
    skill_use: bool = True
    skill_discard: list[str] = field(default_factory=list)
    skill_name: str | None = None     # which skill, when the sheet names one
    target_priority: str = "more_hp"
    strike_order: list[Entry] = field(default_factory=lambda: [Entry("enemy"), Entry("magic")])
    dodge_order: list[Entry] = field(default_factory=lambda: [Entry("strike"), Entry("magic"), Entry("skill")])
    use_curse: bool = False
    gem: str = "self_first"
    magic_use: bool = True
    zone_priority: list[str] = field(default_factory=lambda: ["hand", "weapon", "armor"])
    hand_size: str = "more"
    equipment: dict[str, EquipmentChoice] = field(default_factory=dict)
    move_to: Cell | None = None
    move_via: list[Cell] = field(default_factory=list)
    move_special: str | None = None


def _canon(v: Validator, data: dict[str, Any], allowed: dict[str, str], path: str = "") -> dict[str, Any]:
    """``v.unknown_keys(data, allowed, path)``, without its work when every key is known once
    (it reports the problems otherwise)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        name = allowed.get(key) if isinstance(key, str) else None
        if name is None or name in out:
            return v.unknown_keys(data, allowed, path)
        out[name] = value
    return out


def default(game: Game, player: str) -> Orders:
    """A missing sheet: stay, default options (the options `gm template` shows)."""
    chars = [c for c in game.of_player(player) if c.alive] or game.of_player(player)
    return Orders(player=player, turn=game.turn + 1, character=chars[0].id)


def _bool(v: Validator, data: dict[str, Any], key: str, path: str, default: bool) -> bool:
    return v.choice(data, key, BOOL, path, default)


def _card_list(v: Validator, raw: Any, path: str, char: Character, *, must_hold: bool = True) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raw = [raw]
    held: dict[str, int] = {}
    for c in char.hand:
        held[c.name] = held.get(c.name, 0) + 1
    named: list[str] = []
    counts: dict[str, int] = {}
    for i, item in enumerate(raw):
        card = cards.read(v, item, f"{path}[{i}]")
        if card is None:
            continue
        canon = card[0]
        named.append(canon)
        counts[canon] = counts.get(canon, 0) + 1
        if must_hold and counts[canon] > held.get(canon, 0):
            v.add("grail.not_held", f"{path}[{i}]", value=canon, held=held.get(canon, 0))
    return named


def _priority(v: Validator, raw: Any, path: str, keys: dict[str, str], against: dict[str, str],
              char: Character, with_via: bool) -> list[Entry] | None:
    if raw is None:
        return None
    if not v.typed(raw, list, path):
        return None
    out: list[Entry] = []
    stopped = False
    for i, item in enumerate(raw):
        p = f"{path}[{i}]"
        if isinstance(item, str):
            item = {"against": item}
        if not v.typed(item, dict, p):
            continue
        item = _canon(v, item, keys, f"{p}.")
        what = v.choice(item, "against", against, f"{p}.against")
        if what is None:
            if "against" not in item:
                v.add("field.required", f"{p}.against")
            continue
        count = v.integer(item, "count", f"{p}.count", 1, 99)
        via = None
        if with_via and item.get("via") is not None:
            via = cards.canonical(item["via"]) if isinstance(item["via"], str) else None
            if via is None:
                v.add("grail.unknown_card", f"{p}.via", value=item["via"])
            elif not char.equipped(via):
                v.add("grail.not_equipped", f"{p}.via", value=via)
            elif via not in CONVERTERS[path]:
                v.add("grail.bad_via", f"{p}.via", value=via, allowed=", ".join(CONVERTERS[path]))
        if what == NONE:
            stopped = True
        if not stopped:
            out.append(Entry(what, count, via))
    return out


# equipment that lets a card stand for the one a list answers with (via:)
CONVERTERS = {"strike_order": ("正式外典", "佩耳修斯之剑"), "dodge_order": ("正式外典",)}

register({
    "grail.bad_via": {"zh": "{value} 不能在此转换出牌；可用：{allowed}", "en": "{value} cannot convert a card for this list; allowed: {allowed}"},
    "grail.skill_unknown": {"zh": "角色没有技能 {value!r}；其技能：{allowed}", "en": "the character has no skill {value!r}; its skills: {allowed}"},
    "grail.skill_discards": {"zh": "技能【{skill}】需丢弃 {need} 张牌，此处写了 {got} 张", "en": "skill 【{skill}】 discards {need} cards; {got} given"},
})


def _check_skill(v: Validator, skill: dict[str, Any], o: Orders, char: Character,
                 custom: dict[str, Any] | None = None) -> None:
    """The skill section against the character's skills: a named skill must be one of them,
    and discards must match the cost of the active skill they pay for."""
    from gm_tool.rulesets.grail_war.combat import skills as defs

    own = defs.of(char.skills, custom)
    name = skill.get("name")
    chosen = [s for s in own if s.trigger == "active"]
    if name is not None:
        hit = next((s for s in own if name in (s.id, s.name)), None)
        if hit is None:
            v.add("grail.skill_unknown", "skill.name", value=name, allowed=", ".join(s.name for s in own) or "—")
            return
        o.skill_name = hit.id
        chosen = [hit]
    if o.skill_discard:
        need = chosen[0].cost.get("discard", 0) if chosen else 0
        if len(o.skill_discard) != need:
            v.add("grail.skill_discards", "skill.discard", skill=chosen[0].name if chosen else "—",
                  need=need, got=len(o.skill_discard))


def parse(game: Game, sheet: dict[str, Any], source: str, lang: str = "zh") -> Orders:
    v = Validator(source, lang)
    data = _canon(v, sheet, KEYS)
    char = _character(v, game, data)
    o = Orders(player=data["player"], turn=game.turn + 1, character=char.id)
    for step in STEPS:
        step(v, game, data, char, o)
    v.raise_if_any()
    return o


def _character(v: Validator, game: Game, data: dict[str, Any]) -> Character:
    """``turn``, ``player`` and ``character``: whose sheet this is, for which turn (stops at
    the first of these problems that leaves nothing to check the rest against)."""
    missing = [key for key in ("turn", "player") if key not in data]
    for key in missing:
        v.add("field.required", key)
    if missing:
        v.raise_if_any()
    player = data["player"]
    mine = game.of_player(player) if isinstance(player, str) else []  # every player has a character
    if not mine:
        v.add("player.unknown", "player", player=player, allowed=", ".join(game.players()))
        v.raise_if_any()
    turn = v.integer(data, "turn", "turn")
    if turn is not None and turn != game.turn + 1:
        v.add("orders.turn", "turn", got=turn, expected=game.turn + 1)
    cid = data.get("character", next((c.id for c in mine if c.alive), mine[0].id))
    char = next((c for c in mine if c.id == cid), None)
    if char is None:
        v.add("field.choice", "character", value=cid, allowed=", ".join(c.id for c in mine))
        v.raise_if_any()
    assert char is not None
    return char


def _section(v: Validator, raw: Any, keys: dict[str, str], path: str, short: str = "use",
             short_types: tuple[type, ...] = (bool, str), required: bool = False) -> dict[str, Any] | None:
    """A section of the sheet with its keys made canonical; a bare value of ``short_types``
    stands for ``{short: value}``. None when absent (unless ``required``) or, reported, when
    it is not a mapping."""
    if raw is None and not required:
        return None
    if isinstance(raw, short_types):
        raw = {short: raw}
    if not v.typed(raw, dict, path):
        return None
    return _canon(v, raw, keys, f"{path}.")


def _zone_list(v: Validator, raw: Any, table: dict[str, str], path: str) -> list[str] | None:
    """A list of zones, each read through ``table``; None when absent or not a list."""
    if raw is None or not v.typed(raw, list, path):
        return None
    picked = (v.choice({"z": z}, "z", table, f"{path}[{i}]") for i, z in enumerate(raw))
    return [z for z in picked if z is not None]


def _keep(v: Validator, game: Game, data: dict[str, Any], char: Character, o: Orders) -> None:
    """``keep``: the hand cards to keep first when discarding."""
    if "keep" in data and data["keep"] is not None:
        o.keep = _card_list(v, data["keep"], "keep", char)


def _skill(v: Validator, game: Game, data: dict[str, Any], char: Character, o: Orders) -> None:
    """``skill``: whether to use skills, which one, and the cards it discards."""
    skill = _section(v, data.get("skill"), SKILL_KEYS, "skill")
    if skill is None:
        return
    o.skill_use = _bool(v, skill, "use", "skill.use", True)
    o.skill_discard = _card_list(v, skill.get("discard"), "skill.discard", char)
    if o.skill_use and not char.skills and "use" in skill:
        v.add("grail.no_skill", "skill.use", character=char.id)
    _check_skill(v, skill, o, char, game.skills)


def _priorities(v: Validator, game: Game, data: dict[str, Any], char: Character, o: Orders) -> None:
    """``target_priority`` and the 出杀 / 出闪 lists."""
    o.target_priority = v.choice(data, "target_priority", TARGET_PRIORITY, "target_priority", o.target_priority)
    strikes = _priority(v, data.get("strike_order"), "strike_order", STRIKE_KEYS, STRIKE_AGAINST, char, True)
    if strikes is not None:
        o.strike_order = strikes
    dodges = _priority(v, data.get("dodge_order"), "dodge_order", DODGE_KEYS, DODGE_AGAINST, char, True)
    if dodges is not None:
        o.dodge_order = dodges


def _basic_cards(v: Validator, game: Game, data: dict[str, Any], char: Character, o: Orders) -> None:
    """``use_curse`` (咒) and ``gem`` (宝石)."""
    o.use_curse = _bool(v, data, "use_curse", "use_curse", False)
    o.gem = v.choice(data, "gem", GEM, "gem", o.gem)


def _magic(v: Validator, game: Game, data: dict[str, Any], char: Character, o: Orders) -> None:
    """``magic``: whether to play magic cards, the zone priority, the hand-size priority."""
    magic = _section(v, data.get("magic"), MAGIC_KEYS, "magic")
    if magic is None:
        return
    o.magic_use = _bool(v, magic, "use", "magic.use", True)
    zones = _zone_list(v, magic.get("zone_priority"), MAGIC_ZONES, "magic.zone_priority")
    if zones is not None:
        o.zone_priority = zones
    o.hand_size = v.choice(magic, "hand_size", HAND_SIZE, "magic.hand_size", o.hand_size)


def _equipment(v: Validator, game: Game, data: dict[str, Any], char: Character, o: Orders) -> None:
    """``equipment``: per equipped card, whether its optional effect is used and from which zones."""
    equipment = data.get("equipment")
    if equipment is None or not v.typed(equipment, dict, "equipment"):
        return
    for name, raw in equipment.items():
        p = f"equipment.{name}"
        canon = cards.canonical(name) if isinstance(name, str) else None
        if canon is None or not cards.is_equipment(canon):
            v.add("grail.unknown_card", p, value=name)
            continue
        if not char.equipped(canon):
            v.add("grail.not_equipped", p, value=canon)
            continue
        choice = _section(v, raw, EQUIP_KEYS, p, required=True)
        if choice is None:
            continue
        ec = EquipmentChoice(_bool(v, choice, "use", f"{p}.use", True))
        zones = _zone_list(v, choice.get("zones"), ZONES, f"{p}.zones")
        if zones is not None:
            ec.zones = zones
        o.equipment[canon] = ec


def _move(v: Validator, game: Game, data: dict[str, Any], char: Character, o: Orders) -> None:
    """``move``: destination, waypoints and special move, checked against the map when the
    rest of the sheet is sound."""
    from gm_tool.rulesets.grail_war import movement

    move = _section(v, data.get("move"), MOVE_KEYS, "move", short="to", short_types=(str,))
    if move is None:
        return
    w, h = game.board.width, game.board.height
    if move.get("to") is not None:
        o.move_to = movement.tunnel_cell(game, move["to"]) or v.cell(move["to"], "move.to", w, h)
    via = move.get("via") or []
    if v.typed(via, list, "move.via"):
        o.move_via = [c for c in (movement.tunnel_cell(game, x) or v.cell(x, f"move.via[{i}]", w, h)
                                  for i, x in enumerate(via)) if c]
    o.move_special = v.choice(move, "special", SPECIAL, "move.special")
    if v.ok and char.alive:
        for fld, code, params in movement.check(game, char, o):
            v.add(code, fld, **params)


# the sheet's sections, read in this order after the header
STEPS = (_keep, _skill, _priorities, _basic_cards, _magic, _equipment, _move)
