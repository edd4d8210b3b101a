"""What a servant's sheet may say (gm_tool.rulesets.grail_war.orders.ACTIONS): one class per section
of the sheet, whose options the template writes out, the bots choose among and `gm check`
accepts, every one (over random states: tests/test_conformance.py)."""

from __future__ import annotations

from typing import Any

from gm_tool.core.actions import checked
from gm_tool.core.store import dump_yaml
from gm_tool.rulesets.grail_war import RULESET
from gm_tool.rulesets.grail_war.orders import ACTIONS, MOVE_KIND
from tests.grail_war.map_kit import C, S, pos, setup, sheet, turn

SECTIONS = ("keep", "skill", "target_priority", "strike_order", "dodge_order", "use_curse", "gem", "magic",
            "equipment", "move")


def entries(state: dict[str, Any], kind: str, player: str) -> list[Any]:
    return [o.entry[kind] for o in RULESET.options(state, player) if o.kind == kind]


def test_one_kind_per_section_each_with_the_seeds_words():
    """seed l.61 "玩家选择自己留下来的手牌" and l.151 "8.本回合移动，是否发动介职特效": the table reads each
    section of the sheet once, in the sheet's order, by its key or the seed's heading."""
    assert tuple(ACTIONS.kinds) == SECTIONS
    assert ACTIONS.kind("保留") is ACTIONS.kinds["keep"] and ACTIONS.kind("本回合移动") is MOVE_KIND
    assert ACTIONS.kind("宝石") is ACTIONS.kinds["gem"] and ACTIONS.kind("出闪顺序") is ACTIONS.kinds["dodge_order"]
    assert RULESET.sheet_aliases["咒"] == "use_curse"


def test_moves_offered_are_the_classes_own():
    """seed l.10 "原则上河道不允许通过，只有RIDER和CASTER使用技能才能通过" and l.153 "魔术师“CASTER”可进行
    瞬间转移，目的地只能是自己方的据点，距离最长为5格": a SABER is offered no cell past the river and
    no teleport; a RIDER the far bank with 渡河 (cross); a CASTER its own stronghold, not the enemy's."""
    s = setup(["..~~.."], [C("sa", "SABER", "red", "A1"), C("r", "RIDER", "red", "B1"), C("c", "CASTER", "blue", "F1")],
              [S(1, "E1", "hand", "blue"), S(2, "A1", "hand", "red")])
    assert entries(s, "move", "sa") == [{"to": "A1"}, {"to": "B1"}]
    rider = entries(s, "move", "r")
    assert {"to": "E1", "special": "cross"} in rider and {"to": "D1"} not in rider
    assert not [m for m in rider if m.get("special") == "teleport"]
    caster = [m["to"] for m in entries(s, "move", "c") if m.get("special") == "teleport"]
    assert caster == ["E1"]  # its own, in range; A1 is red's


def test_every_option_passes_gm_check_and_a_move_goes_where_it_says():
    """seed l.10 (a RIDER crossing the river with its skill): each option written as a sheet passes
    `gm check`; the crossing offered ends on the far bank."""
    s = setup(["..~~.."], [C("r", "RIDER", "red", "B1", hand=[]), C("b", "SABER", "blue", "F1")])
    offered = RULESET.options(s, "r")
    assert {o.kind for o in offered} == set(SECTIONS) - {"equipment"}  # nothing worn: no equipment choice
    for option in offered:
        assert checked(RULESET, s, dump_yaml(RULESET.sheet_for(s, "r", option)), "r.yaml", "en") == [], option
    cross = next(m for m in entries(s, "move", "r") if m.get("special") == "cross")
    after = turn(s, sheet(s, "r", to=cross["to"], special="cross")).state
    assert pos(after)["r"] == cross["to"] == "E1"
    assert RULESET.options({**s, "winner": "red"}, "r") == []  # the war is over: nobody is due


def test_the_template_offers_the_move_options():
    """seed l.151-154: the template's destination lines are the move options: walking cells, the
    cells only the class movement reaches, and the teleport destinations."""
    s = setup(["..~~..", "......"], [C("c", "CASTER", "red", "B1"), C("b", "SABER", "blue", "F2")],
              [S(1, "E1", "hand", "red")])
    text = RULESET.template(s, "c", "en")
    moves = entries(s, "move", "c")
    lines = [line for line in text.splitlines() if line.startswith("#") and (": " in line or "：" in line)]
    walk = " ".join(m["to"] for m in moves if "special" not in m)
    climb = " ".join(m["to"] for m in moves if m.get("special") == "climb")
    tele = " ".join(m["to"] for m in moves if m.get("special") == "teleport")
    assert tele == "E1" and climb
    for cells in (walk, climb, tele):
        assert any(line.endswith(cells) for line in lines), (cells, lines)
