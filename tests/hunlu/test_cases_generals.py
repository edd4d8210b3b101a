"""Rule cases for the four sample generals of seed l.161-188 and for knockback (DATC style)."""

from __future__ import annotations

from gm_tool.rulesets.hunlu.catalogue import bundled
from tests.hunlu.helpers import check, events, new, pass_until, play, unit


def test_catalogue_transcribes_duanmo():
    """seed l.161-163: "C断魔之剑 1 / 精:7气:7（1.5）神:8 / 行动力:3 射程:2" """
    g = bundled()["duanmo_zhijian"]
    assert (g["name"], g["tier"], g["no"], g["jing"], g["qi"], g["qi_regen"], g["shen"], g["move"], g["range"]) == \
        ("断魔之剑", "C", 1, 7, 7, 1.5, 8, 3, 2)


def test_catalogue_transcribes_tianwei():
    """seed l.168-170: "B天威剑君 2 / 精：7 气：7（1.5）神：8 / 行动力：3射程：2" """
    g = bundled()["tianwei_jianjun"]
    assert (g["tier"], g["no"], g["jing"], g["qi"], g["qi_regen"], g["shen"], g["move"], g["range"]) == \
        ("B", 2, 7, 7, 1.5, 8, 3, 2)


def test_catalogue_transcribes_tianjie():
    """seed l.175-177: "A天劫之子8 / 精：7 气：10（1.5）神：8 / 行动力：3 射程：2" """
    g = bundled()["tianjie_zhizi"]
    assert (g["tier"], g["no"], g["jing"], g["qi"], g["qi_regen"], g["shen"], g["move"], g["range"]) == \
        ("A", 8, 7, 10, 1.5, 8, 3, 2)


def test_catalogue_transcribes_pozhenzi_without_range():
    """seed l.182-184: "B破阵子6 / 精：7 气：6（1.5）神：8 / 行动力：3" (no 射程 given: null)"""
    g = bundled()["pozhenzi"]
    assert (g["tier"], g["no"], g["jing"], g["qi"], g["move"], g["range"]) == ("B", 6, 7, 6, 3, None)


def test_catalogue_skill_costs():
    """seed l.164-187: "（2）圣心坚盾...（3）静心凝神...（5）圣道之刃..." (bracket numbers are 气 costs)"""
    costs = {s["name"]: s["qi"] for g in bundled().values() for s in g["skills"]}
    assert costs == {"圣心坚盾": 2, "静心凝神": 3, "圣道之刃": 5, "不灭之躯": 0, "以身化剑": 2, "以剑证道": 3,
                     "飞剑·疾": 4, "天剑行": 0, "天劫重斩": 2, "焚天凤炎": 2, "龙魂震慑": 6, "战斗潜能": 0,
                     "豪气荡云": 2, "破阵冲锋": 2, "所向无前": 4, "折弓破戟": 0}


