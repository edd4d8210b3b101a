"""What a sheet of 光与影 holds once read (:class:`Orders`), and the words a sheet may use for its
keys (contract §3): each canonical key with the seed's own word for it. The action kinds
(:mod:`.actions`) take their words from :data:`KINDS` and :data:`FIELDS`; the ruleset's
``sheet_aliases`` reads them here, so loading the ruleset does not load the rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gm_tool.core import yamlpos

TOP_KEYS = {"turn": "turn", "回合": "turn", "player": "player", "玩家": "player",
            "actions": "actions", "行动": "actions", "standing": "standing", "常设": "standing"}
# each kind of action with the seed's word for it (seed l.50-l.51), in the order of the table
KINDS: dict[str, tuple[str, ...]] = {
    "summon": ("召唤",), "move": ("移动",), "attack": ("攻击",), "full_attack": ("全力攻击",),
    "defend": ("防御",), "ability": ("能力",), "leader": ("队长",), "split": ("离队",), "return": ("回手",),
    "suicide": ("自杀",)}
VERBS = {word: name for name, aliases in KINDS.items() for word in (name, *aliases)}
# every field an action may have, with the seed's word for it
FIELDS = {"at": "at", "位置": "at", "id": "id", "编号": "id", "squad": "squad", "小队": "squad",
          "path": "path", "路径": "path", "target": "target", "目标": "target", "by": "by", "发动者": "by",
          "member": "member", "成员": "member", "orientation": "orientation", "方向": "orientation",
          "amount": "amount", "数值": "amount"}
STANDING_KEYS = {"leader_dies": "leader_dies", "队长死亡": "leader_dies", "squads": "squads", "小队": "squads",
                 "return": "return", "回手": "return", "suicide": "suicide", "自杀": "suicide"}

# the line finder finds a canonical key under any of its spellings
yamlpos.register_aliases(TOP_KEYS, VERBS, FIELDS, STANDING_KEYS)


@dataclass
class Orders:
    """One player's sheet for one turn: its actions in order (canonical mappings, see
    :mod:`.actions`) and the standing orders it changes."""

    player: str
    turn: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    standing: dict[str, Any] | None = None
