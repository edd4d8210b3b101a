"""Rule cases: moving, reactions to moves (借机攻击, 措手不及, 致命夹击), rocks, walls, fortresses."""

from tests.guangying.kit import board, hp, of, pos, refusals, sq, turn


def test_orthogonal_steps_only():
    """seed l.45: "身位格：上下左右一个格子，算作一个身位格，每次移动一个格子，算作消耗一点移动力。" """
    s = board(sq("alice", "C5", "w1:战士"))
    assert refusals(s, {"move": "w1", "path": ["D6"]}) == [("actions[0].path[0]", "path.step")]


def test_move_costs_one_a_cell_up_to_move():
    """seed l.43: "移动：每个行动力可以转化的移动身位格数量。" (战士 移动 3)"""
    s = board(sq("alice", "C5", "w1:战士"))
    assert refusals(s, {"move": "w1", "path": ["C6", "C7", "C8", "C9"]}) == [("actions[0].path", "path.cost")]
    after, _ = turn(s, {"move": "w1", "path": ["C6", "C7", "C8"]})
    assert pos(after, "w1") == "C8"


def test_two_moves_use_both_chances():
    """seed l.40: "每个小队每回合开始获得2个行动机会，可以用于：移动（1）攻击（1）发动能力（2）" """
    s = board(sq("alice", "C5", "w1:战士"))
    after, _ = turn(s, {"move": "w1", "path": ["C6", "C7", "C8"]}, {"move": "w1", "path": ["C9", "D9"]})
    assert pos(after, "w1") == "D9"
    assert refusals(s, {"move": "w1", "path": ["C6"]}, {"move": "w1", "path": ["C7"]},
                    {"move": "w1", "path": ["C8"]}) == [("actions[2].move", "chances")]


def test_path_may_start_with_the_squads_own_cell():
    """seed l.45: "每次移动一个格子，算作消耗一点移动力。" (the start cell costs nothing)"""
    s = board(sq("alice", "C5", "w1:战士"))
    after, _ = turn(s, {"move": "w1", "path": ["C5", "C6", "C7", "C8"]})
    assert pos(after, "w1") == "C8"


def test_squad_moves_at_its_slowest_member():
    """seed l.47: "小队移动时，可移动单位各数量，按照小队最低移动力者计算。" """
    s = board(sq("alice", "C5", "r1:巡林客", "p1:圣武士"))
    assert refusals(s, {"move": "r1", "path": ["C6", "C7"]}) == [("actions[0].path", "path.cost")]
    assert refusals(s, {"move": "r1", "path": ["C6"]}) == []


def test_warrior_leader_moves_at_the_average():
    """seed l.29: "战士带队，队伍会以平均移动能力，进行移动。" (3 and 1: 2)"""
    s = board(sq("alice", "C5", "w1:战士", "p1:圣武士"))
    after, _ = turn(s, {"move": "w1", "path": ["C6", "C7"]})
    assert pos(after, "p1") == "C7"
    assert refusals(s, {"move": "w1", "path": ["C6", "C7", "C8"]}) == [("actions[0].path", "path.cost")]


def test_average_move_rounds_down():
    """seed l.19: "所有涉及小数点的地方，都向下取整。" (战士 3 + 巡林客 4 + 圣武士 1 = 8/3 = 2)"""
    s = board(sq("alice", "C5", "w1:战士", "r1:巡林客", "p1:圣武士"))
    assert refusals(s, {"move": "w1", "path": ["C6", "C7"]}) == []
    assert refusals(s, {"move": "w1", "path": ["C6", "C7", "C8"]}) == [("actions[0].path", "path.cost")]


def test_opportunity_attack_at_half_power():
    """seed l.55: "暴露在敌方的直接攻击范围内的人，选择移动出攻击范围的话，会被强制半额攻击一次" (战士 4 -> 2)"""
    s = board(sq("alice", "C5", "r1:巡林客"), sq("bob", "C6", "w9:战士"))
    after, events = turn(s, {"move": "r1", "path": ["B5", "A5"]})
    assert hp(after, "r1") == 18
    assert [e["kind"] for e in of(events, "reaction")] == ["opportunity"]


def test_opportunity_attack_halved_rounds_down():
    """seed l.19: "所有涉及小数点的地方，都向下取整。" (巡林客 3 -> 1)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客"))
    after, _ = turn(s, {"move": "w1", "path": ["B5"]})
    assert hp(after, "w1") == 27


def test_rogue_opportunity_attack_is_not_halved():
    """seed l.32: "措手不及，造成双倍伤害，借机攻击不受伤害惩罚。" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "g9:游荡者"))
    after, _ = turn(s, {"move": "w1", "path": ["B5"]})
    assert hp(after, "w1") == 23


