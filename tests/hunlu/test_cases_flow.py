"""Rule cases: movement, obstacles, knockback, initiative, the round, statuses, death and
substitution, dice sources, victory (DATC style: one case per test, the seed line quoted)."""

from __future__ import annotations

import pytest

from gm_tool.errors import GmError
from tests.hunlu.helpers import RS, check, events, new, pass_until, play, unit

A = {"pos": "C3", "move": 4}
B = {"player": "bob", "pos": "G7"}


def board(a=None, b=None, **kw):
    return new({"a": {**A, **(a or {})}, "b": {**B, **(b or {})}}, **kw)


# ---- movement --------------------------------------------------------------------------------
def test_one_leg_costs_cells():
    """seed l.29: "每移动1格就需要消耗1点行动力" """
    s, _ = play(board(), [{"move": "C5"}])
    assert unit(s, "a")["pos"] == "C5" and unit(s, "a")["move"] == 2


def test_two_legs_turn_once():
    """seed l.31: "比如先向右再向上" (two legs, one turn)"""
    s, _ = play(board(), [{"move": ["E3", "E2"]}])
    assert unit(s, "a")["pos"] == "E2" and unit(s, "a")["move"] == 1 and unit(s, "a")["ap"] == 0


def test_third_leg_refused():
    """seed l.31: "但是如果想要再向左移动的话，此时已经没有了移动次数，无法转向了。" """
    s = board(a={"move": 6})
    s, _ = play(s, [])  # not used: make a fresh check below
    s = board(a={"move": 6})
    assert check(s, [{"move": ["D3", "D2"]}, {"move": "C2"}]) == ["hunlu.skip.no_points@actions.1"]
    assert check(s, [{"move": ["D3", "D2", "C2"]}]) == ["hunlu.skip.third_leg@actions.0.move"]


def test_leg_must_be_straight():
    """seed l.29: "每次选择一个方向（上下左右）并移动一定的格数" """
    assert check(board(), [{"move": "D4"}]) == ["hunlu.skip.leg_not_straight@actions.0.move"]


def test_leg_beyond_move_refused():
    """seed l.29: "每移动1格就需要消耗1点行动力" (a leg longer than the 行动力 left is refused)"""
    assert check(board(), [{"move": "C8"}]) == ["hunlu.skip.leg_too_far@actions.0.move"]


def test_legs_share_move_points():
    """seed l.29: "每移动1格就需要消耗1点行动力" (the second leg pays from what the first left)"""
    assert check(board(), [{"move": ["C6", "F6"]}]) == ["hunlu.skip.leg_too_far@actions.0.move.1"]


def test_leg_through_rock_refused():
    """seed l.125: "II级障碍物：包括所有普通障碍物。阻碍移动与飞行物的通过" """
    s = board(obstacles=[{"pos": "C4", "grade": 2}])
    assert check(s, [{"move": "C5"}]) == ["hunlu.skip.leg_blocked@actions.0.move"]


def test_leg_onto_general_refused():
    """seed l.124: "I级障碍物：包括魂将，死亡魂将，召唤物。阻碍移动与飞行物的通过。" """
    s = board(b={"pos": "C5"})
    assert check(s, [{"move": "C5"}]) == ["hunlu.skip.leg_blocked@actions.0.move"]


def test_leg_through_wall_refused():
    """seed l.128: "IV级障碍物：别名高墙，阻碍移动与飞行物的通过" """
    s = board(obstacles=[{"pos": "D3", "grade": 4}])
    assert check(s, [{"move": "E3"}]) == ["hunlu.skip.leg_blocked@actions.0.move"]


def test_edge_cannot_be_crossed():
    """seed l.13: "其中地图边界无法被跨越。" """
    s = board()
    with pytest.raises(GmError) as e:
        RS.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"move": "C12"}]}, "s.yaml", "en")
    assert e.value.problems[0].code == "cell.bad"


