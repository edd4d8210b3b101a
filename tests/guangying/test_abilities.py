"""Rule cases: every class ability (seed l.25-34), 岩 and 风墙 (l.35-36)."""

from tests.guangying.kit import board, dead, hp, of, piece, player, pos, refusals, sq, squad, turn


def test_barbarian_sweeps_every_enemy_within_one():
    """seed l.25: "一次攻击可以覆盖周身的一个身位格中的所有人。" """
    s = board(sq("alice", "C5", "b1:野蛮人"), sq("bob", "C6", "w8:战士"), sq("bob", "D5", "w9:战士"),
              sq("bob", "C8", "w7:战士"))
    after, events = turn(s, {"attack": "b1", "target": "w8"})
    assert (hp(after, "w8"), hp(after, "w9"), hp(after, "w7")) == (21, 21, 28)
    assert [e["target"] for e in of(events, "sweep")] == ["bob-s3"]


def test_barbarian_hurts_its_squadmates():
    """seed l.25: "会攻击到队友，组队的时候，队友会损失3点生命值。" """
    s = board(sq("alice", "C5", "b1:野蛮人", "r1:巡林客"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"attack": "b1", "target": "w9"})
    assert (hp(after, "b1"), hp(after, "r1"), hp(after, "w9")) == (20, 17, 21)


def test_bard_song_adds_three_to_leaders_within_two():
    """seed l.26: "唱诗：覆盖周围两个身位格的范围内的队长，增加战力+3" """
    s = board(sq("alice", "C3", "d1:诗人"), sq("alice", "C5", "w1:战士"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"ability": "唱诗", "by": "d1"}, {"attack": "w1", "target": "w9"})
    assert hp(after, "w9") == 21


def test_song_does_not_reach_three_cells():
    """seed l.26: "覆盖周围两个身位格的范围内的队长" """
    s = board(sq("alice", "C2", "d1:诗人"), sq("alice", "C5", "w1:战士"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"ability": "唱诗", "by": "d1"}, {"attack": "w1", "target": "w9"})
    assert hp(after, "w9") == 24


def test_song_lasts_through_the_enemy_turn():
    """seed l.26: "覆盖周围两个身位格的范围内的队长，增加战力+3" (ruling R5: until the bard's next turn; reactions too)"""
    s = board(sq("alice", "C3", "d1:诗人"), sq("alice", "C5", "w1:战士"), sq("bob", "D7", "w9:战士"))
    s, _ = turn(s, {"ability": "唱诗", "by": "d1"})
    assert piece(s, "d1")["singing"]
    after, _ = turn(s, {"move": "w9", "path": ["D6", "D5", "D4"]})  # passes D5, next to C5
    assert hp(after, "w9") == 21


def test_bard_is_immune_to_shots():
    """seed l.26: "不会受到巡林客与术士的远程伤害" """
    s = board(sq("alice", "C3", "r1:巡林客"), sq("bob", "C5", "d9:诗人"))
    assert refusals(s, {"ability": "射击", "by": "r1", "target": "d9"}) == [("actions[0].target", "target.immune")]


def test_priest_heals_within_one():
    """seed l.27: "战力可用于治疗一个身位格或斜方两个身位格的友军。" """
    s = board(sq("alice", "C5", "p1:牧师"), sq("alice", "C6", "w1:战士:10"))
    after, _ = turn(s, {"ability": "治疗", "by": "p1", "target": "w1"})
    assert hp(after, "w1") == 13


def test_priest_heals_diagonally():
    """seed l.27: "或斜方两个身位格的友军" """
    s = board(sq("alice", "C5", "p1:牧师"), sq("alice", "D6", "w1:战士:10"))
    after, _ = turn(s, {"ability": "治疗", "by": "p1", "target": "w1"})
    assert hp(after, "w1") == 13


def test_priest_cannot_heal_two_straight():
    """seed l.27: "治疗一个身位格或斜方两个身位格的友军" """
    s = board(sq("alice", "C5", "p1:牧师"), sq("alice", "C7", "w1:战士:10"))
    assert refusals(s, {"ability": "治疗", "by": "p1", "target": "w1"}) == [("actions[0].target", "heal.reach")]


def test_priest_heals_own_squad():
    """seed l.27: "治疗一个身位格...的友军" (ruling R16: the priest's own squad is within reach)"""
    s = board(sq("alice", "C5", "w1:战士:10", "p1:牧师"))
    after, _ = turn(s, {"ability": "治疗", "by": "p1", "target": "w1"})
    assert hp(after, "w1") == 13


