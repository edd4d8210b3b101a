"""Order sheets (contract §3-4): aliases, cells, ids, who is due, and problems named by field."""

import pytest

from gm_tool.errors import GmError
from gm_tool.rulesets.guangying import RULESET
from tests.guangying.kit import board, pos, refusals, sq, squad, turn


def test_chinese_aliases():
    """seed l.50: "棋子召唤：每回合可以召唤一枚战斗棋子入场。" (the sheet may use the seed's words)"""
    s = board()
    sheet = {"回合": 1, "玩家": "alice", "行动": [{"召唤": "战士", "位置": "C3", "编号": "w1", "小队": "t1"}],
             "常设": {"队长死亡": "回手"}}
    orders = RULESET.parse_orders(s, sheet, "a.yaml", "zh")
    after = RULESET.resolve(s, {"alice": orders}, "x").state
    assert squad(after, "w1")["id"] == "t1"
    assert after["players"][0]["standing"]["leader_dies"] == "return"


def test_english_class_names():
    """seed l.29: "战士：生命：28战力：4移动：3" (classes also in English)"""
    s = board()
    after, _ = turn(s, {"summon": "warrior", "at": "C3", "id": "w1"})
    assert after["pieces"][0]["class"] == "战士"


@pytest.mark.parametrize("cell", ["C,5", "(C,5)", "c5"])
def test_cell_spellings(cell):
    """seed l.7: "棋盘为12行*10列的格子棋盘" (cells C5, C,5, (C,5))"""
    s = board(sq("alice", "C4", "w1:战士"))
    after, _ = turn(s, {"move": "w1", "path": [cell]})
    assert pos(after, "w1") == "C5"


def test_orientation_aliases():
    """seed l.28: "创造横向或者纵向，三个身位格的风墙。" """
    s = board(sq("alice", "C5", "u1:德鲁伊"))
    after, _ = turn(s, {"能力": "风墙", "发动者": "u1", "位置": "D5", "方向": "纵向"})
    assert after["markers"][0]["cells"] == ["D4", "D5", "D6"]
    assert after["markers"][0]["id"] == "alice-wall1"


def test_not_due():
    """seed l.5: "双方选出一位先攻，由其开始进行召唤。" (players alternate: bob is not due at turn 1)"""
    s = board()
    with pytest.raises(GmError) as exc:
        RULESET.parse_orders(s, {"turn": 1, "player": "bob"}, "b.yaml", "en")
    assert exc.value.problems[0].code == "guangying.orders.not_due"
    assert exc.value.problems[0].field == "player"


def test_wrong_turn():
    """seed l.40: "每个小队每回合开始获得2个行动机会" (a sheet is one numbered turn)"""
    s = board()
    with pytest.raises(GmError) as exc:
        RULESET.parse_orders(s, {"turn": 2, "player": "alice"}, "a.yaml", "en")
    assert exc.value.problems[0].code == "orders.turn"


def test_only_turn_and_player_required():
    """seed l.11: "每回合回手的棋子无限制" (an empty sheet is a pass)"""
    s = board()
    assert refusals(s) == []


def test_unknown_verb_and_key():
    """seed l.40: "可以用于：移动（1）攻击（1）发动能力（2）" (nothing else)"""
    s = board(sq("alice", "C4", "w1:战士"))
    problems = refusals(s, {"fly": "w1"}, {"move": "w1", "path": ["C5"], "speed": 3})
    assert problems == [("actions[0]", "guangying.sheet.verb"), ("actions[1].speed", "field.unknown")]


def test_every_problem_listed():
    """seed l.16: "每回和只可以进行一次召唤。" (check lists every illegal action, each with its index)"""
    s = board(sq("alice", "C4", "w1:战士"))
    problems = refusals(s, {"summon": "战士", "at": "C9"}, {"move": "w1", "path": ["C6"]},
                        {"attack": "w1", "target": "nobody"})
    assert [f for f, _ in problems] == ["actions[0].at", "actions[1].path[0]", "actions[2].target"]


