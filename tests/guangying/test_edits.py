"""GM edits that hold (issue 22, ruling R34): every edit is checked against what the game can hold
and refused with the argument at fault and what is allowed; pieces named as sheets name them; the
edits a real game needs (return to hand, revive, place a marker, standing orders) and undoing an
edit not yet resolved."""

import json

import pytest

from gm_tool import app
from gm_tool.errors import GmError
from gm_tool.rulesets.guangying import RULESET
from tests.guangying.kit import board, hp, player, pos, sq, squad, turn

SEED = "a-long-enough-test-seed-0123456789"


def edit(state, action, *args):
    return RULESET.amend(state, {"action": action, "args": list(args), "reason": "r"}, "gm amend")


def refused(state, action, *args):
    with pytest.raises(GmError) as exc:
        edit(state, action, *args)
    p = exc.value.problems[0]
    return p.field, p.code.removeprefix("guangying.amend."), exc.value.render("en")


def test_set_hp_within_the_pieces_max():
    """seed l.41: "生命：每个棋子的生命力" with l.30 "圣武士：生命：36" (set-hp zpal 99 is refused: at most 36)"""
    s = board(sq("alice", "C5", "zpal:圣武士:20"))
    field, code, text = refused(s, "set_hp", "zpal", 99)
    assert (field, code) == ("args.1", "hp") and "1-36" in text
    after, events = edit(s, "set_hp", "ZPAL", 36)
    assert hp(after, "zpal") == 36 and events[0]["args"] == ["zpal", "36"]


def test_set_hp_of_a_piece_in_hand():
    """seed l.11: "回手后，棋子会以每回合2点的速度，回复生命。" (a piece in hand is edited too)"""
    s = board(in_hand={"alice": [{"id": "r1", "class": "巡林客", "hp": 5}]})
    after, _ = edit(s, "set_hp", "r1", 15)
    assert hp(after, "r1") == 15


def test_set_fortress_within_its_max():
    """seed l.49: "要塞：生命力为100的要塞" (set-fortress 150 is refused)"""
    s = board()
    field, code, text = refused(s, "set_fortress", "bob", 150)
    assert (field, code) == ("args.1", "fortress_hp") and "1-100" in text
    after, _ = edit(s, "set_fortress", "bob", 60)
    assert player(after, "bob")["fortress_hp"] == 60
    assert refused(s, "set_fortress", "carol", 60)[:2] == ("args.0", "player")


def test_move_accepts_a_piece_or_a_label_and_only_a_free_cell():
    """seed l.51: "两枚战斗棋子处在同一各自内，算作组队" (move names a squad as sheets do; onto no squad, rock or fortress)"""
    s = board(sq("alice", "C5", "w1:战士", "r1:巡林客", id="s1"), sq("bob", "D8", "w9:战士"))
    after, events = edit(s, "move", "r1", "D7")
    assert pos(after, "w1") == "D7" and events[0]["args"] == ["s1", "D7"]
    after, _ = edit(s, "move", "a#1", "(C,6)")
    assert pos(after, "w1") == "C6"
    for cell in ("D8", "E1", "K3"):
        assert refused(s, "move", "s1", cell)[:2] == ("args.1", "cell")
    assert refused(s, "move", "nobody", "C6")[:2] == ("args.0", "squad")


def test_return_a_piece_to_hand():
    """seed l.11: "棋子可以在本阵中，进行回手" (the GM takes a piece back to hand: not fled)"""
    s = board(sq("alice", "C5", "w1:战士:20", "r1:巡林客"))
    after, _ = edit(s, "return", "w1")
    assert [h["id"] for h in player(after, "alice")["in_hand"]] == ["w1"]
    assert player(after, "alice")["in_hand"][0]["cannot_return_until"] is None
    assert squad(after, "r1")["members"] == ["r1"]


def test_revive_a_dead_piece_to_hand():
    """seed l.41: "归零的话，棋子死亡无法复活。" (the rule; a GM mends a mistake: the piece back to hand)"""
    s = board(sq("alice", "C5", "w1:战士"))
    s, _ = edit(s, "kill", "w1")
    assert refused(s, "revive", "w1", 40)[:2] == ("args.1", "hp")
    assert refused(s, "revive", "w7", 10)[:2] == ("args.0", "dead")
    after, _ = edit(s, "revive", "w1", 10)
    assert player(after, "alice")["dead"] == [] and hp(after, "w1") == 10
    after, _ = turn(after, {"summon": "w1", "at": "C2"})
    assert pos(after, "w1") == "C2"