def test_move_into_chasm_removes():
    """seed l.126: "突进或移动经过上面的目标将被立即移出战场" """
    s, ev = play(board(obstacles=[{"pos": "C4", "grade": 3}]), [{"move": "C6"}])
    a = unit(s, "a")
    assert a["pos"] is None and a["chasm"] == "C4" and events(ev, "chasm")


def test_chasm_return_next_round_with_damage():
    """seed l.126: "下回合初选择天堑射程1内一点回归战场，并受到10%最大生命值（向下取整）点伤害。" """
    s, _ = play(board(obstacles=[{"pos": "C4", "grade": 3}]), [{"move": "C6"}])
    s, _ = play(s, [])  # b passes: the round ends, the next starts
    a = unit(s, "a")
    assert a["pos"] == "B3" and a["jing"] == 6.5


def test_chasm_return_standing_choice():
    """seed l.126: "下回合初选择天堑射程1内一点回归战场" (the standing chasm_return picks the point)"""
    s, _ = play(board(obstacles=[{"pos": "C4", "grade": 3}]), [{"move": "C6"}],
                standing={"alice": {"chasm_return": {"a": ["D5"]}}})
    s, _ = play(s, [])
    assert unit(s, "a")["pos"] == "D5"


def test_airborne_ignores_chasm():
    """seed l.127: "腾空状态不受天堑效果的影响。" """
    s, _ = play(board(a={"statuses": [{"name": "腾空", "rounds": 2}]}, obstacles=[{"pos": "C4", "grade": 3}]),
                [{"move": "C5"}])
    assert unit(s, "a")["pos"] == "C5"


def test_rooted_cannot_move():
    """seed l.173: "并定身一回合" (定身: no move, contract H19)"""
    assert check(board(a={"statuses": [{"name": "定身", "rounds": 1}]}), [{"move": "C4"}]) == [
        "hunlu.skip.rooted@actions.0"]


def test_move_then_attack_from_new_point():
    """seed l.61: "每点行动点数都可以在四项之中选择一项执行。" """
    s, _ = play(board(b={"pos": "E7"}), [{"move": "C5"}, {"attack": "b"}], dice=[3])
    assert unit(s, "b")["jing"] == 6


# ---- initiative and the round ----------------------------------------------------------------
def trio(dice):
    return new({"A": {"pos": "B2", "move": 4}, "B": {"pos": "D2", "move": 3}, "C": {"player": "bob", "pos": "F8", "move": 3}},
               dice=dice)


def test_initiative_example():
    """seed l.56-57: "A魂将行动力为4，B魂将行动力为3，C魂将行动力为3...B判定为3点，C判定为4点，则C处于第二位，B处于第三位。" """
    assert trio([3, 4])["order"] == ["A", "C", "B"]


def test_initiative_equal_rolls_roll_again():
    """seed l.55: "双方各判定一次，点数更高者获得更靠前的顺序，若相同则继续判定。" """
    assert trio([4, 4, 2, 5])["order"] == ["A", "C", "B"]


def test_initiative_rolls_are_the_forced_queue():
    """seed l.47: "每当需要判定时，扔一次骰子" (setup's roll-offs take the scenario's forced queue first)"""
    s = trio([5, 1, 6])
    assert s["order"] == ["A", "B", "C"] and s["dice"] == [6]


def test_order_not_resorted_on_odd_round():
    """seed l.58: "A的行动力被减少到了3点，但是由于本回合不是天启回合，顺序没有重新划分，A仍然是第一位。" """
    s = new({"A": {"pos": "B2", "move": 4}, "B": {"pos": "D2", "move": 3}, "C": {"player": "bob", "pos": "F8", "move": 5}},
            dice=[])
    assert s["order"] == ["C", "A", "B"]
    for _ in range(3):
        s, _ = play(s, [])  # round 1 passes; round 2 (天启) re-sorts by 行动力: same
    assert s["round"] == 2 and s["order"] == ["C", "A", "B"]