def test_check_assumes_earlier_actions_went_as_written():
    """seed l.51: "两枚战斗棋子处在同一各自内，算作组队" (a summon fills the cell a later move ends on)"""
    s = board(sq("alice", "C4", "w1:战士"))
    assert refusals(s, {"summon": "巡林客", "at": "C3"}, {"move": "w1", "path": ["C3"]}) == \
        [("actions[1].path", "path.end_occupied")]


def test_reserved_and_taken_ids():
    """seed l.29: "战士" (a class name is no id; ids are unique)"""
    s = board(sq("alice", "C4", "w1:战士"))
    assert refusals(s, {"summon": "战士", "at": "C3", "id": "warrior"}) == [("actions[0].id", "id.reserved")]
    assert refusals(s, {"summon": "战士", "at": "C3", "id": "fortress"}) == [("actions[0].id", "id.reserved")]
    assert refusals(s, {"summon": "战士", "at": "C3", "id": "w1"}) == [("actions[0].id", "id.taken")]
    assert refusals(s, {"summon": "战士", "at": "C3", "id": "a b"}) == [("actions[0].id", "id.bad")]


def test_squad_named_by_any_piece():
    """seed l.47: "最多三枚棋子结成小队" (a squad is named by its id or any of its pieces)"""
    s = board(sq("alice", "C4", "w1:战士", "r1:巡林客", id="s1"))
    after, _ = turn(s, {"move": "r1", "path": ["C5"]})
    assert pos(after, "s1") == "C5"


def test_foreign_squad_refused():
    """seed l.40: "每个小队每回合开始获得2个行动机会" (one's own squads only)"""
    s = board(sq("alice", "C4", "w1:战士"), sq("bob", "C8", "w9:战士"))
    assert refusals(s, {"move": "w9", "path": ["C7"]}) == [("actions[0].move", "squad.unknown")]


def test_error_messages_name_what_is_allowed():
    """seed l.8: "靠近对方的三行是中立区域，无法进行棋子召唤" (the message lists the allowed cells)"""
    s = board()
    with pytest.raises(GmError) as exc:
        RULESET.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"summon": "战士", "at": "C5"}]},
                             "a.yaml", "en")
    text = exc.value.render("en")
    assert "a.yaml: actions[0].at:" in text and "A1" in text
    assert "不能召唤到" in exc.value.render("zh")


def test_template_validates_and_lists_moves():
    """seed l.40: "每个小队每回合开始获得2个行动机会" (the pre-filled sheet names legal moves)"""
    from gm_tool.core import safeyaml

    s = board(sq("alice", "C4", "w1:战士"), sq("bob", "C6", "w9:战士"))
    text = RULESET.template(s, "alice", "zh")
    sheet = safeyaml.loads(text, "t.yaml")
    assert RULESET.parse_orders(s, sheet, "t.yaml", "zh").actions == []
    assert "可到达" in text and "fortress" not in text.split("可攻击")[0][-5:]
    for line in text.splitlines():
        if line.startswith("#   - {"):
            one = safeyaml.loads(line[4:].lstrip("- "), "l.yaml")
            assert refusals(s, one) == [], line


def test_standing_kept_until_changed():
    """seed l.54: "如果队长死亡，其他棋子，可以选择继续战斗或者直接回手。" (contract §3: kept until a later sheet changes it)"""
    s = board(sq("bob", "A10", "w9:战士"))
    s, _ = turn(s, standing={"leader_dies": "return"})
    s, _ = turn(s)
    s, _ = turn(s, standing={"squads": {"t1": "fight_on"}})
    assert s["players"][0]["standing"] == {"leader_dies": "return", "squads": {"t1": "fight_on"}}


def test_one_step_path_as_a_cell():
    """seed l.45: "每次移动一个格子，算作消耗一点移动力。" (path: C5 is path: [C5])"""
    s = board(sq("alice", "C4", "w1:战士"))
    after, _ = turn(s, {"move": "w1", "path": "C,5"})
    assert pos(after, "w1") == "C5"
    assert refusals(s, {"move": "w1", "path": "C5 C6"}) == [("actions[0].path", "guangying.sheet.path")]
