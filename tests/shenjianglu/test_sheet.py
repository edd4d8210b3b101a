"""Order sheets in the seed's own words (contract §2): traditional or simplified keys, cells as
C4, c4 or C,4; the template validates as it is and names what may be done."""

from __future__ import annotations

from gm_tool.rulesets.shenjianglu import RULESET as RS
from tests.shenjianglu.helpers import duel, unit

UNITS = [{"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D2"}]


def run(state, sheet):
    orders = RS.parse_orders(state, sheet, "s.yaml", "zh")
    return RS.resolve(state, {"alice": orders}, "x").state


def test_traditional_keys():
    """seed l.113: "行動階段：以下3種行為可自行決定順序" — 行動, 召喚, 指揮, 攻擊, 法術, 目標 as written in the seed."""
    s = duel(hand1=["盾", "雷"], units=UNITS)
    s2 = run(s, {"回合": 1, "玩家": "alice", "行動": [{"召喚": "盾", "位置": "D6", "編號": "x1"},
                                                   {"指揮": "a1", "移動": "D3", "攻擊": "b1"},
                                                   {"法術": "雷", "目標": ["b1"]}]})
    assert unit(s2, "x1")["pos"] == "D6" and unit(s2, "a1")["pos"] == "D3"
    assert unit(s2, "b1") is not None and s2["seats"][0]["graveyard"] == ["雷"]  # 2 + 2 < 6: 盾 survives


def test_simplified_keys_and_cell_spellings():
    """seed l.119: "移動後攻擊一個別方相鄰人物。" — 行动, 指挥, 攻击 and cells as c3 or C,3."""
    s = duel(hand1=["矛"], units=UNITS)
    s2 = run(s, {"turn": 1, "player": "alice", "行动": [{"装备": "矛", "人物": "a1"},
                                                      {"指挥": "a1", "移动": "d,3", "攻击": "b1"}]})
    assert unit(s2, "a1")["pos"] == "D3" and unit(s2, "a1")["equipment"] == "矛"
    s3 = run(s, {"turn": 1, "player": "alice", "actions": [{"command": "a1", "to": "c3"}]})
    assert unit(s3, "a1")["pos"] == "C3"


def test_the_template_validates_and_lists_choices():
    """seed l.125: "法術或者裝備牌可在自己回合裡使用，只要法力值足夠。" — the template names castable cards and units that may act."""
    import yaml

    s = duel(hand1=["雷", "兵"], units=UNITS)
    text = RS.template(s, "alice", "zh")
    assert RS.parse_orders(s, yaml.safe_load(text), "t.yaml", "zh").actions == []
    assert "法术 雷（3）：可选目标 K2, b1" in text  # units by the ids they were given
    assert "a1（兵）在 D4" in text and "移动后可攻击：b1" in text
    assert "空闲出兵点：C7, E7, D6" in text