def test_tianqi_ties_keep_previous_order():
    """seed l.59: "由于A，B，C都为3点行动力，但是A由于原本的行动力顺序高于B和C，所以仍然位于B，C的前面" """
    s = trio([3, 4])
    a = unit(s, "A")
    a["statuses"].append({"name": "x", "rounds": None, "active": True, "source": "gm", "stats": {"move": -1}})
    for _ in range(3):
        s, _ = play(s, [])
    assert s["round"] == 2 and s["order"] == ["A", "C", "B"]


def test_round_ends_after_last_general():
    """seed l.80: "魂将们由第一位开始行动，一直到最后一位的回合结束，一个大回合便宣告结束。" """
    s = board()
    s, _ = play(s, [])
    assert s["round"] == 1 and s["next"]["unit"] == "b"
    s, ev = play(s, [])
    assert s["round"] == 2 and events(ev, "round_end") and s["next"]["unit"] == "a"


def test_points_refresh_each_round():
    """seed l.61: "每名魂将在自己的回合都有2点行动点数（每回合开始阶段刷新）" """
    s, _ = play(board(), [{"move": "C4"}, {"move": "C5"}])
    s, _ = play(s, [])
    assert unit(s, "a")["ap"] == 2 and unit(s, "a")["move"] == 4


def test_qi_regen_bracket_value():
    """seed l.21: "魂将的气属性右边的括号中的数值即为魂将每个回合开始阶段恢复的气数值。" """
    s = board(a={"qi": 5})
    s, _ = play(s, [])
    s, _ = play(s, [])  # round 2 (天启): +1 +1
    s2 = board(a={"qi": 5})
    assert unit(s2, "a")["qi"] == 6  # round 1 regenerates at gm new: 5 + 1
    assert unit(s, "a")["qi"] == 8


def test_tianqi_extra_qi():
    """seed l.21: "在天启回合（双数回合），所有魂将都将额外恢复1点气。" """
    s = board(a={"qi": 2})
    s, _ = play(s, [])
    s, ev = play(s, [])
    assert s["round"] == 2 and unit(s, "a")["qi"] == 5  # 2 +1 (round 1) +2 (round 2)


def test_qi_regen_capped():
    """seed l.21: "恢复的气数值" (never above the maximum)"""
    s = board()
    s, _ = play(s, [])
    s, _ = play(s, [])
    assert unit(s, "a")["qi"] == 10


def test_yuqi_skips_regen():
    """seed l.110: "郁气：期间目标每回合的恢气阶段将直接跳过。" """
    s = board(a={"qi": 5, "statuses": [{"name": "郁气", "rounds": 3}]})
    assert unit(s, "a")["qi"] == 5


def test_status_counts_down_at_round_end():
    """seed l.89: "回合结束阶段：将所有状态持续时间减少1回合" """
    s = board(a={"statuses": [{"name": "沉默", "rounds": 1}]})
    s, _ = play(s, [])
    s, ev = play(s, [])
    assert unit(s, "a")["statuses"] == [] and events(ev, "status_end")


def test_stop_skips_turn():
    """seed l.180: "并停止其行动一回合" (停止行动: the turn is skipped)"""
    s = board(a={"statuses": [{"name": "停止行动", "rounds": 1}]})
    assert s["next"]["unit"] == "b"


def test_sleep_skips_and_restores_shen():
    """seed l.115: "睡眠：每回合末精神力+1，期间停止行动" """
    s = board(a={"shen": 5, "statuses": [{"name": "睡眠", "rounds": 2}]})
    assert s["next"]["unit"] == "b"
    s, _ = play(s, [])
    assert unit(s, "a")["shen"] == 6


