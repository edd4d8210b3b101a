"""Rule cases: attacks, 全力攻击, 防御, damage, deaths, 不屈意志 and 必杀攻击, leaders and members."""

from tests.guangying.kit import board, dead, force, hp, of, player, pos, refusals, sq, squad, turn


def test_attack_hits_the_leader_with_its_power():
    """seed l.42: "战力：攻击力，攻击敌人所能造成的伤害。" and l.54: "队长：承受伤害" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客", "p9:圣武士"))
    after, _ = turn(s, {"attack": "w1", "target": "r9"})
    assert (hp(after, "r9"), hp(after, "p9")) == (16, 36)


def test_attack_reaches_one_cell():
    """seed l.55: "暴露在敌方的直接攻击范围内的人" (G7 of the contract: attacks reach 1)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C7", "r9:巡林客"))
    assert refusals(s, {"attack": "w1", "target": "r9"}) == [("actions[0].target", "target.out_of_reach")]


def test_diagonal_is_out_of_reach():
    """seed l.45: "上下左右一个格子，算作一个身位格" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "D6", "r9:巡林客"))
    assert refusals(s, {"attack": "w1", "target": "r9"}) == [("actions[0].target", "target.out_of_reach")]


def test_own_squad_is_no_target():
    """seed l.42: "战力：攻击力，攻击敌人所能造成的伤害。" """
    s = board(sq("alice", "C5", "w1:战士"), sq("alice", "C6", "r1:巡林客"))
    assert refusals(s, {"attack": "w1", "target": "r1"}) == [("actions[0].target", "target.unknown")]


def test_second_attack_is_refused():
    """seed l.57: "一回合内，两次行动力都进行攻击命令的话，着转化为全力攻击" (G14: write full_attack)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客"))
    assert refusals(s, {"attack": "w1", "target": "r9"}, {"attack": "w1", "target": "r9"}) == \
        [("actions[1].attack", "attack.twice")]


def test_attack_then_move():
    """seed l.40: "移动（1）攻击（1）" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客"))
    after, _ = turn(s, {"attack": "w1", "target": "r9"}, {"move": "w1", "path": ["B5"]})
    assert pos(after, "w1") == "B5"
    assert hp(after, "w1") == 27  # 借机 of the ranger: 3 // 2


def test_full_attack_doubles_and_pushes():
    """seed l.57: "造成两倍伤害的同时，会将对方震退1个身位格" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客"))
    after, events = turn(s, {"full_attack": "w1", "target": "r9"})
    assert hp(after, "r9") == 12
    assert pos(after, "r9") == "C7"
    assert of(events, "push")[0]["dest"] == "C7"


def test_full_attack_needs_both_chances():
    """seed l.57: "一回合内，两次行动力都进行攻击命令的话" """
    s = board(sq("alice", "C4", "w1:战士"), sq("bob", "C6", "r9:巡林客"))
    assert refusals(s, {"move": "w1", "path": ["C5"]}, {"full_attack": "w1", "target": "r9"}) == \
        [("actions[1].full_attack", "chances")]


def test_no_push_off_the_board():
    """seed l.57: "如果其处于棋盘边缘，或身后有岩的话，则不被震退。" """
    s = board(sq("alice", "C11", "w1:战士"), sq("bob", "C12", "r9:巡林客"))
    after, events = turn(s, {"full_attack": "w1", "target": "r9"})
    assert pos(after, "r9") == "C12"
    assert of(events, "push_blocked")[0]["why"] == "edge"


def test_no_push_into_a_rock():
    """seed l.57: "或身后有岩的话，则不被震退。" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客"), sq("bob", "A10", "p9:牧师"),
              markers=[{"id": "k9", "kind": "岩", "owner": "bob", "cells": ["C7"], "by": "p9"}])
    after, events = turn(s, {"full_attack": "w1", "target": "r9"})
    assert pos(after, "r9") == "C6"
    assert of(events, "push_blocked")[0]["why"] == "rock"


def test_no_push_into_a_squad():
    """seed l.57: "会将对方震退1个身位格" (ruling R13: a squad behind blocks the push)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客"), sq("bob", "C7", "w9:战士"))
    after, _ = turn(s, {"full_attack": "w1", "target": "r9"})
    assert pos(after, "r9") == "C6"


