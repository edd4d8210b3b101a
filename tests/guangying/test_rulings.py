"""Cases for the rulings on what the seed leaves open (docs/rulings/guangying.md)."""

from tests.guangying.kit import board, dead, force, hp, of, passes, piece, player, pos, refusals, sq, squad, turn


def test_r2_wind_wall_outlives_its_druid():
    """seed l.35: "风墙：敌人进入地方风墙需要额外支付一点移动力" (ruling R2: a wall stays until the GM removes it)"""
    s = board(sq("alice", "C5", "u1:德鲁伊:1"), sq("bob", "C6", "w9:战士"), first="bob",
              markers=[{"id": "wl", "kind": "风墙", "owner": "alice", "cells": ["A5", "B5"]}])
    after, _ = turn(s, {"attack": "w9", "target": "u1"})
    assert dead(after, "u1") and after["markers"][0]["id"] == "wl"
    after, _ = passes(after)
    after, _ = passes(after)
    assert after["markers"][0]["id"] == "wl"


def test_r4_portal_closes_at_the_end_of_the_turn():
    """seed l.34: "开启传送阵：可以让棋子直接从法师四周1身位格内入场" (ruling R4: for the turn it is opened)"""
    s = board(sq("alice", "C5", "m1:法师"), sq("bob", "A10", "w9:战士"))
    s, _ = turn(s, {"ability": "开启传送阵", "by": "m1"})
    assert piece(s, "m1")["portal_open"] is False
    s, _ = passes(s)
    assert refusals(s, {"summon": "战士", "at": "C6"}) == [("actions[0].at", "summon.cell")]


def test_r5_song_not_for_enemy_leaders():
    """seed l.26: "覆盖周围两个身位格的范围内的队长，增加战力+3（诗人队友同享受）" (ruling R5: own leaders only)"""
    s = board(sq("alice", "C3", "d1:诗人"), sq("alice", "C5", "w1:战士"), sq("bob", "C4", "w9:战士"))
    s, _ = turn(s, {"ability": "唱诗", "by": "d1"})
    after, _ = turn(s, {"attack": "w9", "target": "w1"})
    assert hp(after, "w1") == 24


def test_r5_bard_sings_for_itself():
    """seed l.26: "（诗人队友同享受）" (ruling R5: the bard, a leader within 0, gets +3 too)"""
    s = board(sq("alice", "C5", "d1:诗人"), sq("bob", "C6", "w9:战士"))
    s, _ = turn(s, {"ability": "唱诗", "by": "d1"})
    s, _ = passes(s)
    s, _ = turn(s, {"attack": "d1", "target": "w9"})  # a new turn: the song is over
    assert hp(s, "w9") == 27


def test_r5_song_ends_at_the_bards_next_turn():
    """seed l.26: "唱诗：覆盖周围两个身位格的范围内的队长，增加战力+3" (ruling R5)"""
    s = board(sq("alice", "C3", "d1:诗人"), sq("bob", "A10", "w9:战士"))
    s, _ = turn(s, {"ability": "唱诗", "by": "d1"})
    s, _ = passes(s)
    s, _ = passes(s)
    assert piece(s, "d1")["singing"] is False


def test_r6_no_shot_at_the_fortress():
    """seed l.31: "射击：可以远程攻击，直线的3个身位格距离" (ruling R6: a fortress is no target of 射击 or 火球)"""
    s = board(sq("alice", "E8", "r1:巡林客"))
    assert refusals(s, {"ability": "射击", "by": "r1", "target": "fortress"}) == [("actions[0].target", "target.unknown")]


def test_r6_full_attack_on_the_fortress_doubles_without_push():
    """seed l.57: "造成两倍伤害的同时，会将对方震退1个身位格" (ruling R6: the fortress takes double, nothing moves)"""
    s = board(sq("alice", "E10", "b1:野蛮人"))
    after, events = turn(s, {"full_attack": "b1", "target": "fortress"})
    assert player(after, "bob")["fortress_hp"] == 86
    assert not of(events, "push") and not of(events, "push_blocked")


def test_r6_sweep_does_not_hit_the_fortress():
    """seed l.25: "一次攻击可以覆盖周身的一个身位格中的所有人。" (ruling R6: 人, not the fortress)"""
    s = board(sq("alice", "E10", "b1:野蛮人"), sq("bob", "D10", "w9:战士"))
    after, _ = turn(s, {"attack": "b1", "target": "w9"})
    assert player(after, "bob")["fortress_hp"] == 100 and hp(after, "w9") == 21