def test_priest_makes_a_rock():
    """seed l.27: "造岩：在面前，创造一面‘岩’" """
    s = board(sq("alice", "C5", "p1:牧师"))
    after, _ = turn(s, {"ability": "造岩", "by": "p1", "at": "C6", "id": "k1"})
    assert after["markers"] == [{"id": "k1", "kind": "岩", "owner": "alice", "cells": ["C6"], "by": "p1"}]
    assert piece(after, "p1")["maintaining"] == "k1"
    assert player(after, "alice")["pool"]["岩"] == 3


def test_no_healing_while_maintaining_a_rock():
    """seed l.27: "（维持岩的时候，无法发动能力1）" """
    s = board(sq("alice", "C5", "p1:牧师"), sq("alice", "C6", "w1:战士:10"),
              markers=[{"id": "k1", "kind": "岩", "owner": "alice", "cells": ["B5"], "by": "p1"}])
    assert refusals(s, {"ability": "治疗", "by": "p1", "target": "w1"}) == [("actions[0].ability", "heal.maintaining")]


def test_one_rock_per_priest():
    """seed l.27: "造岩：在面前，创造一面‘岩’（维持岩的时候...）" (ruling R3: a priest maintains one rock)"""
    s = board(sq("alice", "C5", "p1:牧师"),
              markers=[{"id": "k1", "kind": "岩", "owner": "alice", "cells": ["B5"], "by": "p1"}])
    assert refusals(s, {"ability": "造岩", "by": "p1", "at": "C6"}) == [("actions[0].by", "rock.maintaining")]


def test_rock_goes_when_its_priest_dies():
    """seed l.27: "（维持岩的时候，无法发动能力1）" (ruling R3: a rock stands while its priest maintains it)"""
    s = board(sq("alice", "C5", "p1:牧师:1"), sq("bob", "C6", "w9:战士"), first="bob",
              markers=[{"id": "k1", "kind": "岩", "owner": "alice", "cells": ["B5"], "by": "p1"}])
    after, events = turn(s, {"attack": "w9", "target": "p1"})
    assert dead(after, "p1") and after["markers"] == []
    assert player(after, "alice")["pool"]["岩"] == 4
    assert of(events, "marker_removed")


def test_rock_only_on_an_empty_neighbour():
    """seed l.27: "在面前，创造一面‘岩’" (G26: an empty orthogonal neighbour)"""
    s = board(sq("alice", "C5", "p1:牧师"), sq("bob", "C6", "w9:战士"))
    assert refusals(s, {"ability": "造岩", "by": "p1", "at": "C6"}) == [("actions[0].at", "ability.cell_taken")]
    assert refusals(s, {"ability": "造岩", "by": "p1", "at": "D6"}) == [("actions[0].at", "ability.adjacent")]


def test_shots_do_not_pass_rocks():
    """seed l.36: "巡林客的射击，无法穿透岩。" """
    s = board(sq("alice", "C3", "r1:巡林客"), sq("alice", "A1", "p1:牧师"), sq("bob", "C6", "w9:战士"),
              markers=[{"id": "k1", "kind": "岩", "owner": "alice", "cells": ["C4"], "by": "p1"}])
    assert refusals(s, {"ability": "射击", "by": "r1", "target": "w9"}) == [("actions[0].target", "shoot.blocked")]


def test_druid_wall_through_the_druid_line():
    """seed l.28: "风墙：在面前，创造横向或者纵向，三个身位格的风墙。" (G26: in line: at and 2 beyond)"""
    s = board(sq("alice", "C5", "u1:德鲁伊"))
    after, _ = turn(s, {"ability": "风墙", "by": "u1", "at": "D5", "orientation": "横向", "id": "wl"})
    assert after["markers"][0]["cells"] == ["D5", "E5", "F5"]


def test_druid_wall_across():
    """seed l.28: "创造横向或者纵向，三个身位格的风墙。" (G26: across: at is the middle)"""
    s = board(sq("alice", "C5", "u1:德鲁伊"))
    after, _ = turn(s, {"ability": "风墙", "by": "u1", "at": "D5", "orientation": "vertical", "id": "wl"})
    assert after["markers"][0]["cells"] == ["D4", "D5", "D6"]


def test_wall_beyond_the_edge_vanishes():
    """seed l.15: "风墙可以选择放在边缘，超出棋盘的部分算作消失。" """
    s = board(sq("alice", "A6", "u1:德鲁伊"))
    after, _ = turn(s, {"ability": "风墙", "by": "u1", "at": "A5", "orientation": "horizontal", "id": "wl"})
    assert after["markers"][0]["cells"] == ["A5", "B5"]


def test_wall_may_not_cover_a_piece():
    """seed l.35: "（风墙释放时候，不可以覆盖任何人。）" """
    s = board(sq("alice", "C5", "u1:德鲁伊"), sq("bob", "E5", "w9:战士"))
    assert refusals(s, {"ability": "风墙", "by": "u1", "at": "D5", "orientation": "horizontal"}) == \
        [("actions[0].at", "ability.cell_taken")]


