"""Rule cases for issue 20: outcomes a GM need not fix by hand (DATC style: each docstring quotes
the seed line it checks; the rulings are docs/rulings/hunlu.md R3, R5, R27-R33)."""

from __future__ import annotations

import pytest

from gm_tool.errors import GmError
from tests.hunlu.helpers import RS, check, events, new, pass_until, play, scenario, unit

B = {"player": "bob", "pos": "C5"}


def post(before, after, evs, reader=None, lang="zh", fmt="md"):
    return RS.posts(before, after, evs, lang).texts["public" if reader is None else reader][fmt]


# --- 战斗潜能 on a stopped general (ruling R5) ------------------------------------------------

def test_r5_extra_turn_of_a_stopped_general_is_skipped_not_offered():
    """seed l.181: "被动·战斗潜能：血量低于3点时，立即获得10点气，并跳过当前回合，立即执行自己的一个回合，
    下回合无法行动。" with l.22-23 (a general that cannot act does not act): the extra turn of a
    general under an active 停止行动 is skipped and told; `next` never names it."""
    s = new({"b": {"player": "bob", "pos": "C5", "move": 5},
             "z": {"general": "tianjie_zhizi", "pos": "C3", "jing": 3, "qi": 2,
                   "statuses": [{"name": "停止行动", "rounds": 1}]}})
    assert s["next"]["unit"] == "b"
    s, ev = play(s, [{"attack": "z"}], dice=[3])
    assert unit(s, "z")["jing"] == 2 and events(ev, "extra_turn")
    skipped = events(ev, "turn_skipped")
    assert [(e["unit"], e["extra"], e["reason"]) for e in skipped] == [("z", True, "停止行动")]
    assert s["next"]["unit"] == "b" and s["round"] == 2  # z's turn was never offered
    assert check(s, [{"attack": "z"}]) == []  # b's own sheet, z never due
    assert "额外人回合无法进行（停止行动）" in post(s, s, ev)