def test_each_adjacent_enemy_takes_its_opportunity():
    """seed l.55: "如果被多队伍包围，如果选择攻击其中一个队伍，则其他队伍可借机攻击你。" (G17: each one's leader, as it leaves)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "w8:战士"), sq("bob", "D5", "w9:战士"))
    after, events = turn(s, {"move": "w1", "path": ["B5"]})
    assert hp(after, "w1") == 24
    assert [e["squad"] for e in of(events, "reaction")] == ["bob-s3", "bob-s2"]  # board order: D5 (row 5) before C6


def test_ambush_when_passing_an_enemy():
    """seed l.38: "如果从敌人身周1身位格经过，会被强制受到敌人带队者的瞬间普通攻击。" """
    s = board(sq("alice", "C3", "w1:战士"), sq("bob", "D5", "r9:巡林客"))
    after, events = turn(s, {"move": "w1", "path": ["C4", "C5", "C6"]})
    assert hp(after, "w1") == 25
    assert [e["kind"] for e in of(events, "reaction")] == ["ambush"]


def test_no_ambush_when_stopping_next_to_an_enemy():
    """seed l.38: "（在措手不及范围内停止移动，不算做措手不及。）" """
    s = board(sq("alice", "C3", "w1:战士"), sq("bob", "D5", "r9:巡林客"))
    after, events = turn(s, {"move": "w1", "path": ["C4", "C5"]})
    assert hp(after, "w1") == 28 and not of(events, "reaction")


def test_diagonal_enemy_is_not_within_reach():
    """seed l.45: "上下左右一个格子，算作一个身位格" (a diagonal cell is 2 away: no ambush)"""
    s = board(sq("alice", "C3", "w1:战士"), sq("bob", "D5", "r9:巡林客"))
    after, events = turn(s, {"move": "w1", "path": ["C4", "B4", "B5"]})
    assert hp(after, "w1") == 28


def test_rogue_ambush_doubles():
    """seed l.32: "措手不及，造成双倍伤害" """
    s = board(sq("alice", "C3", "w1:战士"), sq("bob", "D5", "g9:游荡者"))
    after, _ = turn(s, {"move": "w1", "path": ["C4", "C5", "C6"]})
    assert hp(after, "w1") == 18


def test_one_enemy_ambushes_once_a_move():
    """seed l.38: "如果从敌人身周1身位格经过，会被强制受到敌人带队者的瞬间普通攻击。" (ruling R10: once per move)"""
    s = board(sq("alice", "D3", "g1:游荡者"), sq("bob", "D5", "r9:巡林客"))
    after, events = turn(s, {"move": "g1", "path": ["D4", "C4", "C5", "C6", "C7"]})
    assert hp(after, "g1") == 17
    assert len(of(events, "reaction")) == 1


def test_deadly_pincer_stops_the_move():
    """seed l.56: "致命夹击：如果能被两个队伍同时措手不及，则会被强制停留在原地。" """
    s = board(sq("alice", "C3", "w1:战士"), sq("bob", "B5", "r8:巡林客"), sq("bob", "D5", "r9:巡林客"))
    after, events = turn(s, {"move": "w1", "path": ["C4", "C5", "C6"]})
    assert pos(after, "w1") == "C5"
    assert hp(after, "w1") == 22  # ruling R11: both strike, then the stop
    assert of(events, "pincer")[0]["by"] == ["bob-s2", "bob-s3"]


def test_pincer_stop_skips_the_rest_of_the_path_only():
    """seed l.56: "则会被强制停留在原地。" (the squad's later move starts there: 'gm check' assumed C6)"""
    s = board(sq("alice", "C3", "w1:战士"), sq("bob", "B5", "r8:巡林客"), sq("bob", "D5", "r9:巡林客"))
    after, events = turn(s, {"move": "w1", "path": ["C4", "C5", "C6"]}, {"move": "w1", "path": ["C7"]})
    assert pos(after, "w1") == "C5"
    assert of(events, "action_skipped")[0]["reason"] == "path.step"


def test_rock_costs_two_and_cannot_be_stopped_on():
    """seed l.36: "岩：任何人无法在岩的格子中停留，翻越需要两点移动力（再加上移动到岩后面格子的移动力，加一起一共要三点。）" """
    s = board(sq("alice", "C3", "w1:战士", id="s1"), sq("alice", "A1", "p1:牧师"),
              markers=[{"id": "k1", "kind": "岩", "owner": "alice", "cells": ["C4"], "by": "p1"}])
    after, _ = turn(s, {"move": "s1", "path": ["C4", "C5"]})
    assert pos(after, "w1") == "C5"
    assert refusals(s, {"move": "s1", "path": ["C4"]}) == [("actions[0].path", "path.end_rock")]


def test_rock_too_costly_to_cross():
    """seed l.36: "移动力不足则无法翻越。" """
    s = board(sq("alice", "C3", "p9:圣武士", id="s1"), sq("alice", "A1", "p1:牧师"),
              markers=[{"id": "k1", "kind": "岩", "owner": "alice", "cells": ["C4"], "by": "p1"}])
    assert refusals(s, {"move": "s1", "path": ["C4", "C5"]}) == [("actions[0].path", "path.cost")]


def test_enemy_wind_wall_costs_one_more():
    """seed l.35: "敌人进入地方风墙需要额外支付一点移动力" (§8: 地方 read 敌方)"""
    s = board(sq("alice", "C3", "w1:战士"),
              markers=[{"id": "wl", "kind": "风墙", "owner": "bob", "cells": ["C4", "C5", "C6"]}])
    assert refusals(s, {"move": "w1", "path": ["C4", "C5"]}) == [("actions[0].path", "path.cost")]
    assert refusals(s, {"move": "w1", "path": ["B3", "B4", "B5"]}) == []


def test_own_wind_wall_costs_nothing_extra():
    """seed l.35: "敌人进入地方风墙需要额外支付一点移动力" (only enemies pay)"""
    s = board(sq("alice", "C3", "w1:战士"),
              markers=[{"id": "wl", "kind": "风墙", "owner": "alice", "cells": ["C4", "C5", "C6"]}])
    after, _ = turn(s, {"move": "w1", "path": ["C4", "C5", "C6"]})
    assert pos(after, "w1") == "C6"


def test_wind_wall_hurts_who_stands_in_it():
    """seed l.35: "任何人在风墙中停留，每回合会依人数没人损失2点生命力" (G7: at its owner's turn start)"""
    s = board(sq("alice", "C5", "w1:战士", "r1:巡林客"),
              markers=[{"id": "wl", "kind": "风墙", "owner": "alice", "cells": ["C5"]}])
    after, _ = turn(s)
    assert (hp(after, "w1"), hp(after, "r1")) == (26, 18)


def test_fortress_is_never_entered():
    """seed l.4: "放置一个占地四个格子的要塞。" (G2: never entered)"""
    s = board(sq("alice", "D2", "w1:战士"))
    assert refusals(s, {"move": "w1", "path": ["E2"]}) == [("actions[0].path[0]", "path.fortress")]


def test_enemy_cell_is_never_entered():
    """seed l.51: "两枚战斗棋子处在同一各自内，算作组队" (an enemy's cell is not one's squad: G15)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "w9:战士"))
    assert refusals(s, {"move": "w1", "path": ["C6", "C7"]}) == [("actions[0].path[0]", "path.enemy")]


def test_passing_through_an_own_squad():
    """seed l.51: "两枚战斗棋子处在同一各自内，算作组队" (ruling R8: a move may pass an own squad's cell)"""
    s = board(sq("alice", "C4", "w1:战士"), sq("alice", "C5", "w2:战士"))
    after, _ = turn(s, {"move": "w1", "path": ["C5", "C6"]})
    assert pos(after, "w1") == "C6" and pos(after, "w2") == "C5"


def test_no_stop_in_a_mage_cell():
    """seed l.51: "因为法师、诗人无法组队，所以任何棋子无法再他们的格子内停留。" """
    s = board(sq("alice", "C4", "w1:战士"), sq("alice", "C5", "m1:法师"))
    assert refusals(s, {"move": "w1", "path": ["C5"]}) == [("actions[0].path", "path.end_alone")]
    assert refusals(s, {"move": "w1", "path": ["C5", "C6"]}) == []


def test_mover_killed_on_the_way():
    """seed l.41: "生命：每个棋子的生命力，归零的话，棋子死亡无法复活。" (a later action of the dead squad is skipped)"""
    s = board(sq("alice", "C3", "r1:巡林客:3"), sq("bob", "D5", "g9:游荡者"))
    after, events = turn(s, {"move": "r1", "path": ["C4", "C5", "C6"]}, {"move": "r1", "path": ["C7"]})
    assert hp(after, "r1") is None
    assert of(events, "action_skipped")[0]["reason"] == "gone.dead"
    assert of(events, "move")[0]["stop"] == "lost"


def test_mover_fights_on_after_its_leader_dies():
    """seed l.54: "如果队长死亡，其他棋子，可以选择继续战斗或者直接回手。如果继续战斗，者放在其下面的棋子，可以顺位成为队长。" (ruling R12: the rest walk on)"""
    s = board(sq("alice", "C3", "w1:战士:3", "w2:战士"), sq("bob", "D5", "g9:游荡者"))
    after, _ = turn(s, {"move": "w1", "path": ["C4", "C5", "C6"]})
    assert pos(after, "w2") == "C6"
    assert hp(after, "w1") is None
