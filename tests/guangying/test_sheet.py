"""Order sheets (contract §3-4): what stays Python. The pre-filled template (it validates and offers
only what `gm check` accepts) and the words of messages (the allowed cells, a did-you-mean, every
spelling of a key, in Chinese). The sheets' rule cases (the seed's words, cells, ids, who is due,
problems by code, field in the sheet's words and line) are data: cases/sheet.yaml."""

import pytest

from gm_tool.errors import GmError
from gm_tool.rulesets.guangying import RULESET
from tests.guangying.kit import board, refusals, sq


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


def test_unknown_class_gets_a_did_you_mean():
    """seed l.28: "德鲁伊" (a near miss is answered with the class it was likely meant as)"""
    s = board()
    with pytest.raises(GmError) as exc:
        RULESET.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"summon": "德鲁衣", "at": "C2"}]},
                             "s.yaml", "zh")
    assert exc.value.problems[0].code == "guangying.action.summon.close"
    assert "你是不是想写「德鲁伊」" in exc.value.render("zh")


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
