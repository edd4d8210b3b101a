"""Rule cases: pools, summoning, its penalty and limits, 回手 and regeneration, upkeep."""

from tests.guangying.kit import board, hp, of, passes, player, pos, refusals, sq, squad, turn


def test_pools_hold_the_seed_counts():
    """seed l.3: "初始双方会获得44枚圆棋子与两枚长棋子。分别是40个战斗职业者与4个岩标记与2个风墙标记。" """
    s = board()
    pool = player(s, "alice")["pool"]
    assert sum(v for k, v in pool.items() if k not in ("岩", "风墙")) == 40
    assert (pool["岩"], pool["风墙"]) == (4, 2)
    assert pool == {"野蛮人": 3, "诗人": 2, "牧师": 4, "德鲁伊": 2, "战士": 9, "圣武士": 9, "巡林客": 5,
                    "游荡者": 3, "术士": 2, "法师": 1, "岩": 4, "风墙": 2}


def test_summon_in_home_rows():
    """seed l.8: "自己半边的格子中，靠近自己的三行是本阵，可以进行召唤" """
    s = board()
    after, events = turn(s, {"summon": "战士", "at": "C3", "id": "w1"})
    assert pos(after, "w1") == "C3"
    assert player(after, "alice")["pool"]["战士"] == 8
    assert of(events, "summon")[0]["via"] == "home"


def test_no_summon_in_neutral_rows():
    """seed l.8: "靠近对方的三行是中立区域，无法进行棋子召唤" """
    s = board()
    assert refusals(s, {"summon": "战士", "at": "C4"}) == [("actions[0].at", "summon.cell")]


def test_never_in_the_enemy_home():
    """seed l.12: "永远也无法在敌方本阵中，召唤自己的棋子。" """
    s = board()
    assert refusals(s, {"summon": "游荡者", "at": "C11"}) == [("actions[0].at", "summon.cell")]


def test_rogue_summons_one_row_beyond_home():
    """seed l.32: "可以直接在本阵外一行进行召唤" """
    s = board()
    assert refusals(s, {"summon": "游荡者", "at": "C4"}) == []
    assert refusals(s, {"summon": "游荡者", "at": "C5"}) == [("actions[0].at", "summon.cell")]


def test_north_player_home_rows():
    """seed l.8: "自己半边的格子中，靠近自己的三行是本阵" (bob: rows 10-12)"""
    s = board(first="bob")
    assert refusals(s, {"summon": "战士", "at": "C10"}) == []
    assert refusals(s, {"summon": "战士", "at": "C9"}) == [("actions[0].at", "summon.cell")]


def test_not_on_a_fortress_cell():
    """seed l.4: "放置一个占地四个格子的要塞。" """
    s = board()
    assert refusals(s, {"summon": "战士", "at": "E1"}) == [("actions[0].at", "summon.cell")]


def test_one_summon_a_turn():
    """seed l.16: "每回和只可以进行一次召唤。" """
    s = board()
    assert refusals(s, {"summon": "战士", "at": "C3"}, {"summon": "巡林客", "at": "D3"}) == \
        [("actions[1].summon", "summon.twice")]


def test_summon_penalty():
    """seed l.46: "召唤惩罚：新被召唤的棋子，当前回合没有行动机会。" """
    s = board()
    assert refusals(s, {"summon": "战士", "at": "C3", "id": "w1"}, {"move": "w1", "path": ["C4"]}) == \
        [("actions[1].move", "chances")]


def test_summon_onto_a_squad_goes_on_top_and_penalises_it():
    """seed l.13: "棋子可以直接召唤在队友身上，进行组队，但如果如此做的话，整个队伍将受到召唤惩罚" """
    s = board(sq("alice", "C3", "w1:战士"))
    after, _ = turn(s, {"summon": "巡林客", "at": "C3", "id": "r1"})
    assert squad(after, "w1")["members"] == ["r1", "w1"]
    assert refusals(s, {"summon": "巡林客", "at": "C3"}, {"move": "w1", "path": ["C4"]}) == \
        [("actions[1].move", "chances")]