def test_skill_costs_qi_and_one_move():
    """seed l.30: "魂将每次释放技能时，将会消耗1点行动力" """
    s = new({"d": {"general": "duanmo_zhijian", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C6"}})
    s, _ = play(s, [{"skill": "shengdao_zhiren"}], dice=[])
    d = unit(s, "d")
    assert d["qi"] == 2 and d["move"] == 3


def test_shengdao_zhiren_hits_all_in_range_8():
    """seed l.166: "（5）圣道之刃：射程8，对范围内所有目标造成1.5点伤害" """
    s = new({"d": {"general": "duanmo_zhijian", "pos": "A1", "move": 4}, "b": {"player": "bob", "pos": "I9"},
             "c": {"player": "bob", "pos": "E5"}}, width=10, height=10)
    s, _ = play(s, [{"skill": "圣道之刃"}])
    assert unit(s, "b")["jing"] == 5.5 and unit(s, "c")["jing"] == 5.5


def test_shengdao_zhiren_bonus_when_lost_more():
    """seed l.166: "若目标已损血量高于当前血量，伤害+1" """
    s = new({"d": {"general": "duanmo_zhijian", "pos": "A1", "move": 4}, "b": {"player": "bob", "pos": "C3", "jing": 3}})
    s, _ = play(s, [{"skill": "圣道之刃"}])
    assert unit(s, "b")["jing"] == 0.5


def test_shengdao_zhiren_spares_allies():
    """seed l.166: "对范围内所有目标造成1.5点伤害" (ruling R9: 所有目标 are enemies)"""
    s = new({"d": {"general": "duanmo_zhijian", "pos": "A1", "move": 4}, "c": {"pos": "B2"},
             "b": {"player": "bob", "pos": "C3"}})
    s, _ = play(s, [{"skill": "圣道之刃"}])
    assert unit(s, "c")["jing"] == 7 and unit(s, "b")["jing"] == 5.5


def test_shengxin_jiandun_first_at_round_start():
    """seed l.164: "（2）圣心坚盾：先手释放，防御提升35%，持续2回合。" """
    s = new({"d": {"general": "duanmo_zhijian", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C5"}})
    s, _ = play(s, [], standing={"alice": {"first_skills": {"d": ["圣心坚盾"]}}})
    s, ev = play(s, [])  # round 2 starts: the 先手 skill is cast
    d = unit(s, "d")
    st = [x for x in d["statuses"] if x["name"] == "圣心坚盾"]
    assert st and st[0]["active"] and st[0]["rounds"] == 2 and st[0]["stats"] == {"defence": 35}
    assert d["qi"] == 7  # 7 - 2 + 1.5 + 1 (天启), capped at 7
    assert d["ap"] == 2  # no action point spent (ruling R3)


def test_shengxin_jiandun_defends():
    """seed l.164: "防御提升35%" (faces 1-2 nullify)"""
    s = new({"d": {"general": "duanmo_zhijian", "pos": "C3", "move": 2}, "b": {"player": "bob", "pos": "C5", "move": 4}})
    s, _ = play(s, [])
    s, _ = play(s, [], standing={"alice": {"first_skills": {"d": ["shengxin_jiandun"]}}})
    s = pass_until(s, "b")
    s, _ = play(s, [{"attack": "d"}], dice=[2])
    assert unit(s, "d")["jing"] == 7


def test_bumie_zhiqu_heals_on_face_1():
    """seed l.167: "被动·不灭之躯：每回合末15%恢复1精。" """
    s = new({"d": {"general": "duanmo_zhijian", "pos": "C3", "move": 4, "jing": 5}, "b": {"player": "bob", "pos": "H8"}})
    s, _ = play(s, [])
    s, ev = play(s, [], dice=[1])
    assert unit(s, "d")["jing"] == 6 and events(ev, "passive")


def test_bumie_zhiqu_fails_on_face_2():
    """seed l.167: "每回合末15%恢复1精。" (15 % is face 1 only)"""
    s = new({"d": {"general": "duanmo_zhijian", "pos": "C3", "move": 4, "jing": 5}, "b": {"player": "bob", "pos": "H8"}})
    s, _ = play(s, [])
    s, _ = play(s, [], dice=[2])
    assert unit(s, "d")["jing"] == 5


def test_jingxin_ningshen_raises_passive_chance():
    """seed l.165: "（3）静心凝神：被动触发概率提升15%" (不灭之躯 then triggers on faces 1-2)"""
    s = new({"d": {"general": "duanmo_zhijian", "pos": "C3", "move": 4, "jing": 5}, "b": {"player": "bob", "pos": "H8"}})
    s, _ = play(s, [{"skill": "jingxin_ningshen"}])
    s, _ = play(s, [], dice=[2])  # round 1 ends: the buff is not active yet
    assert unit(s, "d")["jing"] == 5
    s, _ = play(s, [])
    s, _ = play(s, [], dice=[2])  # round 2 ends with the buff active
    assert unit(s, "d")["jing"] == 6


def test_jingxin_ningshen_ward_reflects_shen_loss():
    """seed l.165: "受到首次精神伤害无视并反弹给目标等额伤害。" (ruling R4: 精神伤害 = a 神 loss)"""
    sk = {"mute": {"name": "封口", "qi": 1, "shape": "single", "range": 3, "effects": [{"status": {"name": "沉默", "rounds": 1}}]}}
    gens = {"muter": {"name": "封口人", "jing": 7, "qi": 10, "move": 2, "range": 2, "skills": ["mute"]}}
    s = new({"d": {"general": "duanmo_zhijian", "pos": "C3", "move": 4}, "m": {"player": "bob", "general": "muter", "pos": "C5"}},
            generals=gens, skills=sk)
    s, _ = play(s, [{"skill": "jingxin_ningshen"}])
    s, _ = play(s, [{"skill": "mute", "target": "d"}])
    assert unit(s, "d")["shen"] == 8 and unit(s, "m")["shen"] == 7


def test_yishen_huajian_buffs_next_round():
    """seed l.171: "（2）以身化剑：闪避提升35%，行动力+1，射程-1...持续3回合。" """
    s = new({"t": {"general": "tianwei_jianjun", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "H8"}})
    s, _ = play(s, [{"skill": "以身化剑"}])
    assert unit(s, "t")["range"] == 2
    s, _ = play(s, [])
    t = unit(s, "t")
    assert t["move"] == 7 and t["range"] == 1  # 4 +1, and +2 from 天剑行 (no damage dealt in round 1)


def test_yishen_huajian_heals_if_not_hurt():
    """seed l.171: "若当前回合未受到伤害则回合末时恢复0.5精" """
    s = new({"t": {"general": "tianwei_jianjun", "pos": "C3", "move": 4, "jing": 5}, "b": {"player": "bob", "pos": "H8"}})
    s, _ = play(s, [{"skill": "以身化剑"}])
    s, _ = play(s, [])
    s, _ = play(s, [])
    s, _ = play(s, [])
    assert unit(s, "t")["jing"] == 5.5


def test_yijian_zhengdao_reflects_round_damage():
    """seed l.172: "（3）以剑证道：反弹本回合所受到的全部伤害，回合末发动。" """
    s = new({"t": {"general": "tianwei_jianjun", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C5"}})
    s, _ = play(s, [{"skill": "yijian_zhengdao"}])
    s, ev = play(s, [{"attack": "t"}, {"attack": "t"}], dice=[3, 3])
    assert unit(s, "t")["jing"] == 5 and unit(s, "b")["jing"] == 5 and events(ev, "reflect")


def test_feijian_ji_knocks_back_and_strikes():
    """seed l.173: "（4）飞剑·疾：选择一个方向，对直线4格的目标击退3格并打击一次" """
    s = new({"t": {"general": "tianwei_jianjun", "pos": "C2", "move": 4}, "b": {"player": "bob", "pos": "C4"}},
            height=12)
    s, ev = play(s, [{"skill": "飞剑·疾", "direction": "下"}], dice=[3])
    b = unit(s, "b")
    assert b["pos"] == "C7" and b["jing"] == 6


def test_feijian_ji_far_no_repeat():
    """seed l.173: "击退后若其仍在3格内则附带等额伤害，并定身一回合。" (5 points away: no extra)"""
    s = new({"t": {"general": "tianwei_jianjun", "pos": "C2", "move": 4}, "b": {"player": "bob", "pos": "C4"}},
            height=12)
    s, _ = play(s, [{"skill": "feijian_ji", "direction": "down"}], dice=[3])
    assert not unit(s, "b")["statuses"]


def test_feijian_ji_blocked_knockback_repeats_and_roots():
    """seed l.173: "击退后若其仍在3格内则附带等额伤害，并定身一回合。" """
    s = new({"t": {"general": "tianwei_jianjun", "pos": "C2", "move": 4}, "b": {"player": "bob", "pos": "C4"}},
            obstacles=[{"pos": "C6", "grade": 2}])
    s, _ = play(s, [{"skill": "feijian_ji", "direction": "down"}], dice=[3])
    b = unit(s, "b")
    assert b["pos"] == "C5" and b["jing"] == 5 and [x["name"] for x in b["statuses"]] == ["定身"]


def test_tianjian_xing_no_damage_next_round_plus_two():
    """seed l.174: "被动·天剑行：未造成伤害的下回合行动力+2。" """
    s = new({"t": {"general": "tianwei_jianjun", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "H8"}})
    s, _ = play(s, [])
    s, _ = play(s, [])
    assert unit(s, "t")["move"] == 6


def test_tianjian_xing_not_after_damage():
    """seed l.174: "未造成伤害的下回合行动力+2。" (it dealt damage: no bonus)"""
    s = new({"t": {"general": "tianwei_jianjun", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C5"}})
    s, _ = play(s, [{"attack": "b"}], dice=[3])
    s, _ = play(s, [])
    assert unit(s, "t")["move"] == 4


def test_zhongzhan_first_target_knocked_back():
    """seed l.178: "（2）天劫重斩：射程2，对一个方向的首个目标打击一次，并将其击退1格" """
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "E3"}})
    s, _ = play(s, [{"skill": "天劫重斩", "direction": "右"}], dice=[3])
    b = unit(s, "b")
    assert b["pos"] == "F3" and b["jing"] == 6


def test_zhongzhan_collision_and_push_behind():
    """seed l.178: "碰触障碍额外扣除0.5精，击退其身后的魂将。" """
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "E3"},
             "c": {"player": "bob", "pos": "F3"}})
    s, _ = play(s, [{"skill": "tianjie_zhongzhan", "direction": "right"}], dice=[3])
    assert unit(s, "b")["pos"] == "E3" and unit(s, "b")["jing"] == 5.5 and unit(s, "c")["pos"] == "G3"


def test_zhongzhan_out_of_range_no_target():
    """seed l.178: "射程2，对一个方向的首个目标" (3 points away: nobody is hit)"""
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "F3"}})
    s, ev = play(s, [{"skill": "tianjie_zhongzhan", "direction": "right"}], dice=[3])
    assert unit(s, "b")["jing"] == 7 and events(ev, "skill")[0]["targets"] == []


def test_fentian_fengyan_crit_and_qi_per_strike():
    """seed l.179: "（2）焚天凤炎：暴击提升50%，但每次打击都会额外消耗1点气。" """
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C5"}})
    s, _ = play(s, [{"skill": "焚天凤炎"}, {"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 5 and unit(s, "z")["qi"] == 7


def test_fentian_fengyan_boosts_zhongzhan():
    """seed l.179: "重斩】耗气+1，射程+2，伤害+1，击退距离+2." """
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C6"}},
            height=12)
    s, _ = play(s, [{"skill": "fentian_fengyan"}, {"skill": "tianjie_zhongzhan", "direction": "down"}], dice=[4])
    b, z = unit(s, "b"), unit(s, "z")
    assert b["jing"] == 5 and b["pos"] == "C9" and z["qi"] == 10 - 2 - 3 - 1


def test_fentian_fengyan_recast_cancels():
    """seed l.179: "再次释放取消。" """
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "H8"}})
    s, _ = play(s, [{"skill": "fentian_fengyan"}, {"skill": "fentian_fengyan"}])
    z = unit(s, "z")
    assert z["toggles"] == [] and z["statuses"] == [] and z["qi"] == 8


def test_longhun_zhenshe_damage_and_stop():
    """seed l.180: "（6）龙魂震慑：射程5，对范围内所有目标造成1点伤害，并停止其行动一回合。" """
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C8"}})
    s, _ = play(s, [{"skill": "龙魂震慑"}])
    b = unit(s, "b")
    assert b["jing"] == 6 and [(x["name"], x["active"]) for x in b["statuses"]] == [("停止行动", False)]
    assert b["shen"] == 7
    s, _ = play(s, [])  # b's own turn this round is still played
    s, ev = play(s, [])  # round 2: b is stopped
    assert events(ev, "turn_skipped")


def test_zhandou_qianneng_extra_turn():
    """seed l.181: "被动·战斗潜能：血量低于3点时，立即获得10点气，并跳过当前回合，立即执行自己的一个回合，下回合无法行动。" """
    s = new({"b": {"player": "bob", "pos": "C5", "move": 5}, "z": {"general": "tianjie_zhizi", "pos": "C3", "jing": 3, "qi": 2}})
    s, ev = play(s, [{"attack": "z"}], dice=[3])
    z = unit(s, "z")
    assert z["jing"] == 2 and z["qi"] == 13.5 and s["next"]["unit"] == "z" and events(ev, "extra_turn")
    s, _ = play(s, [])
    assert s["round"] == 2 and s["next"]["unit"] == "b"  # z's regular turn was skipped
    s, ev = play(s, [])
    assert any(e["unit"] == "z" for e in events(ev, "turn_skipped"))


def test_zhandou_qianneng_only_once():
    """seed l.181: "只可触发一次。" """
    s = new({"b": {"player": "bob", "pos": "C5", "move": 5}, "z": {"general": "tianjie_zhizi", "pos": "C3", "jing": 3, "qi": 2}})
    s, _ = play(s, [{"attack": "z"}], dice=[3])
    z = unit(s, "z")
    assert z["once"] == ["zhandou_qianneng"]
    z["jing"] = 2.5
    s["next"] = {"unit": "b", "player": "bob"}
    s["extra"] = []
    s, ev = play(s, [{"attack": "z"}], dice=[3])
    assert not events(ev, "extra_turn")


def test_haoqi_dangyun_half_strikes_fail():
    """seed l.185: "（2）豪气荡云：射程3，使目标的打击50%失效，持续2回合。" """
    s = new({"p": {"general": "pozhenzi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C5"}})
    s, _ = play(s, [{"skill": "豪气荡云", "target": "b"}])
    s, _ = play(s, [])
    s, _ = play(s, [])  # round 2: p passes
    s, ev = play(s, [{"attack": "p"}], dice=[2])
    assert events(ev, "strike_failed") and unit(s, "p")["jing"] == 7


def test_haoqi_dangyun_range_3():
    """seed l.185: "射程3" """
    s = new({"p": {"general": "pozhenzi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C7"}})
    assert check(s, [{"skill": "haoqi_dangyun", "target": "b"}]) == ["hunlu.skip.out_of_range@actions.0.target"]


def test_pozhen_chongfeng_dash_knock_damage():
    """seed l.186: "（2）破阵冲锋：突进3格，击退第一个目标并造成1点伤害。" """
    s = new({"p": {"general": "pozhenzi", "pos": "C2", "move": 4}, "b": {"player": "bob", "pos": "C6"}})
    s, _ = play(s, [{"skill": "破阵冲锋", "direction": "down"}])
    p, b = unit(s, "p"), unit(s, "b")
    assert p["pos"] == "C5" and b["pos"] == "C7" and b["jing"] == 6 and p["move"] == 2


def test_dash_skill_overdraw():
    """seed l.32: "当A还有1点行动力的时候，如果释放一个位移技能，本来需要消耗2点行动力，但是他可以最高透支50%所耗的行动力" """
    s = new({"p": {"general": "pozhenzi", "pos": "C2", "move": 4}, "b": {"player": "bob", "pos": "F8"}})
    s, ev = play(s, [{"move": "C5"}, {"skill": "pozhen_chongfeng", "direction": "down"}])
    assert events(ev, "skill")[0]["overdraw"] and unit(s, "p")["move"] == 0 and unit(s, "p")["pos"] == "C8"


def test_skill_with_no_move_left_refused():
    """seed l.30: "行动力不足时，可以透支50%所耗行动力来释放该技能" (with 0 left, not even half is paid)"""
    s = new({"p": {"general": "pozhenzi", "pos": "C2", "move": 4}, "b": {"player": "bob", "pos": "F8"}})
    assert check(s, [{"move": "C6"}, {"skill": "haoqi_dangyun", "target": "b"}]) == [
        "hunlu.skip.move_short@actions.1.skill"]


def test_qi_short_refused():
    """seed l.65: "消耗一定量的气（取决于技能名前的括号内数值）" """
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4, "qi": 4}, "b": {"player": "bob", "pos": "F8"}})
    assert check(s, [{"skill": "longhun_zhenshe"}]) == ["hunlu.skip.qi_short@actions.0.skill"]


