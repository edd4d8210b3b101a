"""Player-facing messages of 魂陆 (codes prefixed ``hunlu.``), Chinese and English."""

from __future__ import annotations

from gm_tool.i18n import register

MESSAGES = {
    # catalogue and scenario
    "hunlu.catalogue.pct": {"zh": "概率 {value!r} 不可用；只允许 0/15/35/50/65/85/100（对应 0-6 点，l.41）",
                            "en": "percentage {value!r} is not allowed; only 0/15/35/50/65/85/100 (0-6 pips, l.41)"},
    "hunlu.catalogue.skill_unknown": {"zh": "未知技能 {skill!r}；剧本 skills: 中定义的有：{allowed}",
                                      "en": "unknown skill {skill!r}; the scenario's skills: defines {allowed}"},
    "hunlu.catalogue.effect": {"zh": "效果应为一个键的映射；允许：{allowed}",
                               "en": "an effect is a mapping with one key; allowed: {allowed}"},
    "hunlu.catalogue.if": {"zh": "if 效果需要 cond 和 then（效果列表）", "en": "an if effect needs cond and then (a list of effects)"},
    "hunlu.dice.face": {"zh": "骰点 {value!r} 不可用；只允许 1-6 的整数", "en": "die {value!r} is not allowed; only integers 1-6"},
    "hunlu.dice.too_many": {"zh": "骰点过多（{count} 个），上限 {limit}", "en": "too many dice ({count}); the limit is {limit}"},
    "hunlu.scenario.mains": {"zh": "主位魂将应为 1-{limit} 名，实为 {count}", "en": "1-{limit} main generals expected, got {count}"},
    "hunlu.scenario.reserves": {"zh": "副位魂将至多 {limit} 名，实为 {count}", "en": "at most {limit} reserves, got {count}"},
    "hunlu.scenario.unique": {"zh": "本剧本禁止同一方重复选择魂将 {general}（l.75）",
                              "en": "this scenario forbids the same general twice a side: {general} (l.75)"},
    "hunlu.scenario.sides": {"zh": "应恰好有两方，实为 {count} 方", "en": "exactly two sides expected, got {count}"},
    "hunlu.scenario.occupied": {"zh": "位置 {pos} 已被占用", "en": "point {pos} is already taken"},
    "hunlu.scenario.no_spawn": {"zh": "{unit} 没有空的出生点", "en": "no free spawn point for {unit}"},
    "hunlu.scenario.reserve_pos": {"zh": "副位魂将不在场上，不能给出 pos", "en": "a reserve is on the bench; it takes no pos"},
    # sheets
    "hunlu.orders.not_due": {"zh": "{player} 现在不该行动（轮到 {due}）；只能提交 standing 常驻指令",
                             "en": "{player} is not due (it is {due}'s turn); send only standing orders"},
    "hunlu.orders.unit_not_due": {"zh": "魂将 {unit} 不是当前行动的魂将（当前：{due}）",
                                  "en": "general {unit} is not the general due ({due})"},
    "hunlu.orders.too_many": {"zh": "行动过多（{count} 项），上限 {limit}", "en": "too many actions ({count}); the limit is {limit}"},
    "hunlu.orders.action": {"zh": "每项行动应恰好是以下之一：{allowed}", "en": "each action must be exactly one of: {allowed}"},
    "hunlu.orders.not_own": {"zh": "{unit} 不是你的魂将；你的魂将：{allowed}", "en": "{unit} is not your general; yours: {allowed}"},
    "hunlu.orders.not_enemy_unit": {"zh": "{unit} 不是敌方魂将", "en": "{unit} is not an enemy general"},
    "hunlu.orders.not_first": {"zh": "{skill} 不是先手技能；可选：{allowed}", "en": "{skill} is not a 先手 skill; allowed: {allowed}"},
    # refusals (gm check) and skips (resolution)
    "hunlu.skip.no_points": {"zh": "行动点不足（需要 {need}，剩 {left}）", "en": "not enough action points (need {need}, {left} left)"},
    "hunlu.skip.rooted": {"zh": "定身中，无法移动或突进", "en": "rooted (定身): no move or dash"},
    "hunlu.skip.third_leg": {"zh": "每回合至多移动两段（已移动 {used} 段，l.29-31）",
                             "en": "at most two legs a turn ({used} used, l.29-31)"},
    "hunlu.skip.leg_not_straight": {"zh": "{frm} → {to} 不在同一行或同一列", "en": "{frm} -> {to} is not along a row or column"},
    "hunlu.skip.leg_too_far": {"zh": "移动 {dist} 格超过剩余行动力 {left}", "en": "a leg of {dist} exceeds the 行动力 left ({left})"},
    "hunlu.skip.leg_blocked": {"zh": "路线被 {at} 的障碍阻挡（I/II/IV 级）", "en": "the leg is blocked at {at} (grade I/II/IV)"},
    "hunlu.skip.target_unknown": {"zh": "未知目标 {target!r}", "en": "unknown target {target!r}"},
    "hunlu.skip.target_gone": {"zh": "目标 {target} 已不在场上", "en": "target {target} is no longer on the field"},
    "hunlu.skip.out_of_range": {"zh": "{target} 不在射程 {range} 内", "en": "{target} is out of range {range}"},
    "hunlu.skip.off_line": {"zh": "{target} 不在同一直线（风/火/山系，l.26）", "en": "{target} is off the line (风/火/山, l.26)"},
    "hunlu.skip.path_blocked": {"zh": "飞行物被障碍阻挡，无法打到 {target}", "en": "the flying object to {target} is blocked"},
    "hunlu.skip.not_enemy": {"zh": "{target} 不是敌方魂将", "en": "{target} is not an enemy"},
    "hunlu.skip.not_affected": {"zh": "{target} 不是此技能的对象（{affects}）", "en": "{target} is not affected by this skill ({affects})"},
    "hunlu.skip.disarmed": {"zh": "缴械中，无法普攻", "en": "disarmed (缴械): no normal attack"},
    "hunlu.skip.item_unknown": {"zh": "没有物品 {item!r}；持有：{allowed}", "en": "no item {item!r}; held: {allowed}"},
    "hunlu.skip.skill_unknown": {"zh": "没有技能 {skill!r}；可主动释放：{allowed}", "en": "no skill {skill!r}; castable: {allowed}"},
    "hunlu.skip.skill_not_active": {"zh": "{skill} 不能主动释放（{timing}）", "en": "{skill} cannot be cast actively ({timing})"},
    "hunlu.skip.silenced": {"zh": "沉默中，无法主动释放技能", "en": "silenced (沉默): no active skill"},
    "hunlu.skip.charging": {"zh": "蓄力中，无法释放其他技能", "en": "charging (蓄力): no other skill"},
    "hunlu.skip.need_target": {"zh": "此技能需要 target", "en": "this skill needs a target"},
    "hunlu.skip.need_at": {"zh": "此技能需要 at（一个点）", "en": "this skill needs at (a point)"},
    "hunlu.skip.need_direction": {"zh": "此技能需要 direction：上/下/左/右", "en": "this skill needs a direction: up/down/left/right"},
    "hunlu.skip.qi_short": {"zh": "气不足（需要 {need}，剩 {left}）", "en": "not enough 气 (need {need}, {left} left)"},
    "hunlu.skip.move_short": {"zh": "行动力不足（需要 {need}，剩 {left}；至少需一半，l.30）",
                              "en": "not enough 行动力 (need {need}, {left} left; at least half is needed, l.30)"},
    "hunlu.skip.substitute_not_alone": {"zh": "替换须单独进行，消耗全部 2 点行动点", "en": "a substitution is the turn's only action (2 points)"},
    "hunlu.skip.reserve_unknown": {"zh": "{reserve!r} 不是可上场的副将；可选：{allowed}", "en": "{reserve!r} is not an available reserve; allowed: {allowed}"},
    "hunlu.skip.cannot_act": {"zh": "已无法行动", "en": "can no longer act"},
    # summaries
    "hunlu.status.pass": {"zh": "未提交则跳过（主动跳过）", "en": "passes (主动跳过) if no sheet arrives"},
    "hunlu.status.where": {"zh": "第{round}大回合，第{turn}步，轮到 {unit}", "en": "round {round}, turn {turn}, due: {unit}"},
    "hunlu.status.standing": {"zh": "不需要行动；可只提交常驻指令", "en": "not due; may send standing orders only"},
}

register(MESSAGES)
