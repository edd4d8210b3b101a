"""Order sheets (contract §3-4): aliases, cells, ids, who is due, and problems named by field."""

import pytest

from gm_tool import app
from gm_tool.errors import GmError
from gm_tool.rulesets.guangying import RULESET
from tests.guangying.kit import board, of, pos, refusals, sq, squad, turn


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
    """seed l.51: "因为法师、诗人无法组队，所以任何棋子无法再他们的格子内停留。" (a summon fills the cell a
    later move ends on)"""
    s = board(sq("alice", "C4", "w1:战士"))
    assert refusals(s, {"summon": "法师", "at": "C3"}, {"move": "w1", "path": ["C3"]}) == \
        [("actions[1].path", "path.end_alone")]


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
    s = board(sq("alice", "A2", "w1:战士"), sq("bob", "A10", "w9:战士"))
    s, _ = turn(s, standing={"leader_dies": "return"})
    s, _ = turn(s)
    s, _ = turn(s, standing={"squads": {"alice-s1": "fight_on"}})
    assert s["players"][0]["standing"] == {"leader_dies": "return", "squads": {"alice-s1": "fight_on"},
                                           "return": {}, "suicide": {}}


def test_one_step_path_as_a_cell():
    """seed l.45: "每次移动一个格子，算作消耗一点移动力。" (path: C5 is path: [C5])"""
    s = board(sq("alice", "C4", "w1:战士"))
    after, _ = turn(s, {"move": "w1", "path": "C,5"})
    assert pos(after, "w1") == "C5"
    assert refusals(s, {"move": "w1", "path": "C5 C6"}) == [("actions[0].path", "guangying.sheet.path")]


# --- what players type (issue 22: names normalised as cells are) ---------------------------------

def _check(tmp_path, text, lang="zh"):
    """`gm check` of a sheet text on a fresh standard game: the problem lines, as printed."""
    root = tmp_path / "c"
    if not root.exists():
        app.new_campaign(root, "standard", "a-long-enough-test-seed-0123456789", "zh")
    path = tmp_path / "s.yaml"
    path.write_text(text, "utf-8")
    try:
        app.check_files(app.open_campaign(root), [path], lang)
    except GmError as exc:
        return [line.replace(str(path), "s.yaml") for line in exc.render(lang).splitlines()]
    return []


def test_problems_of_a_chinese_sheet_are_on_their_line_in_its_words(tmp_path):
    """seed l.12: "永远也无法在敌方本阵中，召唤自己的棋子。" (a sheet in the seed's words: the line and the field as written)"""
    lines = _check(tmp_path, "回合: 1\n玩家: alice\n行动:\n  - {召唤: 战士, 位置: C2}\n  - {召唤: 战士, 位置: C3}\n"
                             "  - {移动: s9, 路径: [C4]}\n")
    assert lines[0].startswith("s.yaml:5: 行动[1].召唤: 每回合只可以进行一次召唤")
    assert lines[1].startswith("s.yaml:6: 行动[2].移动: 's9' 不是你在场上的小队或棋子")


@pytest.mark.parametrize("text, line", [
    ("回合: 1\n玩家: alice\n行动:\n  - {召唤: 战士, 位置：C2}\n", 4),
    ("回合: 1\n玩家: alice\n行动:\n  - {召唤: 战士, 位置: C2}\n  - 移动：s1\n", 5),
])
def test_full_width_colon_named_on_its_line(tmp_path, text, line):
    """seed l.8 (a sheet typed on a Chinese keyboard: the hint names the line the colon is on)"""
    lines = _check(tmp_path, text)
    assert len(lines) == 1 and lines[0].startswith(f"s.yaml:{line}: ") and "全角冒号" in lines[0]


def test_a_cell_in_parentheses_inside_a_flow_mapping(tmp_path):
    """seed l.45: "身位格" (`(D,3)` in `{at: (D,3)}`, which YAML splits at the comma, is read as D3; so are paths)"""
    assert _check(tmp_path, "turn: 1\nplayer: alice\nactions:\n  - {summon: 战士, at: (D,3), squad: s1}\n"
                            "  - {summon: 战士, at: D,3}\n") == [
        "s.yaml:5: actions[1].summon: 每回合只可以进行一次召唤"]
    s = board(sq("alice", "C5", "w1:战士"))
    after, _ = turn(s, {"move": "w1", "path": ["(C", "6)", "C", 7]})
    assert pos(after, "w1") == "C7"