def test_suoxiang_wuqian_absorbs_damage():
    """seed l.187: "（4）所向无前：先手释放，行动力-1，闪避，弱点失效，受到的伤害全部转化为精，持续3回合。" """
    s = new({"p": {"general": "pozhenzi", "pos": "C3", "move": 4, "jing": 5}, "b": {"player": "bob", "pos": "C5"}})
    s, _ = play(s, [], standing={"alice": {"first_skills": {"p": ["所向无前"]}}})
    s, _ = play(s, [])
    p = unit(s, "p")
    assert p["move"] == 2  # 4, -1 by 所向无前 at once (ruling R3), -1 for the cast (l.30)
    s, _ = play(s, [])
    s, _ = play(s, [{"attack": "p"}], dice=[3])
    assert unit(s, "p")["jing"] == 6


def test_suoxiang_wuqian_weakness_off():
    """seed l.187: "闪避，弱点失效" """
    s = new({"p": {"general": "pozhenzi", "pos": "C3", "move": 4, "weakness": 100}, "b": {"player": "bob", "pos": "C5"}})
    s, _ = play(s, [], standing={"alice": {"first_skills": {"p": ["suoxiang_wuqian"]}}})
    s, ev = play(s, [])
    s, _ = play(s, [])
    s, ev = play(s, [{"attack": "p"}], dice=[6])
    assert not events(ev, "strike")[0]["weakness"]