def test_no_more_than_three_in_a_squad():
    """seed l.47: "小队：最多三枚棋子结成小队" """
    s = board(sq("alice", "C3", "w1:战士", "w2:战士", "w3:战士"))
    assert refusals(s, {"summon": "巡林客", "at": "C3"}) == [("actions[0].at", "summon.full")]


def test_no_summon_onto_a_mage():
    """seed l.34: "不会受到巡林客与术士的远程伤害，同时无法组队。" """
    s = board(sq("alice", "C3", "m1:法师"))
    assert refusals(s, {"summon": "战士", "at": "C3"}) == [("actions[0].at", "summon.alone")]


def test_no_bard_onto_a_squad():
    """seed l.26: "不会受到巡林客与术士的远程伤害，同时无法组队。" """
    s = board(sq("alice", "C3", "w1:战士"))
    assert refusals(s, {"summon": "诗人", "at": "C3"}) == [("actions[0].at", "summon.alone")]


def test_ten_pieces_on_the_board():
    """seed l.10: "每位玩家同时可以在场10枚棋子" """
    s = board(*(sq("alice", c, f"a{c}:战士", f"b{c}:圣武士") for c in ("A3", "B3", "C3", "D3", "G3")))
    assert refusals(s, {"summon": "战士", "at": "A2"}) == [("actions[0].summon", "summon.ten")]


def test_five_squads():
    """seed l.10: "最多成为5个队伍（单人行动也算作一个一人队伍。）" """
    s = board(*(sq("alice", c, f"a{c}:圣武士") for c in ("A3", "B3", "C3", "D3", "G3")))
    assert refusals(s, {"summon": "战士", "at": "A2"}) == [("actions[0].at", "summon.five")]
    assert refusals(s, {"summon": "战士", "at": "A3"}) == []


def test_pool_runs_out():
    """seed l.44: "棋子数量：职业的棋子总量，死亡后便会消失，无法重复使用。" """
    s = board(pool={"alice": {"法师": 0}})
    assert refusals(s, {"summon": "法师", "at": "C3"}) == [("actions[0].summon", "summon.pool_empty")]


def test_summoned_next_to_an_enemy_is_ambushed():
    """seed l.50: "如果棋子召唤的地点，有敌人可以攻击到，算作这枚棋子被措手不及" """
    s = board(sq("bob", "C4", "g9:游荡者"))
    after, events = turn(s, {"summon": "战士", "at": "C3", "id": "w1"})
    assert hp(after, "w1") == 18
    assert of(events, "reaction")[0]["kind"] == "ambush"


def test_portal_summon_has_no_penalty():
    """seed l.34: "开启传送阵：可以让棋子直接从法师四周1身位格内入场，并没有召唤惩罚。" """
    s = board(sq("alice", "C5", "m1:法师"))
    after, events = turn(s, {"ability": "开启传送阵", "by": "m1"}, {"summon": "战士", "at": "C6", "id": "w1"},
                         {"move": "w1", "path": ["C7"]})
    assert pos(after, "w1") == "C7"
    assert of(events, "summon")[0]["via"] == "portal"


def test_portal_only_next_to_the_mage():
    """seed l.34: "可以让棋子直接从法师四周1身位格内入场" """
    s = board(sq("alice", "C5", "m1:法师"))
    assert refusals(s, {"ability": "开启传送阵", "by": "m1"}, {"summon": "战士", "at": "D6"}) == \
        [("actions[1].at", "summon.cell")]


def test_portal_not_in_enemy_home():
    """seed l.8: "（法师的召唤阵可以在本阵与中立区域展开）" """
    s = board(sq("alice", "C10", "m1:法师"))
    assert refusals(s, {"ability": "开启传送阵", "by": "m1"}) == [("actions[0].by", "portal.rows")]


def test_portal_summon_is_ambushed_too():
    """seed l.50: "（...算作这枚棋子被措手不及，哪怕是由法师召唤阵走出的也一样。）" """
    s = board(sq("alice", "C5", "m1:法师"), sq("bob", "C7", "w9:战士"))
    after, _ = turn(s, {"ability": "开启传送阵", "by": "m1"}, {"summon": "战士", "at": "C6", "id": "w1"})
    assert hp(after, "w1") == 24