def test_walls_run_out():
    """seed l.3: "4个岩标记与2个风墙标记" """
    s = board(sq("alice", "C5", "u1:德鲁伊"), pool={"alice": {"风墙": 0}})
    assert refusals(s, {"ability": "风墙", "by": "u1", "at": "D5", "orientation": "horizontal"}) == \
        [("actions[0].ability", "marker.none")]


def test_shots_do_not_pass_walls():
    """seed l.35: "巡林客的射击，无法穿透风墙。" """
    s = board(sq("alice", "C3", "r1:巡林客"), sq("bob", "C6", "w9:战士"),
              markers=[{"id": "wl", "kind": "风墙", "owner": "bob", "cells": ["B4", "C4", "D4"]}])
    assert refusals(s, {"ability": "射击", "by": "r1", "target": "w9"}) == [("actions[0].target", "shoot.blocked")]


def test_beast_form():
    """seed l.28: "变身野兽：增加20生命和2战力，无法再次变换回来。" """
    s = board(sq("alice", "C5", "u1:德鲁伊:10"))
    after, _ = turn(s, {"ability": "变身野兽", "by": "u1"})
    u = piece(after, "u1")
    assert (u["hp"], u["max_hp"], u["power"], u["beast"]) == (30, 36, 7, True)
    after, _ = turn(after)
    assert refusals(after, {"ability": "变身野兽", "by": "u1"}) == [("actions[0].by", "beast.twice")]


def test_paladin_devotion():
    """seed l.30: "奉献：用自己的生命力，恢复同队的生命力" """
    s = board(sq("alice", "C5", "p1:圣武士", "r1:巡林客:10"))
    after, _ = turn(s, {"ability": "奉献", "by": "p1", "target": "r1", "amount": 5})
    assert (hp(after, "p1"), hp(after, "r1")) == (31, 15)


def test_devotion_amount_bounded():
    """seed l.30: "用自己的生命力，恢复同队的生命力" (ruling R17: at most the paladin's HP - 1 and the target's wound)"""
    s = board(sq("alice", "C5", "p1:圣武士", "r1:巡林客:10"))
    assert refusals(s, {"ability": "奉献", "by": "p1", "target": "r1", "amount": 11}) == \
        [("actions[0].amount", "devotion.amount")]


def test_paladin_member_cannot_use_devotion():
    """seed l.63: "如果他们处在队员的位置，则无法进行攻击与发动技能。" """
    s = board(sq("alice", "C5", "r1:巡林客:10", "p1:圣武士"))
    assert refusals(s, {"ability": "奉献", "by": "p1", "target": "r1", "amount": 5}) == \
        [("actions[0].by", "ability.guardian_member")]


def test_member_uses_an_active_ability():
    """seed l.47: "一般情况，小队其他成员无法攻击，但是可以使用任何主动能力。" """
    s = board(sq("alice", "C5", "r1:巡林客:10", "p2:牧师"))
    after, _ = turn(s, {"ability": "治疗", "by": "p2", "target": "r1"})
    assert hp(after, "r1") == 13


def test_ranger_shoots_three_cells_at_power_one():
    """seed l.31: "射击：可以远程攻击，直线的3个身位格距离，但战力降为1" """
    s = board(sq("alice", "C3", "r1:巡林客"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"ability": "射击", "by": "r1", "target": "w9"})
    assert hp(after, "w9") == 27


def test_shot_must_be_straight_and_near():
    """seed l.31: "直线的3个身位格距离" """
    s = board(sq("alice", "C3", "r1:巡林客"), sq("bob", "C7", "w9:战士"), sq("bob", "D5", "w8:战士"))
    assert refusals(s, {"ability": "射击", "by": "r1", "target": "w9"}) == [("actions[0].target", "shoot.line")]
    assert refusals(s, {"ability": "射击", "by": "r1", "target": "w8"}) == [("actions[0].target", "shoot.line")]


def test_song_keeps_its_bonus_on_shots():
    """seed l.31: "但战力降为1（诗人的祝福不变）" """
    s = board(sq("alice", "C1", "d1:诗人"), sq("alice", "C3", "r1:巡林客"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"ability": "唱诗", "by": "d1"}, {"ability": "射击", "by": "r1", "target": "w9"})
    assert hp(after, "w9") == 24


