"""What the player due may do (gm_tool.rulesets.guangying.actions): one class per kind of action,
whose options the template writes out and `gm check` accepts, every one, over a few hundred
random states (gm_tool.core.actions.consistency); the bots' sheets pass the same check."""

from __future__ import annotations

from typing import Any

import pytest

from gm_tool import app as ops
from gm_tool.core.actions import checked, consistency
from gm_tool.core.store import dump_yaml
from gm_tool.rulesets.guangying import RULESET
from gm_tool.rulesets.guangying.actions import ACTIONS
from tests.guangying.kit import board, refusals, sq, turn

KINDS = ("summon", "move", "attack", "full_attack", "defend", "ability", "leader", "split", "return", "suicide")


def entries(state: dict[str, Any], kind: str, player: str = "alice") -> list[dict[str, Any]]:
    return [o.entry for o in RULESET.options(state, player) if o.kind == kind]


def test_one_kind_per_action_each_with_the_seeds_word():
    """seed l.50-l.51 (召唤, 移动, 攻击, 全力攻击, 防御, 离队, 回手, 自杀): the table names each kind
    once, with its Chinese word; the sheet keys come from it."""
    assert list(ACTIONS.kinds) == list(KINDS)
    assert ACTIONS.kind("召唤") is ACTIONS.kinds["summon"] and ACTIONS.kind("全力攻击") is ACTIONS.kinds["full_attack"]
    assert RULESET.sheet_aliases["离队"] == "split" and RULESET.sheet_aliases["发动者"] == "by"


def test_options_name_what_the_rules_allow_and_nothing_else():
    """seed l.51: "因为法师、诗人无法组队，所以任何棋子无法再他们的格子内停留。" and l.38 (attack within 1)."""
    s = board(sq("alice", "D3", "m1:法师"), sq("alice", "B2", "w1:战士", "w2:战士", "w3:战士"),
              sq("alice", "H2", "p1:牧师"), sq("bob", "C4", "g9:游荡者"))
    summons = entries(s, "summon")
    assert {"summon": "战士", "at": "H2"} in summons and {"summon": "战士", "at": "A1"} in summons
    assert not [e for e in summons if e["at"] in ("D3", "B2", "C4")]  # a 法师, a full squad, the enemy
    squads = {q["id"]: q for q in s["squads"]}
    w_squad = next(q for q in squads.values() if q["members"][0] == "w1")["id"]
    assert {"attack": w_squad, "target": next(q["id"] for q in squads.values() if q["owner"] == "bob")} not in \
        entries(s, "attack")  # B2 and C4 are 2 apart: nothing in reach
    assert [e for e in entries(s, "leader")] == [{"leader": "w2"}, {"leader": "w3"}]
    assert {"return": w_squad} in entries(s, "return") and {"suicide": "m1"} in entries(s, "suicide")
    splits = entries(s, "split")
    assert {tuple(e["split"]) for e in splits} == {("w1",), ("w2",), ("w3",), ("w1", "w2"), ("w1", "w3"), ("w2", "w3")}
    assert RULESET.options(s, "bob") == []  # not due: nothing


def test_every_option_passes_gm_check_and_does_what_it_says():
    """seed l.13 "召唤在队友身上" and l.51: a summon on an own squad joins it; a move ends where its
    path ends; each option written as a sheet passes `gm check`."""
    s = board(sq("alice", "C2", "w1:战士"), sq("bob", "C5", "g9:游荡者"))
    for option in RULESET.options(s, "alice"):
        assert checked(RULESET, s, dump_yaml(RULESET.sheet_for(s, "alice", option)), "a.yaml", "en") == [], option
    join = next(e for e in entries(s, "summon") if e["at"] == "C2" and e["summon"] == "战士")
    after, _ = turn(s, join)
    assert next(q for q in after["squads"] if q["pos"] == "C2")["members"][1] == "w1"
    step = next(e for e in entries(s, "move") if e["path"][-1] == "C4")
    after, _ = turn(s, step)
    assert next(q for q in after["squads"] if "w1" in q["members"])["pos"] == "C4"


def test_the_template_offers_the_options():
    """seed l.50: the template's summon cells and moves are the options' (the same ones `gm check` takes)."""
    s = board(sq("alice", "D3", "m1:法师"), sq("alice", "H2", "p1:牧师"), sq("bob", "C4", "g9:游荡者"))
    text = RULESET.template(s, "alice", "zh")
    cells = {line.split("可召唤格子：")[0].split()[-1]: line.split("可召唤格子：")[1].split(", ")
             for line in text.splitlines() if "可召唤格子：" in line}
    offered = {(what, c) for names, group in cells.items() for what in names.split("/") for c in group}
    assert offered == {(e["summon"], e["at"]) for e in entries(s, "summon")}
    for what, c in sorted(offered)[::17]:
        assert refusals(s, {"summon": what, "at": c}) == []


@pytest.mark.parametrize("scenario", ["standard", "guangying"])
def test_options_templates_and_bots_agree_with_gm_check_over_random_states(scenario):
    """Every option (at most 12 a state, drawn), both templates and both bots' sheets pass `gm check`
    in 150 states of bot games on each bundled scenario."""
    data, source = ops.load_scenario(scenario)
    report = consistency(RULESET, data, source, options=RULESET.options, sheet_for=RULESET.sheet_for,
                         states=150, seed=f"gy-options-{scenario}")
    assert [str(f) for f in report.findings] == []
    assert report.states == 150 and report.sheets == report.options + 150 * 4
    assert {"summon", "move", "attack", "full_attack", "defend", "ability", "suicide"} <= set(report.by_kind)
