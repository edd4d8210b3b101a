"""What a player may do, in one place (issue 25): each kind of action (actions.py) reads its
entry, lists its options in a state and carries it out; the template, `gm check` and the bots all
come from those options. And the card primitives: one handler each (effects.py), the same table
read by the card reader and played by the engine."""

from __future__ import annotations

from typing import Any

import pytest

from gm_tool import app as ops
from gm_tool.core.actions import Option, consistency
from gm_tool.errors import GmError
from gm_tool.rulesets.shenjianglu import RULESET as RS
from gm_tool.rulesets.shenjianglu.actions import ACTIONS, Cast, Command, Equip, Summon
from gm_tool.rulesets.shenjianglu.effects import EFFECTS, ONE_OFF, SPELL_EFFECTS, STANDING
from gm_tool.rulesets.shenjianglu.keys import SHEET_ALIASES
from tests.shenjianglu.helpers import duel, refused

W = {"faction": "neutral", "quality": "white", "cost": 1}


def troop(skill: dict[str, Any]) -> dict[str, Any]:
    return {"type": "character", "attack": 1, "stamina": 9, "move": 2, "kind": "步兵", **W, "skills": [skill]}


def entries(state: dict[str, Any], kind: str, **match: Any) -> list[dict[str, Any]]:
    return [o.entry for o in RS.options(state, state["next"])
            if o.kind == kind and all(o.entry.get(k) == v for k, v in match.items())]


def accepted(state: dict[str, Any], entry: dict[str, Any]) -> bool:
    try:
        RS.parse_orders(state, RS.sheet_for(state, state["next"], Option("x", entry)), "s.yaml", "en")
    except GmError:
        return False
    return True


@pytest.mark.parametrize("scenario,states", [("shenjianglu", 300), ("shenjianglu-4", 150)])
def test_every_option_template_and_bot_sheet_passes_gm_check(scenario, states):
    """seed l.99: "然後按順序依次行動" — in a few hundred states of bot games, `gm check` accepts the
    template in both languages, every option the kinds offer written as a sheet, and every bot's
    sheet."""
    data, source = ops.load_scenario(scenario)
    report = consistency(RS, data, source, options=RS.options, sheet_for=RS.sheet_for, states=states)
    assert [str(f) for f in report.findings] == []
    assert report.states == states
    assert set(report.by_kind) == {"summon", "command", "cast", "equip"} and min(report.by_kind.values()) >= 20


def test_options_of_a_duel_are_exactly_what_its_sheet_may_hold():
    """seed l.63: "王位周圍帶有星的格子是該方玩家可用的出兵點。若出兵點上有人，則此點不能出兵。" — a
    summon is offered on alice's free spawn points only; nobody is offered to a player not due."""
    s = duel(hand1=["兵", "雷"], units=[{"id": "b9", "card": "盾", "owner": "bob", "pos": "D6"}])
    assert entries(s, "summon", summon="兵") == [{"summon": "兵", "at": "C7"}, {"summon": "兵", "at": "E7"}]  # D6 taken
    assert entries(s, "cast") == [{"cast": "雷", "targets": ["K2"]}, {"cast": "雷", "targets": ["b9"]}]
    assert entries(s, "command") == [{"command": "K1"}, {"command": "K1", "to": "C7"}, {"command": "K1", "to": "E7"},
                                     {"command": "K1", "attack": "b9"}]  # 测王: 移动力 1
    assert RS.options(s, "bob") == []
    assert all(accepted(s, o.entry) for o in RS.options(s, "alice"))


def test_a_skill_needing_the_targets_back_offers_only_those_it_stands_behind():
    """seed l.143: "人物的朝向一般情況下不會改變" — 背刺 (`from: back`): a1 stands behind b1, not
    behind b2, so only b1 is offered, in the options and in the template, and b2 is refused."""
    cat = {"刺客": troop({"name": "背刺", "mode": "active", "range": 2, "target": "enemy", "from": "back",
                         "effects": [{"damage": 3}]})}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "刺客", "owner": "alice", "pos": "D2"},
                                   {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"},
                                   {"id": "b2", "card": "兵", "owner": "bob", "pos": "C2"}])
    assert entries(s, "command", skill="背刺") == [{"command": "a1", "skill": "背刺", "targets": ["b1"]}]
    assert refused(s, {"command": "a1", "skill": "背刺", "targets": ["b2"]}) == [
        ("shenjianglu.orders.bad_target", "actions.1.targets.1")]
    assert "skill [背刺] range 2: targets b1\n" in RS.template(s, "alice", "en")


def test_a_line_skill_offers_only_targets_in_its_row_or_column():
    """seed l.205: "影響多個地點的攻擊" — `area: {line: 3}` needs a target in line: C4 is not."""
    cat = {"枪阵": troop({"name": "贯", "mode": "active", "range": 3, "target": "other",
                         "area": {"line": 3, "target": "other"}, "effects": [{"damage": 1}]})}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "枪阵", "owner": "alice", "pos": "D5"},
                                   {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"},
                                   {"id": "b4", "card": "兵", "owner": "bob", "pos": "C4"}])
    assert [e["targets"] for e in entries(s, "command", skill="贯")] == [["b1"]]
    assert refused(s, {"command": "a1", "skill": "贯", "targets": ["b4"]}) == [
        ("shenjianglu.orders.not_in_line", "actions.1.targets.1")]


def test_one_table_of_action_kinds_reads_every_spelling_and_writes_back_what_it_read():
    """seed 3.8-3.11 (召喚, 指揮): a sheet written in the seed's words is read by the kind its key names,
    and an order's entry reads back to the same order."""
    assert list(ACTIONS.kinds) == ["summon", "command", "cast", "equip"]
    assert ACTIONS.words().items() <= SHEET_ALIASES.items()
    s = duel(hand1=["兵", "甲"])
    sheet = {"回合": 1, "玩家": "alice", "行动": [{"召唤": "兵", "位置": "C7", "编号": "a1"}, {"装备": "甲", "人物": "K1"},
                                                {"指挥": "K1", "移动": "D6"}]}
    orders = RS.parse_orders(s, sheet, "s.yaml", "zh")
    assert orders.actions == [Summon("兵", "C7", "a1"), Equip("甲", "K1"), Command("K1", to="D6")]
    again = RS.parse_orders(s, {"turn": 1, "player": "alice", "actions": [a.entry() for a in orders.actions]}, "s", "en")
    assert again.actions == orders.actions
    assert Cast("雷", ("b1",)).entry() == {"cast": "雷", "targets": ["b1"]}


def test_each_card_primitive_is_one_handler_read_and_played_from_one_table():
    """seed l.5: "神將錄的卡牌分為人物、法術、裝備、順序牌4種。" — the primitives docs/shenjianglu.md lists,
    each a handler under its name; a spell may do every one-off effect but 收服 (skills only)."""
    assert set(ONE_OFF) == {"damage", "heal", "face", "draw", "mana", "buff", "push", "pull", "capture"}
    assert set(STANDING) == {"buff", "reduce", "cap", "bonus", "immune", "haste", "no_counter"}
    assert set(ONE_OFF) - set(SPELL_EFFECTS) == {"capture"}
    assert all(EFFECTS[name].name == name for name in EFFECTS)
    bad = {"咒": {"type": "spell", **W, "target": "enemy", "effects": [{"收服": True}]}}
    with pytest.raises(GmError) as err:
        duel(catalogue=bad)
    assert [(p.code, p.field) for p in err.value.problems] == [("field.unknown", "catalogue.咒.effects.1.收服")]