def test_return_to_hand_in_home_rows():
    """seed l.11: "棋子可以在本阵中，进行回手，每回合回手的棋子无限制" """
    s = board(sq("alice", "C2", "w1:战士:20", "r1:巡林客"), sq("alice", "D3", "p1:圣武士"))
    after, _ = turn(s, {"return": ["w1", "p1"]})
    assert [h["id"] for h in player(after, "alice")["in_hand"]] == ["w1", "p1"]
    assert squad(after, "r1")["members"] == ["r1"]


def test_return_a_whole_squad():
    """seed l.11: "每回合回手的棋子无限制" (contract §3: piece, list or squad)"""
    s = board(sq("alice", "C2", "w1:战士", "r1:巡林客", id="s1"))
    after, _ = turn(s, {"return": "s1"})
    assert squad(after, "w1") is None
    assert len(player(after, "alice")["in_hand"]) == 2


def test_no_return_outside_home():
    """seed l.11: "棋子可以在本阵中，进行回手" """
    s = board(sq("alice", "C4", "w1:战士"))
    assert refusals(s, {"return": "w1"}) == [("actions[0].return", "return.not_home")]


def test_hand_regenerates_two_a_turn():
    """seed l.11: "回手后，棋子会以每回合2点的速度，回复生命。" """
    s = board(in_hand={"alice": [{"id": "w1", "class": "战士", "hp": 10}]})
    after, _ = passes(s)
    assert hp(after, "w1") == 12


def test_returned_piece_comes_back_with_its_hp():
    """seed l.11: "回手后，棋子会以每回合2点的速度，回复生命。" """
    s = board(in_hand={"alice": [{"id": "w1", "class": "战士", "hp": 10}]})
    after, _ = turn(s, {"summon": "w1", "at": "C3"})
    assert hp(after, "w1") == 12 and not player(after, "alice")["in_hand"]


def test_home_rows_heal_one():
    """seed l.59: "本阵：在本阵的伤员，每回合可以自行恢复1点生命。" """
    s = board(sq("alice", "C2", "w1:战士:20"), sq("alice", "C5", "w2:战士:20"))
    after, _ = passes(s)
    assert (hp(after, "w1"), hp(after, "w2")) == (21, 20)


def test_paladin_regenerates():
    """seed l.30: "每回合，自动回复圣武士自身生命力1点" """
    s = board(sq("alice", "C5", "p1:圣武士:30"))
    after, _ = passes(s)
    assert hp(after, "p1") == 31


def test_paladin_member_passive_off():
    """seed l.47: "（被动能力，不会发动）" (a paladin member under a ranger leader)"""
    s = board(sq("alice", "C5", "r1:巡林客", "p1:圣武士:30"))
    after, _ = passes(s)
    assert hp(after, "p1") == 30


def test_paladin_member_passive_on_under_a_warrior():
    """seed l.29: "且成员被动能力持续启动" """
    s = board(sq("alice", "C5", "w1:战士", "p1:圣武士:30"))
    after, _ = passes(s)
    assert hp(after, "p1") == 31


def test_healing_never_passes_max():
    """seed l.41: "生命：每个棋子的生命力" (G7: never past max HP)"""
    s = board(sq("alice", "C2", "p1:圣武士:36"))
    after, _ = passes(s)
    assert hp(after, "p1") == 36


def test_upkeep_only_for_the_player_whose_turn_it_is():
    """seed l.59: "每回合可以自行恢复1点生命。" (G7: once in each of its owner's turns)"""
    s = board(sq("bob", "C11", "w9:战士:20"))
    after, _ = passes(s)
    assert hp(after, "w9") == 20
    after, _ = passes(after)
    assert hp(after, "w9") == 21


def test_new_ids_are_generated():
    """seed l.3: "初始双方会获得44枚圆棋子" (contract §3: unnamed new ones get player-class-n and player-s-n)"""
    s = board()
    after, _ = turn(s, {"summon": "战士", "at": "C3"})
    assert squad(after, "alice-warrior1")["id"] == "alice-s1"