def test_r5_extra_turn_played_then_stopped_next_round():
    """seed l.181: "立即执行自己的一个回合，下回合无法行动" (the stop follows the extra turn, for
    the round after it)"""
    s = new({"b": {"player": "bob", "pos": "C5", "move": 5},
             "z": {"general": "tianjie_zhizi", "pos": "C3", "jing": 3, "qi": 2}})
    s, _ = play(s, [{"attack": "z"}], dice=[3])
    assert s["next"]["unit"] == "z" and not unit(s, "z")["statuses"]
    s, ev = play(s, [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 6
    assert [(x["name"], x["active"]) for x in unit(s, "z")["statuses"]] == [("停止行动", True)]
    assert s["next"]["unit"] == "b" and s["round"] == 2


def test_r5_extra_turn_in_its_own_turn_voids_the_rest_of_the_sheet():
    """seed l.181: "跳过当前回合，立即执行自己的一个回合" (triggered in its own turn, by its own
    collision: the rest of that turn's sheet is void, once told, and a fresh turn follows)"""
    s = new({"z": {"general": "tianjie_zhizi", "pos": "I3", "jing": 3, "qi": 2, "move": 5,
                   "skills": [{"id": "self_hurt", "name": "自伤", "shape": "self", "effects": [{"heal": -1}]},
                              "zhandou"]},
             "b": {"player": "bob", "pos": "A9"}}, skills={"zhandou": ZHANDOU})
    s, ev = play(s, [{"skill": "self_hurt"}, {"move": "I5"}])
    assert [(e["action"], e["reason"]) for e in events(ev, "skip")] == [(1, "turn_over")]
    assert unit(s, "z")["pos"] == "I3" and s["next"]["unit"] == "z" and unit(s, "z")["ap"] == 2


ZHANDOU = {"name": "战斗潜能", "timing": "passive", "trigger": {"jing_below": 3}, "once": True, "shape": "self",
           "effects": [{"qi": 10}, {"extra_turn": True}]}


# --- 天堑 mid-skill (ruling R27) ----------------------------------------------------------------

def test_r27_knocked_into_a_chasm_no_later_strike_of_the_skill():
    """seed l.126: "III级障碍物：别名天堑。突进或移动经过上面的目标将被立即移出战场" (飞剑·疾 knocks b
    into the 天堑: its strike of the same skill finds nobody; no roll, no "None")"""
    s = new({"t": {"general": "tianwei_jianjun", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C4"}},
            obstacles=[{"pos": "C6", "grade": 3}])
    s1, ev = play(s, [{"skill": "飞剑·疾", "direction": "down"}], dice=[3])
    assert [(e["unit"], e["pos"]) for e in events(ev, "chasm")] == [("b", "C6")]
    assert not events(ev, "strike") and not events(ev, "roll") and not [e for e in events(ev, "status") if e["unit"] == "b"]
    assert [(e["dest"], e["cells"]) for e in events(ev, "knockback")] == [("C6", 2)]
    assert unit(s1, "b")["jing"] == 6.5  # only the return's 10 % (l.126), at round 2's start
    text = post(s, s1, ev)
    assert "None" not in text and "被击退 2/3 格（向下）→ C6" in text and "落入天堑 C6" in text
    assert text.index("被击退") < text.index("落入天堑")


def test_r27_pushed_behind_into_a_chasm_is_told_with_its_point():
    """seed l.178: "击退其身后的魂将" with l.126 (the general pushed behind falls too, told from
    its point to the 天堑's)"""
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C4"},
             "c": {"player": "bob", "pos": "C5"}}, obstacles=[{"pos": "C6", "grade": 3}])
    s1, ev = play(s, [{"skill": "天劫重斩", "direction": "down"}], dice=[3])
    pushes = events(ev, "knockback")
    assert [(e["unit"], e["frm"], e["dest"]) for e in pushes] == [("b", "C4", "C4"), ("c", "C5", "C6")]
    assert unit(s1, "c")["chasm"] == "C6" and "None" not in post(s, s1, ev)


# --- 神 0 however reached (ruling R28) ---------------------------------------------------------

def test_r28_shen_zero_by_gm_edit_stops_the_general():
    """seed l.22: "当神为0时，魂将无法主动行动" (a GM edit to 0: not due, its sheet refused)"""
    s = new({"a": {"pos": "C3", "move": 5}, "b": {**B, "move": 2}})
    assert s["next"]["unit"] == "a"
    s2, ev = RS.amend(s, {"action": "set_shen", "args": ["a", 0], "reason": "裁定"}, "gm amend")
    assert s2["next"]["unit"] == "b" and "寂灭" in [x["name"] for x in unit(s2, "a")["statuses"]]
    with pytest.raises(GmError) as e:
        RS.parse_orders(s2, {"turn": 1, "player": "alice", "actions": [{"move": "C2"}]}, "a.yaml", "zh")
    assert [p.code for p in e.value.problems] == ["hunlu.orders.not_due"]
    s3, _ = RS.amend(s2, {"action": "set_shen", "args": ["a", 3], "reason": "改回"}, "gm amend")
    assert not unit(s3, "a")["statuses"]


def test_r28_shen_zero_at_the_start_and_by_a_skill():
    """seed l.22-23: "当神为0时，魂将无法主动行动" ... "进入【寂灭】状态，永久停止行动" (a scenario's
    starting 神 0, and a skill taking the last 神)"""
    s = new({"a": {"pos": "C3", "move": 5, "shen": 0}, "b": {**B, "move": 2}})
    assert s["next"]["unit"] == "b" and unit(s, "a")["statuses"][0]["name"] == "寂灭"
    drain = {"drain": {"name": "夺神", "shape": "single", "range": 3, "effects": [{"shen": -1}]}}
    gens = {"drainer": {"name": "夺神者", "jing": 7, "qi": 5, "move": 5, "range": 2, "skills": ["drain"]}}
    s = new({"a": {"general": "drainer", "pos": "C3"}, "b": {**B, "shen": 1, "move": 2}}, generals=gens, skills=drain)
    s, _ = play(s, [{"skill": "drain", "target": "b"}])
    assert unit(s, "b")["shen"] == 0 and s["next"]["unit"] == "a"  # b is skipped: round 2 begins


# --- 先手 (ruling R3) ---------------------------------------------------------------------------

def test_r3_first_statuses_active_at_once_cut_the_round():
    """seed l.187: "（4）所向无前：先手释放，行动力-1" (ruling R3: active in the round it is cast,
    so the cut is in that round's 行动力 at once)"""
    s = new({"p": {"general": "pozhenzi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "H8"}})
    s, _ = play(s, [], standing={"alice": {"first_skills": {"p": ["所向无前"]}}})
    s, ev = play(s, [])  # round 2 starts with the 先手 cast
    p = unit(s, "p")
    assert events(ev, "skill")[0]["first"] and p["move"] == 4 - 1 - 1  # the cut, then the cast (l.30)


def test_r3_standing_first_recast_only_when_ended():
    """seed l.164: "（2）圣心坚盾：先手释放，防御提升35%，持续2回合。" (a standing 先手 is cast again
    once its 2 rounds are over, not on top of itself)"""
    s = new({"d": {"general": "duanmo_zhijian", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "H8"}})
    s, _ = play(s, [], standing={"alice": {"first_skills": {"d": ["圣心坚盾"]}}})
    casts = []
    for _ in range(6):
        before = s["round"]
        s, ev = play(s, [])
        if s["round"] != before:
            casts.append((s["round"], len(events(ev, "skill"))))
    assert casts == [(2, 1), (3, 0), (4, 1)]


def test_r3_standing_first_every_round_when_the_sheet_asks():
    """seed l.83: "回合开始阶段：先手技能可以在这一阶段释放" (first_recast: every_round casts it
    each round while payable)"""
    s = new({"d": {"general": "duanmo_zhijian", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "H8"}})
    s, _ = play(s, [], standing={"alice": {"first_skills": {"d": ["圣心坚盾"]}, "先手重放": {"d": "每回合"}}})
    assert s["standing"]["alice"]["first_recast"] == {"d": "every_round"}
    casts = []
    for _ in range(4):
        before = s["round"]
        s, ev = play(s, [])
        if s["round"] != before:
            casts.append(len(events(ev, "skill")))
    assert casts == [1, 1]


# --- the catalogue as the contract writes it (ruling R29) ----------------------------------------

def test_r29_team_starting_values_from_zero():
    """seed l.21: "气：即魂将的法力值" (contract section 5: a team entry's jing qi shen are starting
    values from 0 to the maximum; 精 0 would be a dead general, l.20)"""
    s = new({"a": {"pos": "C3", "qi": 0, "shen": 0}, "b": B})
    assert (unit(s, "a")["qi"], unit(s, "a")["shen"]) == (1, 0)  # 0, then round 1's 恢气 of 1
    for bad, field in (({"jing": 0}, "jing"), ({"qi": 11}, "qi"), ({"shen": 0.5}, "shen")):
        with pytest.raises(GmError) as e:
            new({"a": {"pos": "C3", **bad}, "b": B})
        assert [p.field for p in e.value.problems] == [f"players.alice.team.a.{field}"]


def test_r29_team_entry_overrides_skills():
    """seed l.152: "魂将数量已经达到195位" (a team entry may override any catalogue attribute,
    skills included: this 天劫之子 has only 龙魂震慑)"""
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4,
                   "skills": [{"id": "zhenshe", "name": "龙魂震慑", "qi": 6, "range": 5, "shape": "all",
                               "effects": [{"damage": 1}]}]}, "y": {"general": "tianjie_zhizi", "pos": "E3"}, "b": B})
    assert check(s, [{"skill": "天劫重斩", "direction": "down"}]) == ["hunlu.skip.skill_unknown@actions.0.skill"]
    s1, _ = play(s, [{"skill": "龙魂震慑"}])
    assert unit(s1, "b")["jing"] == 6 and not unit(s1, "b")["statuses"]
    assert [x["id"] for x in s1["generals"]["tianjie_zhizi"]["skills"]][0] == "tianjie_zhongzhan"  # y keeps its own


def test_r29_move_pct_written_as_a_cut():
    """seed l.134: "一为降低百分比行动力（通常为50%）" (contract: `move_pct: −%`; -50 halves 行动力)"""
    s = new({"a": {"pos": "C3", "move": 4, "statuses": [{"name": "迟缓", "rounds": 2, "stats": {"move_pct": -50}}]},
             "b": B})
    assert unit(s, "a")["move"] == 2


@pytest.mark.parametrize("entry,field", [
    ({"statuses": [{"name": "迟缓", "rounds": 2, "stats": {"move_pct": 50}}]}, "statuses.0.stats.move_pct"),
    ({"statuses": [{"name": "迟缓", "rounds": 2, "stats": {"strike_fail": -50}}]}, "statuses.0.stats.strike_fail"),
    ({"statuses": [{"name": "迟缓", "rounds": 2, "stats": {"move_max": -1}}]}, "statuses.0.stats.move_max"),
    ({"statuses": [{"name": "迟缓", "rounds": 2, "round_end": {"heal": -1}}]}, "statuses.0.round_end"),
    ({"statuses": [{"name": "迟缓", "rounds": 2, "round_end": {"heal": 1, "when": "x"}}]}, "statuses.0.round_end"),
    ({"statuses": [{"name": "心战", "rounds": 2, "heart": {"A": []}}]}, "statuses.0.heart"),
    ({"skills": [{"id": "x", "trigger": "round_end", "effects": [{"heal": 1}]}]}, "skills.0.trigger"),
    ({"skills": [{"id": "x", "effects": [{"status": {"name": "沉默", "rounds": 1, "chance": 50}}]}]},
     "skills.0.effects.0.status"),
    ({"skills": [{"id": "x", "effects": [{"if": {"cond": "not_damaged", "then": [], "else": []}}]}]},
     "skills.0.effects.0.if"),
])
def test_r29_no_value_silently_ignored(entry, field):
    """seed l.41: "某一项属性的点数通常使用概率值来表示" (what the engine would not read is refused,
    naming the field, rather than ignored)"""
    with pytest.raises(GmError) as e:
        new({"a": {"pos": "C3", **entry}, "b": B})
    assert f"players.alice.team.a.{field}" in [p.field for p in e.value.problems]


# --- posts that explain themselves (ruling R30) --------------------------------------------------

def test_r30_crit_cancelled_by_zhegong_poji_said_on_the_die_line():
    """seed l.188: "被动·折弓破戟：自己不会被神低于自己的目标触发弱点，暴击。" (the strike's line says
    the die showed a crit that does not count, and why)"""
    s = new({"b": {"player": "bob", "pos": "C5", "move": 5, "shen": 7, "crit": 100},
             "p": {"general": "pozhenzi", "pos": "C3"}})
    s1, ev = play(s, [{"attack": "p"}], dice=[1])
    e = events(ev, "strike")[0]
    assert not e["crit"] and e["cancel"] == [["crit", "折弓破戟"]] and e["damage"] == 1
    line = next(x for x in post(s, s1, ev).splitlines() if "打击" in x)
    assert "骰 1" in line and "暴击被折弓破戟抵消" in line and "伤害 1" in line
    en = next(x for x in post(s, s1, ev, lang="en").splitlines() if "strike" in x)
    assert "crit cancelled by 折弓破戟" in en


def test_r30_hit_cancelling_dodge_said():
    """seed l.38, l.42: "命中...则该次攻击无视闪避效果" "当不同对象的属性同时触发，将两两抵消。" """
    s = new({"a": {"pos": "C3", "move": 5, "hit": 50}, "b": {**B, "dodge": 50}})
    s1, ev = play(s, [{"attack": "b"}], dice=[2])
    assert "闪避被命中抵消" in post(s, s1, ev) and unit(s1, "b")["jing"] == 6


def test_r30_passive_that_does_not_fire_prints_nothing():
    """seed l.174: "被动·天剑行：未造成伤害的下回合行动力+2。" (having dealt damage, it does not fire:
    no line)"""
    s = new({"t": {"general": "tianwei_jianjun", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C5", "move": 1}})
    s, _ = play(s, [{"attack": "b"}], dice=[3])
    s, ev = play(s, [])  # round 1 ends
    assert not [e for e in events(ev, "passive") if e["name"] == "天剑行"]
    assert "天剑行" not in post(s, s, ev)


HEART = {"xin": {"name": "心战诀", "qi": 2, "shape": "single", "range": 3,
                 "effects": [{"buff": {"name": "心战", "rounds": 1,
                                       "heart": {"A": [{"damage": 2}], "B": [{"status": {"name": "沉默", "rounds": 1}}]}}}]},
         "cut": {"name": "斩", "qi": 0, "shape": "single", "range": 3, "effects": [{"damage": 7}]}}
MIND = {"mind": {"name": "心战者", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["xin", "cut"]}}


def test_r30_heart_card_revealed_when_its_holder_dies():
    """seed l.120: "当技能效果结束时，展示卡牌并执行相应的效果" (the holder's death ends the effect:
    the card is shown; nothing is executed on a body, nothing paid)"""
    s0 = new({"a": {"general": "mind", "pos": "C3"}, "b": {**B, "move": 1}, "c": {"player": "bob", "pos": "H8", "move": 1}},
             generals=MIND, skills=HEART)
    s1, ev = play(s0, [{"skill": "xin", "target": "b", "card": "B"}, {"skill": "cut", "target": "b"}])
    assert [(e["unit"], e["card"]) for e in events(ev, "heart_reveal")] == [("b", "B")]
    assert not events(ev, "heart_paid") and unit(s1, "a")["qi"] == 10
    assert "心战卡牌揭晓：B" in post(s0, s1, ev, reader="bob")


def test_r30_heart_reveal_told_once_with_the_qi_paid():
    """seed l.120: "心战技能的耗气将在展示卡牌后消耗。" (the end is told once, by the reveal, and the
    2 气 paid then is posted)"""
    s = new({"a": {"general": "mind", "pos": "C3"}, "b": {**B, "move": 1}}, generals=MIND, skills=HEART)
    s, _ = play(s, [{"skill": "xin", "target": "b", "card": "A"}])
    s = pass_until(s, "a")
    s, _ = play(s, [])
    s, ev = play(s, [])  # round 2 ends
    assert [e["name"] for e in events(ev, "status_end")] == [] and len(events(ev, "heart_reveal")) == 1
    assert [(e["qi"], e["left"]) for e in events(ev, "heart_paid")] == [(2, unit(s, "a")["qi"])]
    text = post(s, s, ev)
    assert text.count("心战】结束") == 1 and "支付【心战】的 2 气" in text


def test_r30_no_line_about_a_dead_general_after_the_end():
    """seed l.6: "当其中一方的魂将全部死亡时，即宣告游戏结束。" (龙魂震慑's 停止行动 does not land on the
    general its damage killed; nothing follows the winner)"""
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C6", "jing": 1}})
    s1, ev = play(s, [{"skill": "龙魂震慑"}])
    told = [e for e in ev if e["type"] not in ("turn_end", "next")]
    assert s1["winner"] == "red" and told[-1]["type"] == "victory"
    assert not events(ev, "status") and not unit(s1, "b")["statuses"]


# --- gm check warnings (ruling R31) ---------------------------------------------------------------

def _warnings(state, actions):
    return [f"{w.code}@{w.field}" for w in RS.parse_orders(state, {"turn": state["turn"] + 1, "player": "alice",
                                                                    "actions": actions}, "a.yaml", "zh").warnings]


def test_r31_check_warns_of_a_line_skill_with_an_ally_first():
    """seed l.178: "对一个方向的首个目标打击一次" (the first general that way is an ally: accepted,
    with a warning that it will hit no enemy)"""
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "c": {"pos": "C4"}, "b": B})
    assert _warnings(s, [{"skill": "天劫重斩", "direction": "down"}]) == ["hunlu.warn.ally_first@actions.0.direction"]
    assert _warnings(s, [{"skill": "天劫重斩", "direction": "up"}]) == ["hunlu.warn.no_target@actions.0.direction"]
    assert _warnings(s, [{"skill": "天劫重斩", "direction": "right"}]) == ["hunlu.warn.no_target@actions.0.direction"]


def test_r31_check_warns_of_an_attack_after_a_leg_into_a_chasm(tmp_path, gm):
    """seed l.126: "移动经过上面的目标将被立即移出战场" (gm check accepts, and warns that the attack
    after the leg will not happen)"""
    import yaml

    sc = scenario({"a": {"pos": "C3", "move": 5}, "b": B}, obstacles=[{"pos": "E3", "grade": 3}])
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(sc, allow_unicode=True), encoding="utf-8")
    gm("new", tmp_path / "c", "--scenario", tmp_path / "s.yaml", "--seed", "hunlu-warn-seed-0123456789")
    (tmp_path / "a.yaml").write_text("turn: 1\nplayer: alice\nactions:\n  - move: G3\n  - attack: b\n", encoding="utf-8")
    out = gm("check", tmp_path / "c", tmp_path / "a.yaml").output
    assert "有效" in out and "注意" in out and "a.yaml:5: actions.1" in out and "天堑" in out


# --- steps and rounds: one vocabulary (ruling R32) -------------------------------------------------

def test_r32_round_is_the_big_round_step_is_a_general_turn():
    """seed l.81: "前文的回合，大多指的是大回合。" (posts, gm status: 回合 = the big round, 步 = one
    general's turn; no 大回合 beside a 回合 meaning something else)"""
    s = new({"a": {"pos": "C3", "move": 5}, "b": B})
    s1, ev = play(s, [])
    text = post(s, s1, ev)
    assert text.startswith("## 魂陆 case 第1步（第1回合）") and "大回合" not in text
    assert RS.default_summary(s1, "bob", "zh").startswith("第1回合，第2步")
    s2, ev = play(s1, [])
    assert "### 第2回合开始（天启回合）" in post(s1, s2, ev)


# --- the GM's hands (ruling R33) --------------------------------------------------------------------

def edit(state, action, *args):
    return RS.amend(state, {"action": action, "args": list(args), "reason": "裁定"}, "gm amend")


def test_r33_gm_edits_points_and_move():
    """seed l.61: "每名魂将在自己的回合都有2点行动点数" (the GM sets the points and 行动力 left)"""
    s = new({"a": {"pos": "C3", "move": 5}, "b": B})
    s, ev = edit(s, "set_ap", "a", 1)
    s, ev2 = edit(s, "set_move", "a", 2)
    assert (unit(s, "a")["ap"], unit(s, "a")["move"]) == (1, 2)
    assert check(s, [{"move": "C1"}, {"move": "E1"}]) == ["hunlu.skip.no_points@actions.1"]
    text = post(s, s, ev + ev2)
    assert "GM 修改：将 木人(a) 本回合剩余的行动点设为 1（理由：裁定）" in text
    assert "GM 修改：将 木人(a) 本回合剩余的行动力设为 2（理由：裁定）" in text


def test_r33_gm_grants_and_removes_a_turn():
    """seed l.85: "第一人回合：在此时只有第一魂将可以行动，并行动两次" (the GM gives a general a turn
    now, or takes its turn away)"""
    s = new({"a": {"pos": "C3", "move": 5}, "b": {**B, "move": 2}})
    s2, ev = edit(s, "grant_turn", "b")
    assert s2["next"]["unit"] == "b"
    s3, _ = play(s2, [])
    assert s3["next"]["unit"] == "a" and s3["round"] == 1 and not unit(s3, "b")["statuses"]
    s4, ev = edit(s, "remove_turn", "a")
    assert s4["next"]["unit"] == "b" and s4["round"] == 1
    assert "GM 修改：取消 木人(a) 本回合的人回合（理由：裁定）" in post(s, s4, ev)
    with pytest.raises(GmError) as e:
        edit(s4, "remove_turn", "a")
    assert e.value.problems[0].code == "hunlu.amend.acted"
    s5, _ = play(s4, [])
    assert s5["round"] == 2


def test_r33_ambiguous_name_lists_the_ids_and_substitute_by_name():
    """seed l.68: "自己将被一名所指定的副将（副位魂将）替换" (a general's name is read where it is
    unique among the likely ones; two enemies of one name: refused, listing the ids)"""
    s = new({"a": {"pos": "C3", "move": 5}, "r": {"general": "tianjie_zhizi", "role": "reserve"},
             "z1": {"player": "bob", "general": "tianjie_zhizi", "pos": "C5"},
             "z2": {"player": "bob", "general": "tianjie_zhizi", "pos": "D4"}})
    with pytest.raises(GmError) as e:
        RS.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"attack": "天劫之子"}]}, "a.yaml", "zh")
    p = e.value.problems[0]
    assert (p.code, p.field, p.params["ids"]) == ("hunlu.orders.ambiguous", "actions.0.attack", "z1, z2")
    assert "z1, z2" in p.render("zh")
    o = RS.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"替换": "天劫之子"}]}, "a.yaml", "zh")
    assert o.actions == [{"kind": "substitute", "reserve": "r"}]


