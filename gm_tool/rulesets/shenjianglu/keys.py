"""The words of a 神将录 sheet: its keys in English and in the seed's words (traditional or
simplified), one table each, and the ``{spelling: key}`` map the core uses to find a problem's
line and name the field as the sheet wrote it (``RulesetBase.sheet_aliases``). Light on purpose:
the ruleset class reads it at import."""

from __future__ import annotations


def aliases(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """``{spelling: key}`` for every key and its other spellings."""
    return {alias: key for key, spellings in table.items() for alias in (key, *spellings)}


TOP_KEYS = aliases({"turn": ("回合",), "player": ("玩家",), "actions": ("行动", "行動")})
# an action's kind, named by its key (actions.py: one class each) ...
KIND_WORDS = {"summon": ("召唤", "召喚"), "command": ("指挥", "指揮"), "cast": ("法术", "法術", "施法"),
              "equip": ("装备", "裝備")}
# ... and the other fields an action may have
FIELD_WORDS = {"at": ("位置", "出兵点", "出兵點"), "id": ("编号", "編號"), "unit": ("人物", "对象", "對象"),
               "to": ("移动", "移動", "到"), "via": ("经过", "經過", "途经", "途經"), "attack": ("攻击", "攻擊"),
               "skill": ("技能",), "targets": ("目标", "目標")}
ACTION_KEYS = aliases({**KIND_WORDS, **FIELD_WORDS})
SHEET_ALIASES = {**TOP_KEYS, **ACTION_KEYS}
