"""Rule cases: strikes, attributes and their cancelling, joint attacks, element damage
(DATC style: one case per test, the seed line quoted)."""

from __future__ import annotations

from tests.hunlu.helpers import events, new, play, unit

A = {"pos": "C3", "move": 4}
B = {"player": "bob", "pos": "C5"}


def duel(a=None, b=None, **kw):
    return new({"a": {**A, **(a or {})}, "b": {**B, **(b or {})}}, **kw)


def test_normal_attack_deals_one():
    """seed l.63: "对其打击一次并造成1点伤害（每次打击都会判定）" """
    s, ev = play(duel(), [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 6 and events(ev, "strike")[0]["face"] == 3


def test_one_die_per_strike_without_pips():
    """seed l.63: "每次打击都会判定" (a die is rolled even when no attribute has pips)"""
    _, ev = play(duel(), [{"attack": "b"}], dice=[5])
    assert [e["source"] for e in events(ev, "roll")] == ["file"]


def test_lin_normal_attack_half():
    """seed l.63: "林，山系魂将的普攻伤害降低50%" """
    s, _ = play(duel(a={"element": "林"}), [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 6.5


def test_shan_normal_attack_half():
    """seed l.63: "林，山系魂将的普攻伤害降低50%" """
    s, _ = play(duel(a={"element": "山"}, b={"pos": "C4"}), [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 6.5


def test_crit_doubles():
    """seed l.34: "暴击：普攻时进行一次判定...若为暴击点数，则伤害翻倍。" """
    s, _ = play(duel(a={"crit": 15}), [{"attack": "b"}], dice=[1])
    assert unit(s, "b")["jing"] == 5


def test_crit_misses_on_higher_face():
    """seed l.34: "若为暴击点数，则伤害翻倍" (face 2 is not a 15 % crit face)"""
    s, _ = play(duel(a={"crit": 15}), [{"attack": "b"}], dice=[2])
    assert unit(s, "b")["jing"] == 6


def test_weakness_doubles():
    """seed l.35: "弱点：普攻时进行一次判定，若为【对方】弱点点数，则伤害翻倍。" """
    s, _ = play(duel(b={"weakness": 15}), [{"attack": "b"}], dice=[6])
    assert unit(s, "b")["jing"] == 5


def test_crit_is_attackers_weakness_is_targets():
    """seed l.36: "此处暴击和弱点所看的分别是攻击发起者和受到攻击者的点数" """
    s, _ = play(duel(a={"weakness": 100}, b={"crit": 100}), [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 6


def test_crit_and_weakness_together_double_once():
    """seed l.140: "当多个同种效果生效时...只生效最强的一种" (ruling R1: crit + weakness = ×2)"""
    s, _ = play(duel(a={"crit": 100}, b={"weakness": 15}), [{"attack": "b"}], dice=[6])
    assert unit(s, "b")["jing"] == 5


def test_dodge_nullifies():
    """seed l.37: "闪避：普攻时进行一次判定，若为闪避点数，则伤害无效。" """
    s, ev = play(duel(b={"dodge": 35}), [{"attack": "b"}], dice=[2])
    assert unit(s, "b")["jing"] == 7 and events(ev, "strike")[0]["nullified"]


def test_hit_ignores_dodge():
    """seed l.38: "命中：普攻时进行一次判定，若为命中点数，则该次攻击无视闪避效果。" """
    s, _ = play(duel(a={"hit": 35}, b={"dodge": 35}), [{"attack": "b"}], dice=[2])
    assert unit(s, "b")["jing"] == 6


def test_defence_nullifies():
    """seed l.39: "防御：普攻时进行一次判定，若为对方防御点数，则伤害无效。" """
    s, _ = play(duel(b={"defence": 15}), [{"attack": "b"}], dice=[1])
    assert unit(s, "b")["jing"] == 7


def test_hit_does_not_cancel_defence():
    """seed l.42: "当不同对象的属性同时触发，将两两抵消。" (命中 cancels 闪避, not 防御)"""
    s, _ = play(duel(a={"hit": 100}, b={"defence": 15}), [{"attack": "b"}], dice=[1])
    assert unit(s, "b")["jing"] == 7


def test_tip_sure_hit_against_dodge_and_defence():
    """seed l.109: "当目标同时触发防御和闪避效果的时候，若自己只有必中/破防效果，目标由于仍然存在一种属性，所以伤害仍然是无效的。" """
    s, _ = play(duel(a={"statuses": [{"name": "必中", "rounds": 2}]}, b={"dodge": 15, "defence": 15}),
                [{"attack": "b"}], dice=[1])
    assert unit(s, "b")["jing"] == 7


def test_tip_pierce_against_dodge_and_defence():
    """seed l.109: "若自己只有必中/破防效果，目标由于仍然存在一种属性，所以伤害仍然是无效的。" """
    s, _ = play(duel(a={"statuses": [{"name": "破防", "rounds": 2}]}, b={"dodge": 15, "defence": 15}),
                [{"attack": "b"}], dice=[1])
    assert unit(s, "b")["jing"] == 7


def test_sure_hit_and_pierce_together_get_through():
    """seed l.107-108: "必中：附带该效果的攻击将无视闪避效果。" "破防：...将无视防御效果。" """
    st = [{"name": "必中", "rounds": 2}, {"name": "破防", "rounds": 2}]
    s, _ = play(duel(a={"statuses": st}, b={"dodge": 15, "defence": 15}), [{"attack": "b"}], dice=[1])
    assert unit(s, "b")["jing"] == 6


def test_sure_hit_ignores_dodge():
    """seed l.107: "必中：附带该效果的攻击将无视闪避效果。" """
    s, _ = play(duel(a={"statuses": [{"name": "必中", "rounds": 2}]}, b={"dodge": 100}), [{"attack": "b"}], dice=[4])
    assert unit(s, "b")["jing"] == 6


def test_blind_loses_sure_hit():
    """seed l.111: "失明：命中率降低85%,自己所有的必中效果失效。" """
    st = [{"name": "必中", "rounds": 2}, {"name": "失明", "rounds": 2}]
    s, _ = play(duel(a={"statuses": st}, b={"dodge": 100}), [{"attack": "b"}], dice=[4])
    assert unit(s, "b")["jing"] == 7


def test_blind_cuts_hit_by_five_pips():
    """seed l.111: "失明：命中率降低85%" (100 % hit becomes 15 %: face 2 no longer hits)"""
    s, _ = play(duel(a={"hit": 100, "statuses": [{"name": "失明", "rounds": 2}]}, b={"dodge": 35}),
                [{"attack": "b"}], dice=[2])
    assert unit(s, "b")["jing"] == 7


def test_element_attack_resisted_halves():
    """seed l.40: "当自己受到【元素伤害】时，进行一次判定，若为元抗点数则受到伤害降低50%" """
    s, _ = play(duel(a={"element": "雷"}, b={"resist": 15}), [{"attack": "b"}], dice=[1])
    assert unit(s, "b")["jing"] == 6.5


def test_element_half_point_resisted_is_zero():
    """seed l.40: "若原始（未被衰减前）伤害不高于0.5点则伤害无效" """
    s, _ = play(duel(a={"element": "林"}, b={"resist": 15}), [{"attack": "b"}], dice=[1])
    assert unit(s, "b")["jing"] == 7


def test_no_element_no_resist():
    """seed l.40: "当自己受到【元素伤害】时" (a general without element deals no element damage)"""
    s, _ = play(duel(b={"resist": 100}), [{"attack": "b"}], dice=[1])
    assert unit(s, "b")["jing"] == 6


def test_percent_buffs_add_as_pips():
    """seed l.45: "A原本有35%命中，当他获得提升35%命中概率时...2+2=4，转化为概率值为65%。" """
    st = [{"name": "鹰眼", "rounds": 2, "stats": {"hit": 35}}]
    s, _ = play(duel(a={"hit": 35, "statuses": st}, b={"dodge": 100}), [{"attack": "b"}], dice=[4])
    assert unit(s, "b")["jing"] == 6


def test_strongest_damage_increase_only():
    """seed l.140: "当多个同种效果生效时，同行动力一样只生效最强的一种。" """
    st = [{"name": "x", "rounds": 2, "stats": {"damage_pct": 50}}, {"name": "y", "rounds": 2, "stats": {"damage_pct": 100}}]
    s, _ = play(duel(a={"statuses": st}), [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 5


def test_damage_increase_keeps_fraction():
    """seed l.141: "当所改变的原始数值有小数的时候，忽略原始数值的小数并进行计算，再将结果与小数相加。" """
    st = [{"name": "x", "rounds": 2, "stats": {"damage_pct": 100}}]
    s, _ = play(duel(a={"element": "林", "statuses": st}), [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 6.5  # 0.5 is unchanged


def test_out_of_range_attack_refused():
    """seed l.63: "仅可以对射程内的目标使用" """
    from tests.hunlu.helpers import check
    s = duel(b={"pos": "C7"})
    assert check(s, [{"attack": "b"}]) == ["hunlu.skip.out_of_range@actions.0.attack"]


def test_range_square_reaches_corner():
    """seed l.25: "正方形所框住的地方（包括边框）都为该魂将可进行普通攻击的范围" """
    s, _ = play(duel(b={"pos": "E5"}), [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 6


def test_fire_cannot_hit_off_line():
    """seed l.26: "风，火，山系魂将无法打击不与自己在同一条直线的目标" """
    from tests.hunlu.helpers import check
    s = duel(a={"element": "火"}, b={"pos": "D4"})
    assert check(s, [{"attack": "b"}]) == ["hunlu.skip.off_line@actions.0.attack"]


def test_thunder_may_hit_off_line():
    """seed l.26: "风，火，山系魂将无法打击不与自己在同一条直线的目标" (雷 is not among them)"""
    s, _ = play(duel(a={"element": "雷"}, b={"pos": "D4"}), [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 6


def test_flying_object_blocked_by_rock():
    """seed l.15: "地图上的障碍无法被飞行物穿过。" """
    from tests.hunlu.helpers import check
    s = duel(obstacles=[{"pos": "C4", "grade": 2}])
    assert check(s, [{"attack": "b"}]) == ["hunlu.skip.path_blocked@actions.0.attack"]


def test_flying_object_blocked_by_general():
    """seed l.124: "I级障碍物：包括魂将，死亡魂将，召唤物。阻碍移动与飞行物的通过。" """
    from tests.hunlu.helpers import check
    s = new({"a": A, "b": B, "c": {"player": "bob", "pos": "C4", "move": 1}})
    assert check(s, [{"attack": "b"}]) == ["hunlu.skip.path_blocked@actions.0.attack"]


def test_flying_object_passes_coprime_diagonal():
    """seed l.119: "飞行物：带有轨迹的攻击，如普攻与指向性技能均视为飞行物。" (no grid point between C3 and D5)"""
    s, _ = play(duel(b={"pos": "D5"}, obstacles=[{"pos": "C4", "grade": 2}]), [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 6


def test_chasm_does_not_block_flying():
    """seed l.126: "III级障碍物：别名天堑。突进或移动经过上面的目标将被立即移出战场" (it stops movers, not shots)"""
    s, _ = play(duel(obstacles=[{"pos": "C4", "grade": 3}]), [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 6


def test_two_attacks_two_dice():
    """seed l.61: "每名魂将在自己的回合都有2点行动点数" (two normal attacks, one die each)"""
    s, ev = play(duel(), [{"attack": "b"}, {"attack": "b"}], dice=[3, 4])
    assert unit(s, "b")["jing"] == 5 and [e["face"] for e in events(ev, "strike")] == [3, 4]


def test_third_action_refused():
    """seed l.61: "每名魂将在自己的回合都有2点行动点数" """
    from tests.hunlu.helpers import check
    assert check(duel(), [{"attack": "b"}] * 3) == ["hunlu.skip.no_points@actions.2"]


def test_attack_on_ally_refused():
    """seed l.63: "普通攻击...对其打击一次" (a normal attack targets an enemy, ruling R9)"""
    from tests.hunlu.helpers import check
    s = new({"a": A, "c": {"pos": "C4"}, "b": {**B, "pos": "H8"}})
    assert check(s, [{"attack": "c"}]) == ["hunlu.skip.not_enemy@actions.0.attack"]


JA = {"alice": {"joint_attack": {"c": {}}}}


def joint_board(c=None):
    return new({"a": A, "c": {"pos": "D3", "move": 1, **(c or {})}, "b": B})


def test_joint_attack_joins():
    """seed l.64: "在自己回合外，射程内的目标受到普攻攻击时，自己可以选择消耗1点行动力对其普攻一次" """
    s, ev = play(joint_board(), [{"attack": "b"}], dice=[3, 3], standing=JA)
    assert unit(s, "b")["jing"] == 5 and unit(s, "c")["ap"] == 1


def test_joint_attack_costs_one_qi():
    """seed l.21: "联合攻击每次消耗1点气" """
    s, _ = play(joint_board(), [{"attack": "b"}], dice=[3, 3], standing=JA)
    assert unit(s, "c")["qi"] == 9


def test_joint_attack_needs_standing_order():
    """seed l.64: "自己可以选择" (generals not listed in joint_attack never join)"""
    s, ev = play(joint_board(), [{"attack": "b"}], dice=[3, 3])
    assert unit(s, "b")["jing"] == 6 and not events(ev, "joint_attack")


def test_joint_attack_own_crit_cannot_trigger():
    """seed l.64: "此次普攻无法触发自己的普攻特效（暴击，命中等自己的点数无法触发" """
    s, _ = play(joint_board({"crit": 100}), [{"attack": "b"}], dice=[3, 1], standing=JA)
    assert unit(s, "b")["jing"] == 5


def test_joint_attack_target_weakness_triggers():
    """seed l.64: "但弱点，防御，元抗等对方的点数可以正常触发" """
    s, _ = play(new({"a": A, "c": {"pos": "D3", "move": 1}, "b": {**B, "weakness": 15}}),
                [{"attack": "b"}], dice=[3, 6], standing=JA)
    assert unit(s, "b")["jing"] == 4


def test_joint_attack_target_out_of_range():
    """seed l.64: "射程内的目标受到普攻攻击时" """
    s, ev = play(new({"a": A, "c": {"pos": "H1", "move": 1}, "b": B}), [{"attack": "b"}], dice=[3, 3], standing=JA)
    assert not events(ev, "joint_attack")


def test_joint_attack_keep_qi():
    """seed l.21: "联合攻击每次消耗1点气" (keep_qi: join only with more 气 than kept)"""
    st = {"alice": {"joint_attack": {"c": {"keep_qi": 10}}}}
    _, ev = play(joint_board(), [{"attack": "b"}], dice=[3, 3], standing=st)
    assert not events(ev, "joint_attack")


def test_joint_attack_not_after_skill():
    """seed l.64: "射程内的目标受到普攻攻击时" (a skill's strike calls no joint attack)"""
    sk = {"zap": {"name": "电", "qi": 1, "shape": "single", "effects": [{"strike": 1}]}}
    gens = {"zapper": {"name": "电人", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["zap"]}}
    s = new({"a": {**A, "general": "zapper"}, "c": {"pos": "D3", "move": 1}, "b": B}, generals=gens, skills=sk)
    _, ev = play(s, [{"skill": "zap", "target": "b"}], dice=[3, 3], standing=JA)
    assert not events(ev, "joint_attack")


def test_joint_attack_disarmed_cannot_join():
    """seed l.114: "缴械：无法主动普通攻击与联合攻击。" """
    _, ev = play(joint_board({"statuses": [{"name": "缴械", "rounds": 2}]}), [{"attack": "b"}], dice=[3, 3],
                 standing=JA)
    assert not events(ev, "joint_attack")


def test_joint_attack_before_turn_only():
    """seed l.64: "在自己回合外" (when: after_turn: c has not had its turn yet, so it stays out)"""
    st = {"alice": {"joint_attack": {"c": {"when": "after_turn"}}}}
    _, ev = play(joint_board(), [{"attack": "b"}], dice=[3, 3], standing=st)
    assert not events(ev, "joint_attack")


def test_joint_attack_unspent_points_of_acted_general():
    """seed l.64: "自己可以选择消耗1点行动力对其普攻一次" (a general that passed keeps its points for it)"""
    s = new({"c": {"pos": "D3", "move": 5}, "a": A, "b": B})
    s, _ = play(s, [], standing=JA)  # c passes with 2 points
    s, ev = play(s, [{"attack": "b"}], dice=[3, 3])
    assert len(events(ev, "joint_attack")) == 1 and unit(s, "b")["jing"] == 5