def test_sleep_ends_on_damage():
    """seed l.115: "受到伤害立即解除睡眠状态。" """
    s = board(a={"statuses": [{"name": "睡眠", "rounds": 3}]}, b={"pos": "C5"})
    s, _ = play(s, [{"attack": "a"}], dice=[3])
    assert unit(s, "a")["statuses"] == [] and s["next"]["unit"] == "a"


def test_silence_bars_skills():
    """seed l.112: "沉默：无法主动释放技能。" """
    sk = {"zap": {"name": "电", "qi": 1, "shape": "single", "effects": [{"strike": 1}]}}
    gens = {"zapper": {"name": "电人", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["zap"]}}
    s = board(a={"general": "zapper", "statuses": [{"name": "沉默", "rounds": 1}]}, b={"pos": "C5"}, generals=gens, skills=sk)
    assert check(s, [{"skill": "zap", "target": "b"}]) == ["hunlu.skip.silenced@actions.0.skill"]


def test_charging_bars_other_skills():
    """seed l.116: "蓄力期间，无法释放其他技能。" """
    sk = {"zap": {"name": "电", "qi": 1, "shape": "single", "effects": [{"strike": 1}]}}
    gens = {"zapper": {"name": "电人", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["zap"]}}
    s = board(a={"general": "zapper", "statuses": [{"name": "蓄力", "rounds": 1}]}, b={"pos": "C5"}, generals=gens, skills=sk)
    assert check(s, [{"skill": "zap", "target": "b"}]) == ["hunlu.skip.charging@actions.0.skill"]


def test_charging_not_stopped():
    """seed l.116: "蓄力：蓄力期间不会被停止行动" (a 蓄力 general still takes its turn)"""
    s = board(a={"statuses": [{"name": "蓄力", "rounds": 1}]})
    assert s["next"]["unit"] == "a"


def test_disarmed_cannot_attack():
    """seed l.114: "缴械：无法主动普通攻击与联合攻击。" """
    s = board(a={"statuses": [{"name": "缴械", "rounds": 1}]}, b={"pos": "C5"})
    assert check(s, [{"attack": "b"}]) == ["hunlu.skip.disarmed@actions.0"]


# ---- 神 and 寂灭 ------------------------------------------------------------------------------
SILENCER = {"mute": {"name": "封口", "qi": 1, "shape": "single", "range": 3, "effects": [{"status": {"name": "沉默", "rounds": 1}}]}}
SGEN = {"muter": {"name": "封口人", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["mute"]}}


def test_negative_status_costs_shen():
    """seed l.22: "每次受到附带负面状态的打击时，都会减少1点神。" """
    s = board(a={"general": "muter"}, b={"pos": "C5"}, generals=SGEN, skills=SILENCER)
    s, _ = play(s, [{"skill": "mute", "target": "b"}])
    assert unit(s, "b")["shen"] == 7


def test_shen_loss_once_a_round():
    """seed l.22: "（每回合限一次）" """
    s = board(a={"general": "muter"}, b={"pos": "C5"}, generals=SGEN, skills=SILENCER)
    s, _ = play(s, [{"skill": "mute", "target": "b"}, {"skill": "mute", "target": "b"}])
    assert unit(s, "b")["shen"] == 7


def test_status_waits_a_round():
    """seed l.131: "所有的状态效果均从释放技能/技能生效的下回合初开始生效，并计算回合数。" """
    s = board(a={"general": "muter"}, b={"pos": "C5"}, generals=SGEN, skills=SILENCER)
    s, _ = play(s, [{"skill": "mute", "target": "b"}])
    st = unit(s, "b")["statuses"]
    assert [(x["name"], x["active"]) for x in st] == [("沉默", False)]


def test_status_active_next_round_for_its_rounds():
    """seed l.132: "这个暴击效果要从下回合开始生效，并且下回合是三回合的第一回合。" """
    s = board(a={"general": "muter"}, b={"pos": "C5"}, generals=SGEN, skills=SILENCER)
    s, _ = play(s, [{"skill": "mute", "target": "b"}])
    s, _ = play(s, [])
    st = unit(s, "b")["statuses"]
    assert [(x["name"], x["active"], x["rounds"]) for x in st] == [("沉默", True, 1)]
    s, _ = play(s, [])
    s, _ = play(s, [])
    assert unit(s, "b")["statuses"] == []