def test_r7_full_hp_measured_when_the_blow_lands():
    """seed l.61: "如果一颗满血的棋子、队长，在一回合内被敌人杀死" (ruling R7: full HP at the moment of the killing blow)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("alice", "B6", "w2:战士"), sq("bob", "C6", "r9:巡林客"),
              classes={"巡林客": {"hp": 6}})
    after, _ = turn(s, {"attack": "w1", "target": "r9"}, {"attack": "w2", "target": "r9"})
    assert dead(after, "r9")


def test_r15_sweep_spares_own_squads():
    """seed l.25: "一次攻击可以覆盖周身的一个身位格中的所有人。" (ruling R15: enemies only; squadmates lose 3 by ability 2)"""
    s = board(sq("alice", "C5", "b1:野蛮人"), sq("alice", "D5", "w1:战士"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"attack": "b1", "target": "w9"})
    assert hp(after, "w1") == 28


def test_r15_barbarian_reaction_is_a_plain_hit():
    """seed l.38: "会被强制受到敌人带队者的瞬间普通攻击。" (ruling R15: no sweep, no squadmate loss in reactions)"""
    s = board(sq("alice", "C3", "w1:战士"), sq("bob", "D5", "b9:野蛮人", "r9:巡林客"))
    after, _ = turn(s, {"move": "w1", "path": ["C4", "C5", "C6"]})
    assert hp(after, "w1") == 21 and hp(after, "r9") == 20


def test_r18_battle_formation_not_for_shots():
    """seed l.52: "战阵：两个或以上相同职业者在同一小队，可以三人一同执行行动命令" (ruling R18: attacks only)"""
    s = board(sq("alice", "C3", "r1:巡林客", "r2:巡林客"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"ability": "射击", "by": "r1", "target": "w9"})
    assert hp(after, "w9") == 27


def test_r19_no_wall_over_a_rock():
    """seed l.35: "（风墙释放时候，不可以覆盖任何人。）" (ruling R19: nor a rock or fortress)"""
    s = board(sq("alice", "C5", "u1:德鲁伊"), sq("alice", "A1", "p1:牧师"),
              markers=[{"id": "k1", "kind": "岩", "owner": "alice", "cells": ["E5"], "by": "p1"}])
    assert refusals(s, {"ability": "风墙", "by": "u1", "at": "D5", "orientation": "horizontal"}) == \
        [("actions[0].at", "ability.cell_taken")]


def test_r20_shots_pass_over_pieces():
    """seed l.31: "直线的3个身位格距离" (ruling R20: pieces between do not block; only 岩 and 风墙)"""
    s = board(sq("alice", "C3", "r1:巡林客"), sq("alice", "C4", "w1:战士"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"ability": "射击", "by": "r1", "target": "w9"})
    assert hp(after, "w9") == 27


def test_r20_shot_into_a_wall_cell():
    """seed l.35: "巡林客的射击，无法穿透风墙。" (ruling R20: a target standing in the wall is hit; the wall is not crossed)"""
    s = board(sq("alice", "C3", "r1:巡林客"), sq("bob", "C5", "w9:战士"),
              markers=[{"id": "wl", "kind": "风墙", "owner": "bob", "cells": ["C5"]}])
    after, _ = turn(s, {"ability": "射击", "by": "r1", "target": "w9"})
    assert hp(after, "w9") == 27


def test_r24_summon_into_a_wall_cell():
    """seed l.35: "（风墙释放时候，不可以覆盖任何人。）" (ruling R24: only placing a wall over pieces is refused)"""
    s = board(markers=[{"id": "wl", "kind": "风墙", "owner": "bob", "cells": ["C3"]}])
    assert refusals(s, {"summon": "战士", "at": "C3"}) == []


def test_r25_surrounded_attack_on_the_fortress():
    """seed l.55: "如果被多队伍包围，如果选择攻击其中一个队伍，则其他队伍可借机攻击你。" (ruling R25: attacking the fortress, all strike)"""
    s = board(sq("alice", "E10", "w1:战士"), sq("bob", "D10", "w8:战士"), sq("bob", "F10", "w9:战士"))
    after, events = turn(s, {"attack": "w1", "target": "fortress"})
    assert len(of(events, "reaction")) == 2 and hp(after, "w1") == 24


def test_r26_reactions_strike_in_board_order():
    """seed l.55: "如果被多队伍包围，如果选择攻击其中一个队伍，则其他队伍可借机攻击你。" (R26: several reacting at once
    strike in board order of their cells, row then column: D5 before C6)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "w8:战士"), sq("bob", "D5", "w9:战士"))
    after, events = turn(s, {"move": "w1", "path": ["B5"]})
    assert [(e["squad"], e["piece"]) for e in of(events, "reaction")] == [("bob-s3", "w9"), ("bob-s2", "w8")]
    assert hp(after, "w1") == 24


