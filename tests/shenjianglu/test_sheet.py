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
