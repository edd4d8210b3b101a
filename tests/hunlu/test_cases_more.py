"""More rule cases: knockback on a diagonal, dashes over generals, joint-attack order, 先手 order,
神 from lowering buffs, 行动力 caps, collisions without 元抗 (DATC style)."""

from __future__ import annotations

from tests.hunlu.helpers import events, new, play, unit

B = {"player": "bob", "pos": "C5"}


def test_diagonal_knockback_goes_down():
    """seed l.101: "当目标处于对角线的时候，方向为上/下。" """
    sk = {"push": {"name": "推", "qi": 1, "shape": "single", "effects": [{"knockback": 1}]}}
    gens = {"pusher": {"name": "推手", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["push"]}}
    s = new({"a": {"general": "pusher", "pos": "C3"}, "b": {**B, "pos": "D4"}}, generals=gens, skills=sk)
    s, _ = play(s, [{"skill": "push", "target": "b"}])
    assert unit(s, "b")["pos"] == "D5"


def test_dash_passes_over_a_general():
    """seed l.125: "II级障碍物...阻碍突进" (only II and IV stop a dash; a general, grade I, does not)"""
    sk = {"leap": {"name": "跃", "qi": 1, "shape": "self", "effects": [{"dash": 3}]}}
    gens = {"leaper": {"name": "跃者", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["leap"]}}
    s = new({"a": {"general": "leaper", "pos": "C3"}, "c": {"pos": "D3"}, "b": {**B, "pos": "H8"}}, generals=gens, skills=sk)
    s, ev = play(s, [{"skill": "leap", "direction": "right"}])
    assert unit(s, "a")["pos"] == "F3" and events(ev, "skill")[0]["move_cost"] == 2


def test_dash_needs_direction():
    """seed l.102: "若有“突进至身前”等描述，也按照上文所介绍的方向进行。" (a dash skill names its direction)"""
    from tests.hunlu.helpers import check
    sk = {"leap": {"name": "跃", "qi": 1, "shape": "self", "effects": [{"dash": 3}]}}
    gens = {"leaper": {"name": "跃者", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["leap"]}}
    s = new({"a": {"general": "leaper", "pos": "C3"}, "b": {**B, "pos": "H8"}}, generals=gens, skills=sk)
    assert check(s, [{"skill": "leap"}]) == ["hunlu.skip.need_direction@actions.0.direction"]


def test_joint_attacks_in_initiative_order():
    """seed l.64: "自己可以选择消耗1点行动力对其普攻一次" (H14: joiners strike in initiative order)"""
    s = new({"a": {"pos": "C3", "move": 5}, "c": {"pos": "D3", "move": 2}, "d": {"pos": "B3", "move": 4}, "b": B})
    st = {"alice": {"joint_attack": {"c": {}, "d": {}}}}
    _, ev = play(s, [{"attack": "b"}], dice=[3, 3, 3], standing=st)
    assert [e["unit"] for e in events(ev, "joint_attack")] == ["d", "c"]


def test_first_skills_by_caster_move():
    """seed l.145: "当有多个先手技能释放的时候，根据释放者的行动力大小依次释放。" """
    s = new({"d1": {"general": "duanmo_zhijian", "pos": "C3", "move": 2}, "d2": {"general": "duanmo_zhijian", "pos": "E3", "move": 5},
             "b": {**B, "pos": "H8", "move": 1}})
    st = {"alice": {"first_skills": {"d1": ["shengxin_jiandun"], "d2": ["shengxin_jiandun"]}}}
    for _ in range(3):
        s, ev = play(s, [], standing=st)
    assert [e["unit"] for e in events(ev, "skill")] == ["d2", "d1"]


def test_lowering_buff_costs_shen():
    """seed l.22: "每次受到附带负面状态的打击时，都会减少1点神。" (豪气荡云 lowers the target: 神 −1)"""
    s = new({"p": {"general": "pozhenzi", "pos": "C3", "move": 4}, "b": B})
    s, _ = play(s, [{"skill": "haoqi_dangyun", "target": "b"}])
    assert unit(s, "b")["shen"] == 7


def test_own_lowering_buff_costs_no_shen():
    """seed l.22: "每次受到附带负面状态的打击时" (所向无前's 行动力 −1 on oneself is no 打击)"""
    s = new({"p": {"general": "pozhenzi", "pos": "C3", "move": 4}, "b": {**B, "pos": "H8"}})
    s, _ = play(s, [], standing={"alice": {"first_skills": {"p": ["suoxiang_wuqian"]}}})
    s, _ = play(s, [])
    assert unit(s, "p")["shen"] == 8 and any(x["name"] == "所向无前" for x in unit(s, "p")["statuses"])


def test_move_cap_applies():
    """seed l.134: "三为特定条件（如行动力至多为2）" """
    s = new({"a": {"pos": "C3", "move": 5, "statuses": [{"name": "迟缓", "rounds": 2, "stats": {"move_max": 2}}]}, "b": B})
    assert unit(s, "a")["move"] == 2


def test_collision_is_not_element_damage():
    """seed l.178: "碰触障碍额外扣除0.5精" (a collision is no element damage: no 元抗 die)"""
    s = new({"z": {"general": "tianjie_zhizi", "pos": "G3", "move": 4, "element": "雷"},
             "b": {"player": "bob", "pos": "I3", "resist": 100}})
    s, ev = play(s, [{"skill": "tianjie_zhongzhan", "direction": "right"}], dice=[6])
    assert [e["why"] for e in events(ev, "roll")] == ["天劫重斩"]
    assert unit(s, "b")["jing"] == 7 - 0.5 - 0.5  # the strike resisted (1 -> 0.5), the collision whole


def test_dead_body_blocks_flying_objects():
    """seed l.124: "I级障碍物：包括魂将，死亡魂将，召唤物。阻碍移动与飞行物的通过。" """
    from tests.hunlu.helpers import check
    s = new({"a": {"pos": "C3", "move": 5}, "x": {"player": "bob", "pos": "C4", "jing": 1, "move": 4},
             "b": {**B, "move": 1}})
    s, _ = play(s, [{"attack": "x"}], dice=[3])
    assert not unit(s, "x")["alive"] and unit(s, "x")["pos"] == "C4"
    from tests.hunlu.helpers import pass_until
    s = pass_until(s, "a")
    assert check(s, [{"attack": "b"}]) == ["hunlu.skip.path_blocked@actions.0.attack"]