def test_r27_defence_spreads_a_precise_strike():
    """seed l.58: "同时会被全队，不会被伤害致死的人员承担。" (ruling R27: the spread overrides 精准打击's member)"""
    s = board(sq("alice", "C5", "r1:巡林客"), sq("bob", "C6", "w9:战士", "p9:牧师"), first="bob")
    s, _ = turn(s, {"defend": "w9"})
    after, _ = force(s, {"full_attack": "r1", "target": "w9", "member": "p9"})
    assert (hp(after, "w9"), hp(after, "p9")) == (27, 23)  # 6 halved to 3: 1 each, 1 resisted


def test_r31_a_defending_squad_still_reacts():
    """seed l.58: "防御：本回合放弃行动" with l.38 (ruling R31: reactions cost no chances; a defender still strikes)"""
    s = board(sq("alice", "C3", "w1:战士"), sq("bob", "D5", "w9:战士"), first="bob")
    s, _ = turn(s, {"defend": "w9"})
    after, events = turn(s, {"move": "w1", "path": ["C4", "C5", "C6"]})
    assert hp(after, "w1") == 24 and of(events, "reaction")[0]["kind"] == "ambush"



def test_r25_one_adjacent_enemy_does_not_strike_a_fortress_attacker():
    """seed l.55: "如果被多队伍包围，如果选择攻击其中一个队伍，则其他队伍可借机攻击你。" (ruling R25: only a squad within 1
    of 2 or more enemy squads is "被多队伍包围"; one adjacent enemy does not strike)"""
    s = board(sq("alice", "E10", "w1:战士"), sq("bob", "D10", "w8:战士"))
    after, events = turn(s, {"attack": "w1", "target": "fortress"})
    assert of(events, "reaction") == [] and hp(after, "w1") == 28


def test_r32_portal_opens_in_the_whole_neutral_area():
    """seed l.9: "中立区域连接起来，就是一个6*10的中立区域。" with l.8 "（法师的召唤阵可以在本阵与中立区域展开）" (ruling R32:
    rows 4-9 for either player; a summon lands there too, never in the enemy home, l.12)"""
    s = board(sq("alice", "C8", "m1:法师"))
    assert refusals(s, {"ability": "开启传送阵", "by": "m1"}, {"summon": "战士", "at": "C9"}) == []
    assert refusals(s, {"ability": "开启传送阵", "by": "m1"}, {"summon": "战士", "at": "D8"}) == []
    s = board(sq("alice", "C9", "m1:法师"))
    assert refusals(s, {"ability": "开启传送阵", "by": "m1"}, {"summon": "战士", "at": "C10"}) == \
        [("actions[1].at", "summon.cell")]
    after, events = turn(s, {"ability": "开启传送阵", "by": "m1"}, {"summon": "战士", "at": "C8", "id": "w1"})
    assert pos(after, "w1") == "C8" and of(events, "summon")[0]["via"] == "portal"


def test_r32_switch_own_half():
    """seed l.8: "自己半边的格子中，靠近自己的三行是本阵，可以进行召唤，靠近对方的三行是中立区域" (rules: {portal_area:
    own_half}: only the neutral rows of the mage's own half)"""
    s = board(sq("alice", "C8", "m1:法师"), rules={"portal_area": "own_half"})
    assert refusals(s, {"ability": "开启传送阵", "by": "m1"}) == [("actions[0].by", "portal.rows")]
    s = board(sq("alice", "C6", "m1:法师"), rules={"portal_area": "own_half"})
    assert refusals(s, {"ability": "开启传送阵", "by": "m1"}, {"summon": "战士", "at": "C7"}) == \
        [("actions[1].at", "summon.cell")]
    assert refusals(s, {"ability": "开启传送阵", "by": "m1"}, {"summon": "战士", "at": "C5"}) == []