def test_place_a_marker_from_the_pool():
    """seed l.3: "4个岩标记与2个风墙标记" with l.35 "风墙释放时候，不可以覆盖任何人" (from the pool, on free cells)"""
    s = board(sq("alice", "C5", "w1:战士"))
    after, _ = edit(s, "place_marker", "bob", "风墙", "D5", "E5", "F5")
    wall = after["markers"][0]
    assert (wall["id"], wall["kind"], wall["owner"], wall["cells"]) == ("bob-wall1", "风墙", "bob", ["D5", "E5", "F5"])
    assert player(after, "bob")["pool"]["风墙"] == 1
    assert refused(s, "place_marker", "bob", "wall", "C5", "D5")[:2] == ("args.2", "cell")
    assert refused(s, "place_marker", "bob", "rock", "D5", "E5")[:2] == ("args.2", "marker_cells")
    assert refused(s, "place_marker", "bob", "wall", "D5", "F5")[:2] == ("args.2", "marker_cells")
    assert refused(s, "place_marker", "bob", "tree", "D5")[:2] == ("args.1", "kind")
    after, _ = edit(after, "place_marker", "bob", "wall", "A9")
    assert refused(after, "place_marker", "bob", "wall", "B9")[:2] == ("args.1", "pool")


def test_set_and_clear_standing_orders():
    """seed l.54: "如果队长死亡，其他棋子，可以选择继续战斗或者直接回手。" and l.17 "任何时间" (ruling R35)"""
    s = board(sq("alice", "C5", "w1:战士", id="s1"))
    s, _ = edit(s, "set_standing", "alice", "leader_dies", "回手")
    s, _ = edit(s, "set_standing", "alice", "squad", "s1", "fight_on")
    s, _ = edit(s, "set_standing", "alice", "return", "w1", "10")
    assert player(s, "alice")["standing"] == {"leader_dies": "return", "squads": {"s1": "fight_on"},
                                              "return": {"w1": 10}, "suicide": {}}
    assert refused(s, "set_standing", "alice", "squad", "s9", "return")[:2] == ("args.2", "squad")
    assert refused(s, "set_standing", "alice", "return", "w1")[:2] == ("args.1", "standing")
    after, _ = edit(s, "clear_standing", "alice", "return", "w1")
    assert player(after, "alice")["standing"]["return"] == {}
    after, _ = edit(s, "clear_standing", "alice", "all")
    assert player(after, "alice")["standing"] == {"leader_dies": "fight_on", "squads": {}, "return": {}, "suicide": {}}


def test_edits_are_told_in_words(tmp_path):
    """seed l.49: "要塞：生命力为100的要塞" (the edit in the next public post, no raw code: 'GM 修改：将 bob 的要塞生命设为 60')"""
    root = tmp_path / "c"
    app.new_campaign(root, "standard", SEED, "zh")
    app.amend(root, "set-fortress", ["bob", "60"], "录入错误")
    app.resolve(root)
    text = (root / "reports" / "turn-001" / "public.md").read_text("utf-8")
    assert "GM 修改：将 **bob** 的要塞生命设为 60（理由：录入错误）。" in text and "set_fortress" not in text


def test_undo_an_edit_not_yet_resolved(tmp_path):
    """seed l.41: "归零的话，棋子死亡无法复活。" (a kill made by mistake is undone before the turn is resolved)"""
    root = tmp_path / "c"
    app.new_campaign(root, "standard", SEED, "zh")
    sheet = tmp_path / "a.yaml"
    sheet.write_text("turn: 1\nplayer: alice\nactions:\n  - {召唤: 战士, 位置: C3, 编号: w1}\n", "utf-8")
    app.submit(root, sheet, "zh")
    app.resolve(root)
    app.amend(root, "kill", ["w1"], "误杀")
    assert "w1" in app.open_campaign(root).state()["players"][0]["dead"]
    app.amend(root, "set-fortress", ["bob", "90"], "修正")
    app.amend(root, "undo", [], "撤销上一条")
    app.amend(root, "undo", [], "再撤销")
    state = app.open_campaign(root).state()
    assert state["pieces"][0]["id"] == "w1" and state["players"][1]["fortress_hp"] == 100
    with pytest.raises(GmError) as exc:
        app.amend(root, "undo", [], "没有可撤销的")
    assert exc.value.problems[0].code == "amend.nothing_to_undo"
    app.amend(root, "set-fortress", ["bob", "80"], "修正")
    app.resolve(root)
    after = json.loads((root / "state" / "turn-002.json").read_text("utf-8"))
    assert after["players"][1]["fortress_hp"] == 80 and "w1" not in after["players"][0]["dead"]
    text = (root / "reports" / "turn-002" / "public.md").read_text("utf-8")
    assert "误杀" not in text and "80" in text
    assert app.verify(root, SEED)
