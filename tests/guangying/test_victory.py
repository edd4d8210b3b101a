"""Rule cases: the three victory conditions and the draw rule (seed 三, l.19-24; contract G27, §8)."""

from tests.guangying.kit import board, of, passes, player, sq, turn


def test_fortress_starts_at_100():
    """seed l.49: "要塞：生命力为100的要塞" """
    s = board()
    assert [p["fortress_hp"] for p in s["players"]] == [100, 100]
    assert player(s, "alice")["fortress"] == ["E1", "F1", "E2", "F2"]
    assert player(s, "bob")["fortress"] == ["E11", "F11", "E12", "F12"]


def test_attack_on_the_fortress():
    """seed l.22: "要塞破坏：摧毁对方的要塞，则赢得比赛。" (G2: a squad within 1 of one of its cells)"""
    s = board(sq("alice", "D11", "w1:战士"))
    after, events = turn(s, {"full_attack": "w1", "target": "fortress"})
    assert player(after, "bob")["fortress_hp"] == 92
    assert of(events, "fortress_damage")[0]["amount"] == 8


def test_fortress_out_of_reach():
    """seed l.22: "摧毁对方的要塞" (only from within 1 of its cells)"""
    s = board(sq("alice", "C11", "w1:战士"))
    from tests.guangying.kit import refusals
    assert refusals(s, {"attack": "w1", "target": "fortress"}) == [("actions[0].target", "target.out_of_reach")]


def test_second_player_destroying_the_fortress_wins_at_once():
    """seed l.49: "要塞被摧毁，则游戏失败，对方胜利。" """
    s = board(sq("alice", "D11", "w1:战士"), first="bob", fortress_hp={"bob": 4})
    s, _ = passes(s)  # bob, the first player
    after, events = turn(s, {"attack": "w1", "target": "fortress"})
    assert after["winner"] == "alice" and after["next"] is None
    assert of(events, "game_over")[0]["how"] == "fortress"


def test_first_player_win_gives_the_second_one_more_turn():
    """seed l.23: "平局：后手在先手赢得比赛后，可以再行动一次，如果也可以赢得比赛，则平局。" """
    s = board(sq("alice", "D11", "w1:战士"), fortress_hp={"bob": 4})
    s, events = turn(s, {"attack": "w1", "target": "fortress"})
    assert s["winner"] is None and s["pending_win"] == "alice" and s["next"] == "bob"
    after, events = passes(s)
    assert after["winner"] == "alice" and after["pending_win"] is None


def test_second_player_ties_in_the_extra_turn():
    """seed l.23: "如果也可以赢得比赛，则平局。" """
    s = board(sq("alice", "D11", "w1:战士"), sq("bob", "D2", "w9:战士"),
              fortress_hp={"bob": 4, "alice": 4})
    s, _ = turn(s, {"attack": "w1", "target": "fortress"})
    after, _ = turn(s, {"attack": "w9", "target": "fortress"})
    assert after["winner"] == "draw" and after["pending_win"] is None


def test_rest_of_sheet_skipped_after_the_win():
    """seed l.24: "注：三种胜利方式，达成任何一种均算作胜利。" (contract §4: once decided, the rest is skipped)"""
    s = board(sq("alice", "D11", "w1:战士"), first="bob", fortress_hp={"bob": 4})
    s, _ = passes(s)
    after, events = turn(s, {"attack": "w1", "target": "fortress"}, {"move": "w1", "path": ["C11"]})
    assert of(events, "action_skipped") == []
    assert [(e["first"], e["last"], e["reason"]) for e in of(events, "rest_skipped")] == [(2, 2, "game_over")]


def test_no_guardian_for_three_own_turns_loses():
    """seed l.14: "场上必须同时存在护卫者（战士、圣武士）与职业者（其他所有职业。），否则会失败的。" and l.20 (三回合内; §8)"""
    s = board(sq("alice", "C5", "r1:巡林客"), sq("bob", "C10", "w9:战士", "r9:巡林客"))
    for _ in range(2):
        s, _ = passes(s)  # alice
        s, _ = passes(s)  # bob
    assert player(s, "alice")["guardian_missing_turns"] == 2 and s["winner"] is None
    after, events = passes(s)
    assert after["winner"] == "bob"
    assert of(events, "missing_lost")[0]["what"] == "guardian"


def test_no_professional_for_three_own_turns_loses():
    """seed l.21: "屠戮胜利：棋盘上，三回合内，没有战士与圣武士之外的棋子在场，则失败。" (§8: no 职业者)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C10", "w9:战士", "r9:巡林客"), first="bob")
    for _ in range(2):
        s, _ = passes(s)
        s, _ = passes(s)
    assert player(s, "alice")["professional_missing_turns"] == 2
    s, _ = passes(s)  # bob
    after, _ = passes(s)  # alice's third turn without a professional
    assert after["winner"] == "bob" and after["pending_win"] is None  # bob, the first player, wins in alice's turn


def test_counter_resets_when_the_board_is_whole_again():
    """seed l.20: "三回合内，没有除了战士与圣武士之外的棋子在场，则失败。" (consecutive own turns)"""
    s = board(sq("alice", "C2", "r1:巡林客"), sq("bob", "C10", "w9:战士", "r9:巡林客"))
    s, _ = passes(s)
    s, _ = passes(s)
    s, _ = turn(s, {"summon": "战士", "at": "D2"})
    assert player(s, "alice")["guardian_missing_turns"] == 0


def test_turns_counted_are_the_players_own():
    """seed l.20: "三回合内" (§8: own turns; the second player is not judged on the first's)"""
    s = board(sq("alice", "C5", "w1:战士", "r1:巡林客"))
    s, _ = passes(s)
    assert player(s, "bob")["guardian_missing_turns"] == 0
    s, _ = passes(s)
    assert player(s, "bob")["guardian_missing_turns"] == 1


def test_empty_start_gives_two_turns_to_field_both():
    """seed l.14: "场上必须同时存在护卫者（战士、圣武士）与职业者" (the seed's empty start)"""
    s = board()
    s, _ = turn(s, {"summon": "战士", "at": "C3"})
    s, _ = passes(s)
    s, _ = turn(s, {"summon": "巡林客", "at": "D3"})
    a = player(s, "alice")
    assert (a["guardian_missing_turns"], a["professional_missing_turns"]) == (0, 0)