def test_r33_formation_of_barbarians_hurts_each_squadmate_once():
    """seed l.25: "能力2——*：会攻击到队友，组队的时候，队友会损失3点生命值。" with l.52 "战阵" (ruling R33: a 战阵 attack is
    one hit of the summed powers, made by the acting barbarian: every other piece of its squad, the other
    barbarians included, loses 3 once)"""
    s = board(sq("alice", "C5", "b1:野蛮人", "b2:野蛮人", "r1:巡林客"), sq("bob", "C6", "pa9:圣武士"))
    after, events = turn(s, {"attack": "b1", "target": "pa9"})
    assert (hp(after, "b1"), hp(after, "b2"), hp(after, "r1")) == (20, 17, 17)
    assert of(events, "attack")[0]["amount"] == 14 and hp(after, "pa9") == 22


def test_r33_full_attack_hurts_squadmates_once():
    """seed l.57: "一回合内，两次行动力都进行攻击命令的话，着转化为全力攻击，造成两倍伤害" (ruling R33: one 全力攻击, one
    squadmate loss of 3; the doubling is the damage to the enemy)"""
    s = board(sq("alice", "C5", "b1:野蛮人", "r1:巡林客"), sq("bob", "C6", "pa9:圣武士"))
    after, _ = turn(s, {"full_attack": "b1", "target": "pa9"})
    assert hp(after, "r1") == 17 and hp(after, "pa9") == 22


def test_r35_standing_return_in_the_opponents_turn():
    """seed l.11: "棋子可以在本阵中，进行回手，每回合回手的棋子无限制" with l.17 "任何时间" (ruling R35: a standing 回手 is
    carried out in the opponent's turn once the piece is hurt to its limit, in own home rows only)"""
    s = board(sq("alice", "C3", "w1:战士", "r1:巡林客"), sq("bob", "C4", "w9:战士"))
    s, _ = turn(s, standing={"return": {"w1": 24}})
    after, events = turn(s, {"full_attack": "w9", "target": "w1"})
    assert [h["id"] for h in player(after, "alice")["in_hand"]] == ["w1"] and hp(after, "w1") == 20
    assert squad(after, "r1")["members"] == ["r1"] and pos(after, "r1") == "C2"  # pushed, led by r1
    assert of(events, "standing_return")[0]["limit"] == 24
    assert player(after, "alice")["standing"]["return"] == {}  # used once


def test_r35_standing_return_only_in_home_rows():
    """seed l.11: "棋子可以在本阵中，进行回手" (outside home rows the order waits)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "w9:战士"))
    s, _ = turn(s, standing={"return": {"w1": 27}})
    after, events = turn(s, {"attack": "w9", "target": "w1"})
    assert hp(after, "w1") == 24 and of(events, "standing_return") == []
    assert player(after, "alice")["standing"]["return"] == {"w1": 27}


def test_r35_standing_suicide_anywhere_lets_a_led_squad_flee():
    """seed l.17: "棋子可以在任何时间，任何地点，选择自杀。" (ruling R35: a standing 自杀 anywhere; a leader's 自杀 is a
    leader's death, l.54: the squad's standing choice applies)"""
    s = board(sq("alice", "C5", "w1:战士:10", "r1:巡林客"), sq("bob", "C6", "w9:战士"))
    s, _ = turn(s, standing={"suicide": {"w1": 6}, "leader_dies": "return"})
    after, events = turn(s, {"attack": "w9", "target": "w1"})
    assert dead(after, "w1") and of(events, "standing_suicide")[0]["hp"] == 6
    assert [h["id"] for h in player(after, "alice")["in_hand"]] == ["r1"]


def test_r35_standing_orders_do_nothing_in_own_turn():
    """seed l.17: "任何时间" (ruling R35: in one's own turn the sheet orders 回手 and 自杀 itself)"""
    s = board(sq("alice", "C3", "w1:战士"), sq("bob", "C4", "w9:战士"), first="bob")
    s, _ = turn(s)
    s, _ = turn(s, standing={"return": {"w1": 27}})
    after, events = turn(s)  # bob passes
    s2, events = turn(after, {"move": "w1", "path": ["B3", "A3"]})  # w1 takes 借机攻击 2 in its own turn
    assert hp(s2, "w1") == 26 and of(events, "standing_return") == []


def test_r35_standing_orders_refused_for_pieces_not_owned():
    """seed l.17: "棋子可以在任何时间，任何地点，选择自杀。" (a standing order names an own piece and an HP of 1 or more)"""
    s = board(sq("alice", "C3", "w1:战士"), sq("bob", "C4", "w9:战士"))
    assert refusals(s, standing={"suicide": {"w9": 3}, "return": {"w1": 0}}) == [
        ("standing.return.w1", "field.range"), ("standing.suicide.w9", "guangying.sheet.standing_piece")]