def test_push_into_a_wind_wall():
    """seed l.57: "会将对方震退1个身位格" (ruling R13: a wall cell may be pushed into)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客"),
              markers=[{"id": "wl", "kind": "风墙", "owner": "alice", "cells": ["C7"]}])
    after, _ = turn(s, {"full_attack": "w1", "target": "r9"})
    assert pos(after, "r9") == "C7"


def test_overkill_is_lost():
    """seed l.60: "攻击超额：致死敌人后造成多余的攻击，会消失，不会转嫁给新任队长。" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客:2", "w9:战士"))
    after, _ = turn(s, {"attack": "w1", "target": "r9"})
    assert dead(after, "r9")
    assert hp(after, "w9") == 28
    assert squad(after, "w9")["members"] == ["w9"]


def test_dead_leader_fight_on_by_default():
    """seed l.54: "如果继续战斗，者放在其下面的棋子，可以顺位成为队长。" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客:2", "w9:战士", "p9:圣武士"))
    after, events = turn(s, {"attack": "w1", "target": "r9"})
    assert squad(after, "w9")["members"] == ["w9", "p9"]
    assert of(events, "new_leader")[0]["piece"] == "w9"


def test_dead_leader_members_flee_to_hand():
    """seed l.48: "逃跑：因队长死亡而回手的棋子，五回合内无法再次上场。" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客:2", "w9:战士"),
              standing={"bob": {"leader_dies": "return"}})
    after, events = turn(s, {"attack": "w1", "target": "r9"})
    hand = player(after, "bob")["in_hand"]
    assert [h["id"] for h in hand] == ["w9"]
    assert hand[0]["cannot_return_until"] == 12  # ruling R1: bob's next turn (2) + 2 x 5
    assert of(events, "flee")[0]["pieces"] == ["w9"]


def test_fled_piece_cannot_come_back_early():
    """seed l.48: "五回合内无法再次上场。" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客:2", "w9:战士"),
              standing={"bob": {"leader_dies": "return"}})
    after, _ = turn(s, {"attack": "w1", "target": "r9"})
    assert refusals(after, {"summon": "w9", "at": "A10"}) == [("actions[0].summon", "summon.fled")]


def test_standing_per_squad_overrides():
    """seed l.54: "如果队长死亡，其他棋子，可以选择继续战斗或者直接回手。" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客:2", "w9:战士", id="t1"),
              standing={"bob": {"leader_dies": "fight_on", "squads": {"t1": "return"}}})
    after, _ = turn(s, {"attack": "w1", "target": "r9"})
    assert [h["id"] for h in player(after, "bob")["in_hand"]] == ["w9"]


def test_unyielding_full_hp_leader_survives_at_one():
    """seed l.61: "不屈意志：如果一颗满血的棋子、队长，在一回合内被敌人杀死，这这枚棋子不会死亡，而是变为1点生命，且本回合不会再被伤害。" """
    s = board(sq("alice", "C5", "w1:战士"), sq("alice", "B6", "w2:战士"), sq("bob", "C6", "r9:巡林客"),
              classes={"巡林客": {"hp": 4}})
    after, events = turn(s, {"attack": "w1", "target": "r9"}, {"attack": "w2", "target": "r9"})
    assert hp(after, "r9") == 1
    assert of(events, "unyielding") and of(events, "shielded")