def test_r33_dice_note_shown_beside_its_rolls(tmp_path, gm):
    """seed l.47: "每当需要判定时，扔一次骰子，上面显示的数值即为判定结果。" (forum rolls: full-width
    digits read, a mistyped roll withdrawn with --replace, the floor's note beside the roll)"""
    import json

    d = tmp_path / "c"
    gm("new", d, "--scenario", "hunlu_duel", "--seed", "hunlu-dice-seed-0123456789")
    gm("dice", d, "６", "--note", "错楼")
    gm("dice", d, "３，５", "--note", "12 楼", "--replace")
    assert (d / "orders/turn-001/_dice.yaml").read_text("utf-8") == "dice:\n- 3\n- 5\nnote: 12 楼\n"
    nxt = json.loads(gm("show", d, "--json").stdout)["next"]
    (tmp_path / "s.yaml").write_text(f"turn: 1\nplayer: {nxt['player']}\nactions: []\n", encoding="utf-8")
    gm("submit", d, tmp_path / "s.yaml")
    gm("resolve", d)
    text = (d / "reports/turn-001/public.md").read_text("utf-8")
    assert "本步的论坛骰：3、5（12 楼）" in text
    gm("dice", d, "--replace")
    assert (d / "orders/turn-002/_dice.yaml").read_text("utf-8") == "dice: []\n"
    gm("verify", d)


def test_r33_duel_comment_agrees_with_the_demo_default():
    """seed l.9: "在标准地图【魂战之地】之中" (the standard map is the default demo; the duel's
    comment says so)"""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "scenarios" / "hunlu_duel.yaml").read_text("utf-8")
    assert RS.default_scenario == "hunzhan" and "plays the standard hunzhan" in text
    assert "the default scenario of" not in text