def test_zhegong_poji_no_weakness_from_lower_shen():
    """seed l.188: "被动·折弓破戟：自己不会被神低于自己的目标触发弱点，暴击。" """
    s = new({"b": {"player": "bob", "pos": "C5", "move": 5, "shen": 7, "crit": 100},
             "p": {"general": "pozhenzi", "pos": "C3", "weakness": 15}})
    s, ev = play(s, [{"attack": "p"}], dice=[6])
    e = events(ev, "strike")[0]
    assert not e["crit"] and not e["weakness"] and unit(s, "p")["jing"] == 6


def test_zhegong_poji_equal_shen_triggers():
    """seed l.188: "自己不会被神低于自己的目标触发弱点，暴击。" (equal 神 is not lower)"""
    s = new({"b": {"player": "bob", "pos": "C5", "move": 5, "crit": 100},
             "p": {"general": "pozhenzi", "pos": "C3"}})
    s, _ = play(s, [{"attack": "p"}], dice=[6])
    assert unit(s, "p")["jing"] == 5


def test_pozhenzi_default_range():
    """seed l.184: "行动力：3" (no 射程: the scenario's default_range, ruling R4)"""
    s = new({"p": {"general": "pozhenzi", "pos": "C3"}, "b": {"player": "bob", "pos": "F8"}},
            rules={"field": 3, "reserves": 2, "default_range": 3})
    assert unit(s, "p")["range"] == 3


