"""The grail war's player-facing messages (Chinese first, English second)."""

from gm_tool.i18n import register

register({
    "grail.sides": {"zh": "阵营应为至少 2 个不同的名字，实为 {value!r}", "en": "sides must be 2 or more distinct names, got {value!r}"},
    "grail.bad_id": {"zh": "角色 id {value!r} 不可用；只允许字母、数字、汉字、- 和 _", "en": "character id {value!r} is not usable; only letters, digits, CJK, - and _"},
    "grail.territory_overlap": {"zh": "格子 {cell} 已属于据点 {other} 的领土（领土不可重叠）", "en": "cell {cell} already belongs to stronghold {other} (territories may not overlap)"},
    "grail.stronghold_outside": {"zh": "据点位置 {cell} 不在其领土内", "en": "the stronghold's cell {cell} is not inside its territory"},
    "grail.capacity": {"zh": "格子 {cell} 超出容量（每格最多 {limit}：总数/每方）", "en": "cell {cell} is over capacity (at most {limit}: in all / per side)"},
    "grail.bad_card": {"zh": "无法识别的牌 {value!r}；写作 牌名 或 牌名 花色点数（如 闪 ♥2）", "en": "unrecognised card {value!r}; write a name, or a name with suit and rank (闪 ♥2)"},
    "grail.unknown_card": {"zh": "没有名为 {value!r} 的牌", "en": "there is no card named {value!r}"},
    "grail.card_unavailable": {"zh": "牌堆中已没有 {value!r}", "en": "no {value!r} is left in the deck"},
    "grail.bad_equipment": {"zh": "{value!r} 不是可放入 {slot} 栏的装备牌", "en": "{value!r} is not an equipment card for the {slot} slot"},
    "grail.equipment_taken": {"zh": "装备 {value!r} 已被其他角色装备", "en": "equipment {value!r} is already given to another character"},
    "grail.not_held": {"zh": "手牌中没有足够的 {value}（持有 {held} 张）", "en": "not enough {value} in hand (holding {held})"},
    "grail.not_equipped": {"zh": "未装备 {value}", "en": "{value} is not equipped"},
    "grail.no_skill": {"zh": "角色 {character} 没有技能", "en": "character {character} has no skill"},
    "grail.move.unreachable": {"zh": "无法到达 {cell}（地形阻挡：高处只能由高往低、河道只有 RIDER/CASTER 可渡）", "en": "{cell} cannot be reached (terrain: ground is entered from higher to lower only, rivers only by RIDER/CASTER)"},
    "grail.move.too_far": {"zh": "{cell} 需要 {steps} 步，超过移动力 {limit}", "en": "{cell} takes {steps} steps, more than the move of {limit}"},
    "grail.move.ends_in_river": {"zh": "不能停在河道中（{cell}），以免渡河失败", "en": "a move may not end in the river ({cell})"},
    "grail.move.no_teleport": {"zh": "{cls} 不能瞬移；只有 CASTER 或站在己方传送据点上的角色可以", "en": "{cls} cannot teleport; only a CASTER, or a character on an own teleport stronghold"},
    "grail.move.teleport_target": {"zh": "{cell} 不是可传送的目的地（己方据点或敌方传送点）", "en": "{cell} is not a teleport destination (an own stronghold or an enemy teleport point)"},
    "grail.move.teleport_far": {"zh": "{cell} 超出瞬移距离 {limit} 格", "en": "{cell} is beyond the teleport range of {limit} cells"},
    "grail.move.special_unsupported": {"zh": "特殊移动 {value!r} 不适用于此移动", "en": "special movement {value!r} does not apply to this move"},
})