def test_precise_shot_names_a_member():
    """seed l.31: "精准打击，如果攻击小队，则可以选择攻击小队中的特定成员" """
    s = board(sq("alice", "C3", "r1:巡林客"), sq("bob", "C6", "w9:战士", "p9:牧师"))
    after, _ = turn(s, {"ability": "射击", "by": "r1", "target": "w9", "member": "p9"})
    assert (hp(after, "w9"), hp(after, "p9")) == (28, 23)


def test_fireball_splits_ten_over_the_squad():
    """seed l.33: "火球：攻击三个身位格所在的任何敌人，造成10点损伤，若是小队，则被伤害均分" and l.37: "伤害均分：无法整除的时候，小数点后数值算作被抵抗。" """
    s = board(sq("alice", "C3", "s1:术士"), sq("bob", "D5", "w9:战士", "w8:战士", "p9:圣武士"))
    after, events = turn(s, {"ability": "火球", "by": "s1", "target": "w9"})
    assert (hp(after, "w9"), hp(after, "w8"), hp(after, "p9")) == (25, 25, 33)
    assert of(events, "spread")[0]["resisted"] == 1


def test_fireball_on_one_piece():
    """seed l.33: "攻击三个身位格所在的任何敌人，造成10点损伤" """
    s = board(sq("alice", "C3", "s1:术士"), sq("bob", "C6", "w9:战士"))
    after, _ = turn(s, {"ability": "火球", "by": "s1", "target": "w9"})
    assert hp(after, "w9") == 18


def test_fireball_range_is_three():
    """seed l.33: "攻击三个身位格所在的任何敌人" """
    s = board(sq("alice", "C3", "s1:术士"), sq("bob", "D6", "w9:战士"))
    assert refusals(s, {"ability": "火球", "by": "s1", "target": "w9"}) == [("actions[0].target", "fireball.range")]


def test_no_fireball_with_an_enemy_next_to_the_sorcerer():
    """seed l.33: "一个身位格内，有任何敌人的话，无法使用能力1" """
    s = board(sq("alice", "C3", "s1:术士"), sq("bob", "C4", "w8:战士"), sq("bob", "D5", "w9:战士"))
    assert refusals(s, {"ability": "火球", "by": "s1", "target": "w9"}) == [("actions[0].by", "fireball.crowded")]


def test_mage_is_immune_to_fireballs():
    """seed l.34: "不会受到巡林客与术士的远程伤害" """
    s = board(sq("alice", "C3", "s1:术士"), sq("bob", "C5", "m9:法师"))
    assert refusals(s, {"ability": "火球", "by": "s1", "target": "m9"}) == [("actions[0].target", "target.immune")]


def test_ability_costs_two_chances():
    """seed l.39: "能力：发动能力需要消耗2次行动机会" """
    s = board(sq("alice", "C3", "r1:巡林客"), sq("bob", "C6", "w9:战士"))
    assert refusals(s, {"move": "r1", "path": ["B3"]}, {"ability": "射击", "by": "r1", "target": "w9"}) == \
        [("actions[1].ability", "chances")]


def test_ability_of_another_class_refused():
    """seed l.39: "发动能力需要消耗2次行动机会，带*的能力为被动能力" (each class its own)"""
    s = board(sq("alice", "C3", "w1:战士"), sq("bob", "C6", "w9:战士"))
    assert refusals(s, {"ability": "射击", "by": "w1", "target": "w9"}) == [("actions[0].by", "ability.class")]


def test_split_leaves_as_a_new_squad():
    """seed l.53: "离队：可在整个队伍还未行动前，指挥队伍中的某一或两人行动，进行队伍拆分" """
    s = board(sq("alice", "C5", "w1:战士", "r1:巡林客", id="s1"))
    after, _ = turn(s, {"split": ["r1"], "path": ["C6", "C7"], "squad": "s2"}, {"move": "s1", "path": ["B5"]})
    assert squad(after, "s2")["members"] == ["r1"] and pos(after, "s2") == "C7"
    assert squad(after, "s2")["actions_left"] == 1  # ruling R9: 2, the move out its first
    assert pos(after, "s1") == "B5"


def test_no_split_after_acting():
    """seed l.53: "可在整个队伍还未行动前" """
    s = board(sq("alice", "C5", "w1:战士", "r1:巡林客", id="s1"))
    assert refusals(s, {"move": "s1", "path": ["C6"]}, {"split": "r1", "path": ["C7"]}) == \
        [("actions[1].split", "split.acted")]


def test_no_split_at_five_squads():
    """seed l.53: "如果队伍达到5个，则无法进行拆分。" """
    s = board(sq("alice", "C5", "w1:战士", "r1:巡林客"),
              *(sq("alice", c, f"a{c}:圣武士") for c in ("A3", "B3", "C3", "D3")))
    assert refusals(s, {"split": "r1", "path": ["C6"]}) == [("actions[0].split", "split.five")]