def test_units_are_named_by_label_and_read_like_cells():
    """seed l.141: "人物的初始朝向為玩家座位的正前方" — a summon without an id is named by its label in the
    template and the posts (its id alice-1 carries a player's id); a sheet may name any unit by
    label, or by id in full-width or lower case as cells are read (Ｋ２, k2)."""
    import yaml

    s = duel(hand1=["兵"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D5"}])
    s2 = run(s, {"turn": 1, "player": "alice", "actions": [{"summon": "兵", "at": "D6"}]})
    assert unit(s2, "alice-1") is not None and s2["labels"] == {"K1": "K1", "K2": "K2", "b1": "1", "alice-1": "2"}
    s3 = RS.resolve(s2, {"bob": RS.pass_orders(s2, "bob")}, "x").state
    text = RS.template(s3, "alice", "zh")
    assert "alice-1" not in text.split("turn:")[0] and "2（兵）在 D6" in text
    assert RS.parse_orders(s3, yaml.safe_load(text), "t.yaml", "zh").actions == []
    orders = RS.parse_orders(s3, {"turn": 3, "player": "alice", "actions": [{"command": 2, "attack": "１"},
                                                                             {"command": "ｋ１", "to": "C7"}]}, "t.yaml", "zh")
    s4 = RS.resolve(s3, {"alice": orders}, "x").state
    assert unit(s4, "b1")["damage"] == 0 and unit(s4, "K1")["pos"] == "C7"  # b1 hit (2 < 6) and healed


def _refused_file(tmp_path, state, text):
    """Every problem (code, field, line, message) of a sheet read from a file, as `gm check` reads it."""
    import pytest

    from gm_tool.core import safeyaml
    from gm_tool.errors import GmError

    path = tmp_path / "s.yaml"
    path.write_text(text, "utf-8")
    from gm_tool.core.yamlpos import annotate_file

    with pytest.raises(GmError) as exc:
        RS.parse_orders(state, safeyaml.load_mapping(path), str(path), "zh")
    error = annotate_file(exc.value, str(path), path)  # as gm check does
    return [(p.code, p.field, p.line, p.render("zh")) for p in error.problems]


def test_a_one_line_action_with_a_full_width_colon_gets_the_hint(tmp_path):
    """seed l.115: "召喚人物： 消耗法力召喚人物上場" — `- 召唤：周骑` (a Chinese keyboard's colon) is told
    to use a half-width colon, on its line."""
    s = duel(hand1=["兵"])
    found = _refused_file(tmp_path, s, "回合: 1\n玩家: alice\n行动:\n  - 召唤：兵\n")
    assert [(c, f, line) for c, f, line, _ in found] == [("shenjianglu.orders.fullwidth_colon", "actions.1", 4)]
    assert "- 召唤: 兵" in found[0][3]
    found = _refused_file(tmp_path, s, "回合: 1\n玩家: alice\n行动:\n  - {召唤：兵, 位置: D6}\n")
    assert found[0][:3] == ("shenjianglu.orders.fullwidth_colon", "actions.1.召唤：兵", 4)


def test_a_cell_hint_shows_only_what_reads_where_it_was_written(tmp_path):
    """seed l.131 (3.9 人物移動): inside `{...}` a comma splits `C,7` in two: the hint there offers only
    C7, and the stray 7 is named; outside braces the usual forms are offered."""
    s = duel(units=UNITS)
    found = _refused_file(tmp_path, s, "turn: 1\nplayer: alice\nactions:\n  - {command: a1, to: Z,3}\n")
    codes = {(c, f, line) for c, f, line, _ in found}
    assert ("shenjianglu.cell.bad_flow", "actions.1.to", 4) in codes
    assert ("shenjianglu.orders.split_cell", "actions.1.3", 4) in codes
    assert all("C,11" not in text for *_, text in found)
    found = _refused_file(tmp_path, s, "turn: 1\nplayer: alice\nactions:\n  - command: a1\n    to: Z,3\n")
    assert [(c, f, line) for c, f, line, _ in found] == [("cell.bad", "actions.1.to", 5)]
    assert "C,11" in found[0][3]


def test_the_same_key_in_two_languages_is_the_same_key_twice(tmp_path):
    """seed l.115: 召喚 is `summon`: a sheet with both says "the same key twice", naming both spellings."""
    s = duel(hand1=["兵"])
    found = _refused_file(tmp_path, s, "turn: 1\nplayer: alice\nactions:\n  - summon: 兵\n    召唤: 兵\n    at: D6\n")
    assert [(c, f, line) for c, f, line, _ in found] == [("shenjianglu.orders.same_key", "actions.1.召唤", 5)]
    assert "召唤 与 summon 是同一个键" in found[0][3]
    found = _refused_file(tmp_path, s, "turn: 1\n回合: 1\nplayer: alice\nactions: []\n")
    assert [(c, f, line) for c, f, line, _ in found] == [("shenjianglu.orders.same_key", "回合", 2)]


def test_check_warns_when_the_sheet_gets_its_own_king_killed(tmp_path):
    """seed l.187: "王被殺死的玩家將退出遊戲" — a legal sheet whose own attack brings its king's death by
    the counter is valid, with a warning on the action."""
    s = duel(units=[{"id": "K1", "pos": "D4", "damage": 9}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    path = tmp_path / "s.yaml"
    path.write_text("turn: 1\nplayer: alice\nactions:\n  - {command: K1, attack: b1}\n", "utf-8")
    from gm_tool.core import safeyaml

    orders = RS.parse_orders(s, safeyaml.load_mapping(path), str(path), "zh")
    assert [(w.code, w.field, w.line) for w in orders.warnings] == [("shenjianglu.orders.king_dies", "actions.1", 4)]
    safe = RS.parse_orders(s, {"turn": 1, "player": "alice", "actions": []}, "x", "zh")
    assert safe.warnings == []
