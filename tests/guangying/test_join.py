"""Ruling R8: squads form the seed's way, by summoning onto a squad or by moving into its cell;
the old reading (no merging by a move) as the scenario switch ``rules: {merge_by_move: false}``."""

import pytest

from gm_tool.errors import GmError
from tests.guangying.kit import board, force, of, pos, refusals, sq, squad, turn


def test_moving_into_an_own_squad_joins_it():
    """seed l.51: "组队：两枚战斗棋子处在同一各自内，算作组队，身处最上方的棋子，被当做队长" (R8: the mover goes on top, as
    a summon does, l.13 "棋子可以直接召唤在队友身上，进行组队")"""
    s = board(sq("alice", "C4", "r1:巡林客", id="s1"), sq("alice", "C5", "w2:战士", id="s2"))
    after, events = turn(s, {"move": "s1", "path": ["C5"]})
    q = squad(after, "w2")
    assert q["id"] == "s2" and q["members"] == ["r1", "w2"] and q["pos"] == "C5"
    assert [e["id"] for e in after["squads"] if e["owner"] == "alice"] == ["s2"]
    assert of(events, "move")[0]["joined"] == "s2" and of(events, "join")[0]["into"] == "s2"
    assert "s1" in after["retired"]


def test_joined_squad_keeps_the_fewer_chances():
    """seed l.40: "每个小队每回合开始获得2个行动机会" (R8: a join makes no new chances: the fewer of the two)"""
    s = board(sq("alice", "C4", "r1:巡林客", id="s1"), sq("alice", "C5", "w2:战士", id="s2"))
    assert refusals(s, {"move": "s1", "path": ["C5"]}, {"move": "s2", "path": ["C6"]}) == []
    assert refusals(s, {"move": "s1", "path": ["C5"]}, {"move": "s2", "path": ["C6"]},
                    {"move": "s2", "path": ["C7"]}) == [("actions[2].move", "chances")]
    after, _ = turn(s, {"move": "s1", "path": ["C5"]}, {"move": "s2", "path": ["C6", "C7"]})
    assert pos(after, "r1") == "C7" and pos(after, "w2") == "C7"


def test_a_squad_that_attacked_cannot_attack_again_after_joining():
    """seed l.57: "一回合内，两次行动力都进行攻击命令的话，着转化为全力攻击" (R8: a join keeps "has attacked")"""
    s = board(sq("alice", "C5", "w1:战士", id="s1"), sq("alice", "D5", "w2:战士", id="s2"), sq("bob", "C6", "w9:战士"))
    assert refusals(s, {"attack": "s1", "target": "w9"}, {"move": "s2", "path": ["C5"]},
                    {"attack": "s1", "by": "w2", "target": "w9"}) == [("actions[2].attack", "attack.twice")]


def test_join_within_three_pieces():
    """seed l.47: "小队：最多三枚棋子结成小队" """
    s = board(sq("alice", "C4", "r1:巡林客", "r2:巡林客"), sq("alice", "C5", "w2:战士", "w3:战士"))
    assert refusals(s, {"move": "r1", "path": ["C5"]}) == [("actions[0].path", "path.end_full")]
    assert refusals(s, {"split": ["r2"], "path": ["C5"]}) == []


def test_no_join_with_a_mage_or_bard():
    """seed l.51: "因为法师、诗人无法组队，所以任何棋子无法再他们的格子内停留。" """
    s = board(sq("alice", "C4", "m1:法师"), sq("alice", "C5", "w2:战士"), sq("alice", "D5", "d1:诗人"))
    assert refusals(s, {"move": "m1", "path": ["C5"]}) == [("actions[0].path", "path.end_alone")]
    assert refusals(s, {"move": "w2", "path": ["D5"]}) == [("actions[0].path", "path.end_alone")]


def test_split_piece_rejoins_another_squad():
    """seed l.53: "离队：可在整个队伍还未行动前，指挥队伍中的某一或两人行动，进行队伍拆分" (R8: a piece that left may join
    another squad by moving into it)"""
    s = board(sq("alice", "C4", "w1:战士", "r1:巡林客"), sq("alice", "C6", "w2:战士", id="s2"))
    after, _ = turn(s, {"split": ["r1"], "path": ["C5", "C6"]})
    assert squad(after, "r1")["id"] == "s2" and squad(after, "r1")["members"] == ["r1", "w2"]


def test_join_stopped_on_the_way_by_a_pincer():
    """seed l.56: "致命夹击：如果能被两个队伍同时措手不及，则会被强制停留在原地。" (the move line says where it stopped)"""
    s = board(sq("alice", "C4", "w1:战士:28"), sq("alice", "C7", "w2:战士"),
              sq("bob", "B5", "w8:战士"), sq("bob", "D5", "w9:战士"))
    after, events = turn(s, {"move": "w1", "path": ["C5", "C6", "C7"]})
    assert pos(after, "w1") == "C5" and squad(after, "w1")["members"] == ["w1"]
    move = of(events, "move")[0]
    assert (move["dest"], move["stop"], move["planned"], move["path"]) == ("C5", "pincer", "C7", ["C5"])
    assert "joined" not in move


def test_switch_keeps_the_old_reading():
    """seed l.13: "棋子可以直接召唤在队友身上，进行组队" (rules: {merge_by_move: false}: squads form only by summoning)"""
    s = board(sq("alice", "C4", "w1:战士"), sq("alice", "C5", "w2:战士"), rules={"merge_by_move": False})
    assert s["rules"]["merge_by_move"] is False
    assert refusals(s, {"move": "w1", "path": ["C5"]}) == [("actions[0].path", "path.end_occupied")]
    after, _ = force(s, {"move": "w1", "path": ["C5", "C6"]})
    assert pos(after, "w1") == "C6"


@pytest.mark.parametrize("rules, field", [({"merge_by_move": "yes"}, "rules.merge_by_move"),
                                          ({"portal_area": "everywhere"}, "rules.portal_area"),
                                          ({"merging": True}, "rules.merging")])
def test_bad_switches_are_refused(rules, field):
    """seed l.51 (a scenario's rules: only the declared switches, with their allowed values)"""
    with pytest.raises(GmError) as exc:
        board(sq("alice", "C4", "w1:战士"), rules=rules)
    assert [p.field for p in exc.value.problems] == [field]


def test_default_rules_are_the_seeds_reading():
    """seed l.51, l.9 (a scenario that says nothing plays the seed's readings)"""
    s = board(sq("alice", "C4", "w1:战士"))
    assert s["rules"] == {"merge_by_move": True, "portal_area": "neutral_area"}
