"""The keys of an order sheet and the spellings accepted for them (spec §4): the canonical English
key, and the seed's own headings (l.61, l.69-87, l.107, l.119-154), which a key may also carry
with the seed's numbering ("1.1是否使用角色技能", "8.本回合移动"; orders._plain). Data only, so the
ruleset declares them (``sheet_aliases``) without loading the sheet reader."""

from __future__ import annotations

# canonical key -> accepted spellings
KEY_ALIASES: dict[str, tuple[str, ...]] = {
    "turn": ("回合",), "player": ("玩家",), "character": ("角色",),
    "keep": ("保留", "弃牌保留", "手牌保留", "上回合弃牌保留", "本回合弃牌保留的优先度", "弃牌保留的优先度",
             "本回合弃牌保留的优先度（下回合战术选项之前填写）"),
    "skill": ("技能", "角色技能", "是否使用角色技能", "本回合是否使用角色技能"),
    "target_priority": ("目标优先", "优先目标"),
    "strike_order": ("出杀顺序", "请排列顺序出杀顺序"), "dodge_order": ("出闪顺序", "请排列顺序出闪顺序"),
    "use_curse": ("咒", "使用咒", "是否使用咒", "本回合是否用咒", "是否用咒"),
    "gem": ("宝石", "是否用宝石", "是否用宝石?对谁?", "是否将宝石自用，亦或是救队友优先"),
    "magic": ("魔术牌", "是否使用魔术牌", "魔术牌大类选择"),
    "equipment": ("装备", "装备牌选择"),
    "move": ("移动", "本回合移动", "本回合移动，是否发动介职特效", "本回合移动，是否发动介职特效移动的具体地点，地图坐标",
             "目的地", "到达地图坐标"),  # the last two: a destination written at the top level (目的地: （F,10）)
}
_SKILL_KEYS: dict[str, tuple[str, ...]] = {"use": ("使用", "是否使用"), "discard": ("丢弃", "弃牌"), "name": ("名称", "技能名")}
_STRIKE_KEYS: dict[str, tuple[str, ...]] = {"against": ("对", "目标"), "count": ("张数", "数量", "出杀的张数"), "via": ("经由", "转换", "发动")}
_DODGE_KEYS: dict[str, tuple[str, ...]] = {"against": ("对", "目标"), "count": ("张数", "数量", "出闪的张数"), "via": ("经由", "转换", "发动")}
_MAGIC_KEYS: dict[str, tuple[str, ...]] = {"use": ("使用", "是否使用"), "zone_priority": ("区域优先", "优先区域"), "hand_size": ("手牌数", "手牌")}
_EQUIP_KEYS: dict[str, tuple[str, ...]] = {"use": ("使用", "发动", "是否发动"), "zones": ("区域", "优先", "弃掉该角色牌的种类和优先度排序")}
_MOVE_KEYS: dict[str, tuple[str, ...]] = {"to": ("目的地", "到", "坐标", "地图坐标", "到达地图坐标"), "via": ("途经", "经过"),
              "special": ("特殊", "介职特效", "特效", "是否发动介职特效")}


def _keys(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {alias: key for key, spellings in table.items() for alias in (key, *spellings)}


KEYS, SKILL_KEYS, STRIKE_KEYS, DODGE_KEYS, MAGIC_KEYS, EQUIP_KEYS, MOVE_KEYS = map(
    _keys, (KEY_ALIASES, _SKILL_KEYS, _STRIKE_KEYS, _DODGE_KEYS, _MAGIC_KEYS, _EQUIP_KEYS, _MOVE_KEYS))


def sheet_aliases() -> dict[str, str]:
    """``{spelling: canonical key}`` of every key a sheet may write (a top-level key's reading
    first where a nested one is spelled the same: 目的地 is ``move`` at the top, ``to`` under it)."""
    out: dict[str, str] = {}
    for table in (KEYS, SKILL_KEYS, STRIKE_KEYS, DODGE_KEYS, MAGIC_KEYS, EQUIP_KEYS, MOVE_KEYS):
        for spelling, key in table.items():
            out.setdefault(spelling, key)
    return out