def test_knockback_stops_at_edge():
    """seed l.13: "其中地图边界无法被跨越。" (a knockback stops at the edge)"""
    s = new({"z": {"general": "tianjie_zhizi", "pos": "G3", "move": 4}, "b": {"player": "bob", "pos": "I3"}})
    s, _ = play(s, [{"skill": "tianjie_zhongzhan", "direction": "right"}], dice=[3])
    assert unit(s, "b")["pos"] == "I3" and unit(s, "b")["jing"] == 5.5


def test_knockback_into_chasm():
    """seed l.126: "突进或移动经过上面的目标将被立即移出战场" (pushed onto a 天堑, contract H21)"""
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "D3"}},
            obstacles=[{"pos": "E3", "grade": 3}])
    s, ev = play(s, [{"skill": "tianjie_zhongzhan", "direction": "right"}], dice=[3])
    assert events(ev, "chasm")[0]["pos"] == "E3"
    # b cannot act from the 天堑: round 2 starts and b returns to D2 (reading order) with 0.5 damage
    assert unit(s, "b")["pos"] == "D2" and unit(s, "b")["jing"] == 5.5


def test_dash_passes_generals_not_rocks():
    """seed l.125: "II级障碍物...阻碍突进" (a dash stops before a rock)"""
    s = new({"p": {"general": "pozhenzi", "pos": "C2", "move": 4}, "b": {"player": "bob", "pos": "H8"}},
            obstacles=[{"pos": "C4", "grade": 2}])
    s, _ = play(s, [{"skill": "pozhen_chongfeng", "direction": "down"}])
    assert unit(s, "p")["pos"] == "C3"