def test_qi_loss_is_immediate():
    """seed l.133: "但若是A受到了减少1点气的技能特效，这个效果会立即生效。" """
    sk = {"drain": {"name": "吸气", "qi": 1, "shape": "single", "effects": [{"qi": -1}]}}
    gens = {"drainer": {"name": "吸气人", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["drain"]}}
    s = board(a={"general": "drainer"}, b={"pos": "C5"}, generals=gens, skills=sk)
    s, _ = play(s, [{"skill": "drain", "target": "b"}])
    assert unit(s, "b")["qi"] == 9


def test_shen_zero_is_jimie():
    """seed l.23: "当A魂将精神力为0时，可以理解为进入了【寂灭】状态，永久停止行动" """
    s = board(a={"general": "muter"}, b={"pos": "C5", "shen": 1}, generals=SGEN, skills=SILENCER)
    s, _ = play(s, [{"skill": "mute", "target": "b"}])
    b = unit(s, "b")
    assert b["shen"] == 0 and any(x["name"] == "寂灭" and x["rounds"] is None for x in b["statuses"])
    assert b["alive"] and s["next"]["unit"] == "a"  # b's turn is skipped; round 2 starts with a


def test_jimie_cannot_act():
    """seed l.22: "当神为0时，魂将无法主动行动。" """
    s = board(a={"statuses": [{"name": "寂灭", "rounds": None}]})
    assert s["next"]["unit"] == "b"


# ---- death, substitution, victory ----------------------------------------------------------
def test_death_at_zero_jing():
    """seed l.20: "精：即魂将的生命值，当精为0时，魂将死亡。" """
    s, ev = play(board(b={"pos": "C5", "jing": 1}, ), [{"attack": "b"}], dice=[3])
    assert not unit(s, "b")["alive"] and events(ev, "death")


def test_victory_when_all_dead():
    """seed l.6: "当其中一方的魂将全部死亡时，即宣告游戏结束。" """
    s, _ = play(board(b={"pos": "C5", "jing": 1}), [{"attack": "b"}], dice=[3])
    assert s["winner"] == "red" and s["next"] is None and RS.due(s) == []


def test_reserve_replaces_the_dead_next_round():
    """seed l.69: "死亡魂将需要立即选择一名副将，并立即进入【替换】状态。（期间自己仍然为I级障碍）" """
    s = new({"a": A, "b": {**B, "pos": "C5", "jing": 1}, "r": {"player": "bob", "role": "reserve"}})
    s, ev = play(s, [{"attack": "b"}], dice=[3])
    assert events(ev, "reserve_chosen")[0]["reserve"] == "r"
    # b's body cannot act: the round ends and the reserve enters on the body's point
    b, r = unit(s, "b"), unit(s, "r")
    assert s["round"] == 2 and r["pos"] == "C5" and b["pos"] is None and b["role"] == "dead"


def test_reserve_takes_place_and_order():
    """seed l.68: "对方将接替自己的位置，行动顺序" """
    s = new({"a": A, "b": {**B, "pos": "C5", "jing": 1, "move": 5}, "r": {"player": "bob", "role": "reserve", "move": 5}})
    s, _ = play(s, [])  # b passes
    s, _ = play(s, [{"attack": "b"}], dice=[3])  # a kills b; the round ends
    assert s["round"] == 2 and unit(s, "r")["pos"] == "C5" and s["order"][0] == "r"