@pytest.mark.parametrize("name", ["WARRIOR", "Warrior ", "戰士", "ｗａｒｒｉｏｒ", " 战士"])
def test_class_names_in_any_case_width_or_script(name):
    """seed l.29: "战士" (any case, full-width, traditional, spaces around)"""
    s = board()
    after, _ = turn(s, {"summon": name, "at": "C2", "id": "w1"})
    assert squad(after, "w1")["pos"] == "C2"


@pytest.mark.parametrize("name, cls", [("法師", "法师"), ("術士", "术士"), ("德鲁依", "德鲁伊"), ("圣骑士", "圣武士"),
                                       ("遊蕩者", "游荡者")])
def test_traditional_and_common_class_names_accepted(name, cls):
    """seed l.25-34 (the class table's names, as players also write them)"""
    s = board()
    after, events = turn(s, {"summon": name, "at": "C2", "id": "x1"})
    assert of(events, "summon")[0]["cls"] == cls


def test_unknown_class_gets_a_did_you_mean():
    """seed l.28: "德鲁伊" (a near miss is answered with the class it was likely meant as)"""
    s = board()
    with pytest.raises(GmError) as exc:
        RULESET.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"summon": "德鲁衣", "at": "C2"}]},
                             "s.yaml", "zh")
    assert exc.value.problems[0].code == "guangying.action.summon.close"
    assert "你是不是想写「德鲁伊」" in exc.value.render("zh")


@pytest.mark.parametrize("ref", ["S1", "Ｓ１", "s1 ", "A#1", "a#1"])
def test_squad_named_in_any_case_full_width_or_by_label(ref):
    """seed l.47: "小队" (an id in any case or width, with spaces around, or the squad's board label)"""
    s = board(sq("alice", "C5", "w1:战士", id="s1"))
    after, _ = turn(s, {"move": ref, "path": ["C6"]})
    assert pos(after, "w1") == "C6"


def test_piece_named_by_its_label():
    """seed l.29 (an automatic id made from a player's name is also written with the player's seat)"""
    s = board()
    s, _ = turn(s, {"summon": "战士", "at": "C2"})
    s, _ = turn(s)
    after, _ = turn(s, {"move": "a-warrior1", "path": ["C3"]})
    assert pos(after, "alice-warrior1") == "C3"


def test_standing_order_for_a_squad_that_does_not_exist_is_refused():
    """seed l.54: "如果队长死亡，其他棋子，可以选择继续战斗或者直接回手。" (only an own squad, or one this sheet forms)"""
    s = board(sq("alice", "C5", "w1:战士", id="s1"), sq("bob", "C8", "w9:战士", id="t9"))
    assert refusals(s, standing={"squads": {"s7": "return", "t9": "return"}}) == [
        ("standing.squads.s7", "guangying.sheet.standing_squad"), ("standing.squads.t9", "guangying.sheet.standing_squad")]
    assert refusals(s, {"summon": "战士", "at": "C2", "squad": "s7"}, standing={"squads": {"s7": "return"}}) == []


def test_unknown_key_lists_every_spelling():
    """seed l.50 (what is allowed, in both spellings)"""
    s = board()
    with pytest.raises(GmError) as exc:
        RULESET.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"召唤": "战士", "地点": "C2"}]},
                             "s.yaml", "zh")
    assert exc.value.problems[0].field == "actions[0].地点"
    assert "at (位置)" in exc.value.render("zh")


def test_template_offers_only_summon_cells_check_accepts():
    """seed l.51: "因为法师、诗人无法组队，所以任何棋子无法再他们的格子内停留。" (no cell of a 法师, a full squad or the
    enemy; every offered cell passes `gm check` for every class it is offered for)"""
    s = board(sq("alice", "D3", "m1:法师"), sq("alice", "B2", "w1:战士", "w2:战士", "w3:战士"),
              sq("alice", "H2", "p1:牧师"), sq("bob", "C4", "g9:游荡者"))
    text = RULESET.template(s, "alice", "zh")
    offered = [line for line in text.splitlines() if "可召唤格子" in line]
    assert offered and all("D3" not in line and "B2" not in line for line in offered)
    assert any("H2" in line for line in offered)
    for line in offered:
        who, cells = line.split("可召唤格子：")
        for name in who.replace("#", "").split()[-1].split("/"):
            for c in cells.split(", "):
                assert refusals(s, {"summon": name, "at": c}) == [], (name, c)