def test_unyielding_needs_full_hp():
    """seed l.61: "如果一颗满血的棋子、队长" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "r9:巡林客:4"))
    after, _ = turn(s, {"attack": "w1", "target": "r9"})
    assert dead(after, "r9")


def test_unyielding_not_for_members():
    """seed l.61: "如果一颗满血的棋子、队长" (contract G23: the leader; ruling R14)"""
    s = board(sq("alice", "C5", "s1:术士"), sq("bob", "C8", "w9:战士", "r9:巡林客"),
              classes={"巡林客": {"hp": 5}})
    after, _ = turn(s, {"ability": "火球", "by": "s1", "target": "w9"})
    assert dead(after, "r9") and hp(after, "w9") == 23


def test_deadly_strike_in_own_turn():
    """seed l.62: "必杀攻击：如果在自己的回合内，自己的满血棋子，因为借机或措手不及而被杀，则会受到必杀攻击，不会发动不屈意志。" """
    s = board(sq("alice", "C3", "r1:巡林客"), sq("bob", "D5", "g9:游荡者"), classes={"巡林客": {"hp": 5}})
    after, events = turn(s, {"move": "r1", "path": ["C4", "C5", "C6"]})
    assert dead(after, "r1")
    assert of(events, "deadly_strike")


def test_guardian_member_cannot_attack():
    """seed l.63: "护卫者：战士与圣武士，作为护卫者，如果他们处在队员的位置，则无法进行攻击与发动技能。" """
    s = board(sq("alice", "C5", "w1:战士", "p1:圣武士"), sq("bob", "C6", "r9:巡林客"))
    assert refusals(s, {"attack": "w1", "by": "p1", "target": "r9"}) == [("actions[0].by", "by.cannot_attack")]


def test_member_cannot_attack_without_a_warrior_leader():
    """seed l.47: "一般情况，小队其他成员无法攻击，但是可以使用任何主动能力。" """
    s = board(sq("alice", "C5", "r1:巡林客", "g1:游荡者"), sq("bob", "C6", "r9:巡林客"))
    assert refusals(s, {"attack": "r1", "by": "g1", "target": "r9"}) == [("actions[0].by", "by.cannot_attack")]


def test_warrior_leader_commands_a_member_to_attack():
    """seed l.29: "战士作为队长，可以指挥队伍中的其他人，进行攻击" """
    s = board(sq("alice", "C5", "w1:战士", "b1:野蛮人"), sq("bob", "C6", "r9:巡林客"))
    after, _ = turn(s, {"attack": "w1", "by": "b1", "target": "r9"})
    assert hp(after, "r9") == 13
    assert hp(after, "w1") == 25  # the barbarian's squadmate loses 3


def test_precise_strike_names_a_member():
    """seed l.31: "精准打击，如果攻击小队，则可以选择攻击小队中的特定成员" """
    s = board(sq("alice", "C5", "r1:巡林客"), sq("bob", "C6", "w9:战士", "p9:牧师"))
    after, _ = turn(s, {"attack": "r1", "target": "w9", "member": "p9"})
    assert (hp(after, "w9"), hp(after, "p9")) == (28, 21)


def test_only_a_ranger_names_a_member():
    """seed l.31: "精准打击，如果攻击小队，则可以选择攻击小队中的特定成员" (a 巡林客 passive)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "w9:战士", "p9:牧师"))
    assert refusals(s, {"attack": "w1", "target": "w9", "member": "p9"}) == [("actions[0].member", "member.not_ranger")]


def test_battle_formation_sums_same_class():
    """seed l.52: "战阵：两个或以上相同职业者在同一小队，可以三人一同执行行动命令" """
    s = board(sq("alice", "C5", "r1:巡林客", "r2:巡林客"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"attack": "r1", "target": "w9"})
    assert hp(after, "w9") == 22


def test_no_battle_formation_for_guardians():
    """seed l.63: "（战阵也不可以发动）" """
    s = board(sq("alice", "C5", "w1:战士", "w2:战士"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"attack": "w1", "target": "w9"})
    assert hp(after, "w9") == 24


def test_leader_swap_is_free():
    """seed l.51: "在自己的回合内，可以任意更换队长不消耗行动机会。" """
    s = board(sq("alice", "C5", "w1:战士", "b1:野蛮人"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"leader": "b1"}, {"full_attack": "b1", "target": "w9"})
    assert squad(after, "b1")["members"][0] == "b1"
    assert hp(after, "w9") == 14


