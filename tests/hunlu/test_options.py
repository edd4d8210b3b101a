"""What a player may do, in one place (issue 25): each kind of action (actions.py) reads its
entry, lists its options for the general due and carries it out; `gm check`, the template and the
bots come from the same kinds. And the effects: one handler each (effects.py), the same table read
by the catalogue and played by the engine."""

from __future__ import annotations

import pytest

from gm_tool import app as ops
from gm_tool.core.actions import consistency
from gm_tool.errors import GmError
from gm_tool.rulesets.hunlu.actions import ACTIONS
from gm_tool.rulesets.hunlu.effects import EFFECTS
from tests.hunlu.helpers import PLAIN, RS, check, new, scenario


def entries(state, kind):
    return [o.entry for o in RS.options(state, state["next"]["player"]) if o.kind == kind]


def test_every_option_template_and_bot_sheet_passes_gm_check():
    """seed l.61: "每点行动点数都可以在四项之中选择一项执行。" — in bot games of hunzhan, `gm check` accepts the
    template in both languages, every option the kinds offer written as a sheet, and every bot's
    sheet."""
    data, source = ops.load_scenario("hunzhan")
    report = consistency(RS, data, source, options=RS.options, sheet_for=RS.sheet_for, states=100)
    assert [str(f) for f in report.findings] == []
    assert {"move", "attack", "skill", "substitute"} <= set(report.by_kind)
    assert report.by_kind["move"] >= 100 and report.by_kind["skill"] >= 20


def test_the_options_of_the_general_due_are_what_its_sheet_may_hold():
    """seed l.63: "(2) 普通攻击：消耗1点行动力，仅可以对射程内的目标使用。" and l.68: "每回合，每名魂将都
    可以选择消耗2点行动点数来进入【替换】状态" — a may attack b two points away (射程 2), move along a
    line but not onto b's point, or be replaced by its reserve; bob, not due, has no option."""
    s = new({"a": {"pos": "C3"}, "b": {"player": "bob", "pos": "C5", "move": 1}, "r": {"role": "reserve"}})
    assert s["next"]["unit"] == "a"
    assert entries(s, "attack") == [{"attack": "b"}]
    assert entries(s, "substitute") == [{"substitute": "r"}]
    moves = [e["move"] for e in entries(s, "move")]
    assert "C4" in moves and "C5" not in moves and "C6" not in moves and "F3" in moves and "G3" not in moves
    assert RS.options(s, "bob") == []
    for o in RS.options(s, "alice"):
        assert check(s, [o.entry]) == [], o


def test_a_rooted_general_is_offered_no_move():
    """seed l.173: "……并定身一回合。" — a general held by 定身 is offered no leg, and a leg written
    anyway is refused."""
    s = new({"a": {"pos": "C3", "statuses": [{"name": "定身", "rounds": 2}]},
             "b": {"player": "bob", "pos": "C5", "move": 1}})
    assert entries(s, "move") == [] and entries(s, "attack") == [{"attack": "b"}]
    assert check(s, [{"移动": "C4"}]) == ["hunlu.skip.rooted@actions.0"]


def test_the_kinds_are_read_under_the_seed_words():
    """The action keys of a sheet are the kinds' names and their Chinese words (contract section 3)."""
    assert {w: k for w, k in ACTIONS.words().items() if k in ACTIONS} == {
        "移动": "move", "普攻": "attack", "技能": "skill", "物品": "item", "替换": "substitute"}


def test_an_unknown_effect_is_refused_naming_every_kind_of_the_table():
    """The catalogue's effects are the engine's: a skill writing an effect no handler knows is
    refused at setup, listing the table's kinds."""
    bad = {**PLAIN, "skills": [{"id": "boom", "name": "爆", "effects": [{"explode": 2}]}]}
    with pytest.raises(GmError) as exc:
        RS.setup(scenario({"a": {"pos": "C3", "general": "bad"}, "b": {"player": "bob", "pos": "C5"}},
                          generals={"bad": bad}), "case.yaml", "case")
    (p,) = [p for p in exc.value.problems if p.code == "hunlu.catalogue.effect"]
    assert p.field.endswith("skills.0.effects.0.explode")
    assert p.params["allowed"] == ", ".join(EFFECTS) == (
        "strike, damage, knockback, dash, dash_to, heal, qi, shen, status, buff, negate_effects, if, "
        "repeat_damage, reflect_round, ward, extra_turn")