def test_no_reserve_body_stays_and_leaves_order():
    """seed l.70: "当场下没有可替换的魂将时，该魂将则视为死亡，但仍视为I级障碍。" """
    s = new({"a": A, "b": {**B, "pos": "C5", "jing": 1}, "c": {"player": "bob", "pos": "H8"}})
    s, _ = play(s, [{"attack": "b"}], dice=[3])
    assert unit(s, "b")["pos"] == "C5" and "b" not in s["order"]
    s = pass_until(s, "a")
    assert check(s, [{"move": "C6"}]) == ["hunlu.skip.leg_blocked@actions.0.move"]


def test_reserve_order_standing():
    """seed l.69: "死亡魂将需要立即选择一名副将" (the standing reserve_order chooses)"""
    s = new({"a": A, "b": {**B, "pos": "C5", "jing": 1}, "r1": {"player": "bob", "role": "reserve"},
             "r2": {"player": "bob", "role": "reserve"}})
    s, _ = play(s, [{"attack": "b"}], dice=[3], standing={"bob": {"reserve_order": ["r2"]}})
    assert unit(s, "b")["replaced_by"] == "r2"


def test_substitution_costs_two_points_alone():
    """seed l.68: "每名魂将都可以选择消耗2点行动点数来进入【替换】状态" """
    s = new({"a": A, "r": {"role": "reserve"}, "b": B})
    assert check(s, [{"move": "C4"}, {"substitute": "r"}]) == ["hunlu.skip.substitute_not_alone@actions.1.substitute"]
    s, ev = play(s, [{"substitute": "r"}])
    assert unit(s, "a")["leaving"] == "r" and unit(s, "a")["ap"] == 0


def test_substitution_next_round_clears_statuses():
    """seed l.68: "下回合的回合开始阶段，自己将被一名所指定的副将（副位魂将）替换...并且自己在下场的时候将清空身上的全部状态。" """
    s = new({"a": {**A, "statuses": [{"name": "郁气", "rounds": 5}]}, "r": {"role": "reserve"}, "b": B})
    s, _ = play(s, [{"substitute": "r"}])
    s, _ = play(s, [])
    a, r = unit(s, "a"), unit(s, "r")
    assert (a["role"], a["pos"], a["statuses"]) == ("reserve", None, []) and r["pos"] == "C3" and s["order"][0] == "r"


def test_jimie_cannot_substitute():
    """seed l.24: "由于A无法行动，所以也无法将A主动替换下战场，从而让副将助战。" """
    s = new({"a": {**A, "statuses": [{"name": "寂灭", "rounds": None}]}, "r": {"role": "reserve"}, "b": B})
    assert s["next"]["unit"] == "b" and RS.due(s) == ["bob"]


def test_bench_keeps_values():
    """seed l.68: "自己在下场的时候将清空身上的全部状态" (精/气/神 stay; the bench regains no 气, ruling R7)"""
    s = new({"a": {**A, "qi": 3}, "r": {"role": "reserve", "qi": 4}, "b": B})
    s, _ = play(s, [{"substitute": "r"}])
    s, _ = play(s, [])
    assert unit(s, "a")["qi"] == 4  # 3 + regen 1 at round 1 start; no regen on the bench
    assert unit(s, "r")["qi"] == 6  # 4 on the bench in round 1; enters in round 2 (天启): +1 +1


# ---- dice sources ----------------------------------------------------------------------------
def test_dice_file_then_queue_then_seed():
    """seed l.47: "每当需要判定时，扔一次骰子，上面显示的数值即为判定结果。" (contract section 4 order)"""
    s = board(b={"pos": "C5"}, dice=[])
    s["dice"] = [6]
    _, ev = play(s, [{"attack": "b"}, {"attack": "b"}], dice=[2])
    assert [e["source"] for e in events(ev, "roll")] == ["file", "queue"]
    s["dice"] = []
    _, ev = play(s, [{"attack": "b"}], dice=[])
    assert [e["source"] for e in events(ev, "roll")] == ["seed"]