def test_defend_halves_and_spreads():
    """seed l.58: "防御：本回合放弃行动，全力进行防御，收到的所有伤害减半，同时会被全队，不会被伤害致死的人员承担。" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "w9:战士", "r9:巡林客"), first="bob")
    s, _ = turn(s, {"defend": "w9"})
    assert squad(s, "w9")["defending"]
    after, _ = turn(s, {"full_attack": "w1", "target": "w9"})
    assert (hp(after, "w9"), hp(after, "r9")) == (26, 18)


def test_defend_spread_skips_who_would_die():
    """seed l.58: "同时会被全队，不会被伤害致死的人员承担。" (a barbarian's 14, halved 7: 3 would kill the ranger at 3)"""
    s = board(sq("alice", "C5", "b1:野蛮人"), sq("bob", "C6", "w9:战士", "r9:巡林客:3"), first="bob")
    s, _ = turn(s, {"defend": "w9"})
    after, _ = turn(s, {"full_attack": "b1", "target": "w9"})
    assert (hp(after, "w9"), hp(after, "r9")) == (21, 3)


def test_defend_when_no_member_survives_a_share():
    """seed l.58: "会被全队，不会被伤害致死的人员承担。" (ruling R21: nobody would: the leader takes it)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "w9:战士:2", "r9:巡林客:2"), first="bob")
    s, _ = turn(s, {"defend": "w9"})
    assert hp(s, "w9") == 2
    after, _ = turn(s, {"full_attack": "w1", "target": "w9"})
    assert dead(after, "w9") and hp(after, "r9") == 2


def test_defend_costs_both_chances():
    """seed l.58: "本回合放弃行动" """
    s = board(sq("alice", "C5", "w1:战士"))
    assert refusals(s, {"move": "w1", "path": ["C6"]}, {"defend": "w1"}) == [("actions[1].defend", "chances")]


def test_defence_ends_at_the_owners_next_turn():
    """seed l.58: "本回合放弃行动，全力进行防御" (G7: own 防御 ends at one's next turn)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "A10", "w9:战士"))
    s, _ = turn(s, {"defend": "w1"})
    s, _ = turn(s)
    after, _ = turn(s)
    assert not squad(after, "w1")["defending"]


def test_surrounded_attacker_takes_the_others_half_attacks():
    """seed l.55: "如果被多队伍包围，如果选择攻击其中一个队伍，则其他队伍可借机攻击你。" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "B5", "w8:战士"), sq("bob", "D5", "w9:战士"))
    after, events = turn(s, {"attack": "w1", "target": "w8"})
    assert hp(after, "w8") == 24 and hp(after, "w9") == 28
    assert hp(after, "w1") == 26
    assert [e["kind"] for e in of(events, "reaction")] == ["surrounded"]


def test_skipped_attack_on_a_dead_target():
    """seed l.41: "归零的话，棋子死亡无法复活。" (resolve skips, with a reason, what became impossible)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("alice", "B6", "w2:战士"), sq("bob", "C6", "r9:巡林客:4"))
    after, events = force(s, {"attack": "w1", "target": "r9"}, {"attack": "w2", "target": "r9"})
    skipped = of(events, "action_skipped")
    assert [(e["number"], e["reason"], e["params"]) for e in skipped] == [(2, "gone.dead", {"value": "r9"})]
    assert dead(after, "r9")


def test_suicide_is_free_and_final():
    """seed l.17: "棋子可以在任何时间，任何地点，选择自杀。" """
    s = board(sq("alice", "C5", "w1:战士", "r1:巡林客"))
    after, _ = turn(s, {"suicide": "r1"}, {"move": "w1", "path": ["C6"]}, {"move": "w1", "path": ["C7"]})
    assert dead(after, "r1") and pos(after, "w1") == "C7"
