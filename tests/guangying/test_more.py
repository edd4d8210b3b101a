"""More rule cases: combinations of the rules above."""

from tests.guangying.kit import board, dead, hp, of, passes, player, pos, refusals, sq, squad, turn


def test_fireball_on_a_defending_squad():
    """seed l.58: "收到的所有伤害减半，同时会被全队，不会被伤害致死的人员承担。" (10 halved to 5, shared 2 each, 1 resisted)"""
    s = board(sq("alice", "C3", "s1:术士"), sq("bob", "C6", "w9:战士", "r9:巡林客"), first="bob")
    s, _ = turn(s, {"defend": "w9"})
    after, _ = turn(s, {"ability": "火球", "by": "s1", "target": "w9"})
    assert (hp(after, "w9"), hp(after, "r9")) == (26, 18)


def test_portal_summon_onto_a_squad_keeps_its_chances():
    """seed l.34: "可以让棋子直接从法师四周1身位格内入场，并没有召唤惩罚。" """
    s = board(sq("alice", "C5", "m1:法师"), sq("alice", "C6", "w1:战士"))
    after, _ = turn(s, {"ability": "开启传送阵", "by": "m1"}, {"summon": "巡林客", "at": "C6", "id": "r1"},
                    {"move": "r1", "path": ["C7"]})
    assert squad(after, "r1")["members"] == ["r1", "w1"] and pos(after, "w1") == "C7"


def test_fled_piece_returns_after_five_own_turns():
    """seed l.48: "逃跑：因队长死亡而回手的棋子，五回合内无法再次上场。" (from bob's turn 12 on)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("alice", "B1", "r1:巡林客"), sq("bob", "C6", "r9:巡林客:2", "w9:战士"),
              sq("bob", "A12", "g9:游荡者"), sq("bob", "J12", "pa9:圣武士"), standing={"bob": {"leader_dies": "return"}})
    s, _ = turn(s, {"attack": "w1", "target": "r9"})
    while s["turn"] < 11:
        s, _ = passes(s)
    assert s["next"] == "bob" and s["turn"] == 11
    after, _ = turn(s, {"summon": "w9", "at": "B11"})
    assert pos(after, "w9") == "B11" and hp(after, "w9") == 28


def test_suicide_of_a_leader_lets_members_flee():
    """seed l.48: "因队长死亡而回手的棋子" and l.17: "棋子可以在任何时间，任何地点，选择自杀。" """
    s = board(sq("alice", "C5", "w1:战士", "r1:巡林客"), standing={"alice": {"leader_dies": "return"}})
    after, _ = turn(s, {"suicide": "w1"})
    assert dead(after, "w1")
    assert player(after, "alice")["in_hand"][0]["id"] == "r1"


def test_summoned_rogue_beyond_home_is_ambushed():
    """seed l.32: "可以直接在本阵外一行进行召唤" with l.50: "如果棋子召唤的地点，有敌人可以攻击到，算作这枚棋子被措手不及" """
    s = board(sq("bob", "C5", "w9:战士"))
    after, events = turn(s, {"summon": "游荡者", "at": "C4", "id": "g1"})
    assert hp(after, "g1") == 16 and of(events, "reaction")[0]["kind"] == "ambush"


def test_summoned_full_hp_piece_killed_in_own_turn_dies():
    """seed l.62: "如果在自己的回合内，自己的满血棋子，因为借机或措手不及而被杀，则会受到必杀攻击，不会发动不屈意志。" """
    s = board(sq("bob", "C4", "g9:游荡者"))
    after, _ = turn(s, {"summon": "法师", "at": "C3", "id": "m1"})  # 10 HP, 措手不及 of a rogue: 10
    assert dead(after, "m1")


def test_heal_never_passes_max():
    """seed l.27: "战力可用于治疗一个身位格或斜方两个身位格的友军。" (G7: healing never passes max HP)"""
    s = board(sq("alice", "C5", "p1:牧师"), sq("alice", "C6", "w1:战士:27"))
    after, _ = turn(s, {"ability": "治疗", "by": "p1", "target": "w1"})
    assert hp(after, "w1") == 28


def test_wall_damage_can_kill_without_unyielding():
    """seed l.35: "任何人在风墙中停留，每回合会依人数没人损失2点生命力" (not an enemy: no 不屈意志)"""
    s = board(sq("alice", "C5", "w1:战士:2", "r1:巡林客"),
              markers=[{"id": "wl", "kind": "风墙", "owner": "bob", "cells": ["C5"]}])
    after, _ = passes(s)
    assert dead(after, "w1") and hp(after, "r1") == 18


def test_beast_keeps_its_form_in_hand():
    """seed l.28: "变身野兽：增加20生命和2战力，无法再次变换回来。" """
    s = board(sq("alice", "C2", "u1:德鲁伊"))
    s, _ = turn(s, {"ability": "变身野兽", "by": "u1"}, {"return": "u1"})
    hand = player(s, "alice")["in_hand"][0]
    assert (hand["max_hp"], hand["power"], hand["beast"]) == (36, 7, True)


def test_members_move_with_their_squad():
    """seed l.51: "两枚战斗棋子处在同一各自内，算作组队" (a squad is one cell)"""
    s = board(sq("alice", "C5", "w1:战士", "r1:巡林客", "g1:游荡者"))
    after, _ = turn(s, {"move": "w1", "path": ["C6", "C7", "C8", "C9"]})
    assert {p["pos"] for p in after["pieces"]} == {"C9"}


def test_second_player_extra_turn_not_given_twice():
    """seed l.23: "后手在先手赢得比赛后，可以再行动一次" (the game ends after that one turn)"""
    s = board(sq("alice", "D11", "w1:战士"), fortress_hp={"bob": 4})
    s, _ = turn(s, {"attack": "w1", "target": "fortress"})
    after, _ = passes(s)
    assert after["next"] is None and after["winner"] == "alice"
    assert refusals(after, player="bob")  # nobody is due any more