def test_dice_file_bad_face_refused():
    """seed l.47: "扔一次骰子" (a d6: faces 1-6 only)"""
    s = board(b={"pos": "C5"})
    o = RS.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"attack": "b"}]}, "a.yaml", "en")
    with pytest.raises(GmError) as e:
        RS.resolve(s, {"alice": o}, "x", [3, 9])
    assert (e.value.problems[0].file, e.value.problems[0].field) == ("_dice.yaml", "dice.1")


def test_dice_file_non_integer_refused():
    """seed l.47: "上面显示的数值即为判定结果" (a face is an integer)"""
    s = board(b={"pos": "C5"})
    with pytest.raises(GmError) as e:
        RS.resolve(s, {}, "x", [2.5])
    assert e.value.problems[0].field == "dice.0"


def test_unused_file_dice_dropped():
    """seed l.47: "每当需要判定时，扔一次骰子" (dice no check used are dropped with a warning)"""
    s, ev = play(board(), [], dice=[4, 4])
    assert events(ev, "dice_unused")[0]["dice"] == [4, 4] and s["dice"] == []


def test_replay_identical():
    """seed l.47: "扔一次骰子" (the seeded generator: the same inputs give the same turn)"""
    s = board(b={"pos": "C5"})
    a1, e1 = play(s, [{"attack": "b"}, {"attack": "b"}])
    a2, e2 = play(s, [{"attack": "b"}, {"attack": "b"}])
    assert a1 == a2 and e1 == e2


# ---- spawns ----------------------------------------------------------------------------------
def test_spawns_in_initiative_order_never_twice():
    """seed l.78: "根据行动力划分顺序的先后来选择出生点，每名魂将选择一个出生点，不可重复。" """
    s = new({"slow": {"move": 2, "spawn": ["B2"]}, "fast": {"move": 5, "spawn": ["B2"]},
             "b": {"player": "bob", "move": 1}}, spawns=["B2", "H8", "E5"])
    assert (unit(s, "fast")["pos"], unit(s, "slow")["pos"], unit(s, "b")["pos"]) == ("B2", "H8", "E5")


def test_reserve_claimed_by_substitution_not_taken_twice():
    """seed l.68-69: "自己将被一名所指定的副将...替换" / "死亡魂将需要立即选择一名副将" (one reserve, one place)"""
    s = new({"a": {**A, "move": 5}, "c": {"pos": "D3", "jing": 1, "move": 1}, "r1": {"role": "reserve"},
             "r2": {"role": "reserve"}, "b": {**B, "pos": "D5", "move": 4}})
    s, _ = play(s, [{"substitute": "r1"}])
    s, _ = play(s, [{"attack": "c"}], dice=[3])
    assert unit(s, "c")["replaced_by"] == "r2"


def test_dying_while_substituted_keeps_the_chosen_reserve():
    """seed l.68: "下回合的回合开始阶段，自己将被一名所指定的副将（副位魂将）替换" """
    s = new({"a": {**A, "jing": 1, "move": 5}, "r1": {"role": "reserve"}, "r2": {"role": "reserve"},
             "b": {**B, "pos": "C5", "move": 4}})
    s, _ = play(s, [{"substitute": "r2"}])
    s, _ = play(s, [{"attack": "a"}], dice=[3])
    assert not unit(s, "a")["alive"] and unit(s, "r2")["pos"] == "C3" and unit(s, "r1")["pos"] is None


def test_static_passive_holds_on_entry():
    """seed l.188: "被动·折弓破戟：自己不会被神低于自己的目标触发弱点，暴击。" (a reserve entering keeps its static passive)"""
    s = new({"a": A, "p": {"general": "pozhenzi", "role": "reserve"}, "b": B})
    s, _ = play(s, [{"substitute": "p"}])
    s, _ = play(s, [])
    assert unit(s, "p")["role"] == "main" and [x["name"] for x in unit(s, "p")["statuses"]] == ["折弓破戟"]
