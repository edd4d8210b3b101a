"""Skills defined in the scenario file (ruling C27): a GM adds a character with a new skill
without touching Python or the installed package.

Seed 002 l.52 "而技能则在玩家分配到角色后才会知道" and l.237 "角色牌具有体力上限和角色技能等属性":
every character has its own skills, known once characters are handed out. Issue 4: skills are
"defined as data in the scenario ... so a GM can add a character without Python".
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from gm_tool.errors import GmError
from gm_tool.rulesets.grail_war import RULESET
from gm_tool.rulesets.grail_war.combat import skills as defs
from gm_tool.rulesets.grail_war.model import Game
from tests.conftest import write

SPARK = {"name": "魔力火花",
         "text": {"zh": "技能阶段，你可以弃一张手牌：对一名敌人造成1点伤害。",
                  "en": "Skill phase: you may discard a hand card to deal 1 damage to an enemy."},
         "trigger": "active", "cost": {"discard": 1}, "target": "enemy", "effects": [{"damage": 1}]}

SCENARIO = {
    "ruleset": "grail_war", "name": "t", "sides": ["red", "blue"],
    "map": {"width": 3, "height": 1},
    "skills": {"spark": SPARK},
    "characters": [
        {"id": "sparky", "name": "火花术士", "class": "CASTER", "side": "red", "player": "p1", "pos": "A1",
         "skills": ["spark"], "hand": ["宝石 ♥3", "宝石 ♥4", "宝石 ♥6"]},
        {"id": "foe", "name": "敌", "class": "SABER", "side": "blue", "player": "p2", "pos": "A1", "hand": [],
         "skills": ["golden_rule"]},
    ],
}


def scenario(**changes):
    sc = copy.deepcopy(SCENARIO)
    sc.update(changes)
    return sc


def hand(state, cid):
    return [c["name"] for c in next(c for c in state["characters"] if c["id"] == cid)["hand"]]


def hp(state, cid):
    return next(c for c in state["characters"] if c["id"] == cid)["hp"]


def turn(state, seed="s"):
    """One turn: p1 uses the skill paying a 宝石, p2 sends no sheet (defaults)."""
    o1 = RULESET.parse_orders(state, {"turn": state["turn"] + 1, "player": "p1",
                                      "skill": {"use": True, "discard": ["宝石"]}, "magic": {"use": False}},
                              "p1.yaml", "zh")
    return RULESET.resolve(state, {"p1": o1, "p2": RULESET.default_orders(state, "p2")}, seed)


def test_scenario_skill_fires_in_a_fight():
    """l.52 "而技能则在玩家分配到角色后才会知道": a skill defined only in the scenario's
    ``skills:`` is the character's skill in the skill phase: 1 card paid, 1 damage dealt."""
    state = RULESET.setup(SCENARIO, "t.yaml", "s")
    assert state["skills"] == {"spark": SPARK}
    res = turn(state)
    used = [e for e in res.events if e["type"] == "skill" and e["character"] == "sparky"]
    assert [(e["skill"], e["targets"]) for e in used] == [("魔力火花", ["foe"])]
    damage = [(e["source"], e["target"], e["amount"], e["cause"]) for e in res.events if e["type"] == "damage"]
    assert ("sparky", "foe", 1, "魔力火花") in damage
    assert hp(res.state, "foe") == 4 - 1
    pay = [e for e in res.events if e["type"] == "pay" and e["character"] == "sparky"]
    assert [[c["name"] for c in e["cards"]] for e in pay] == [["宝石"]]
    # the 2 宝石 left, then the 2 cards drawn after the fight (R8)
    drawn = [c["name"] for e in res.events if e["type"] == "draw" and e["character"] == "sparky" for c in e["cards"]]
    assert len(drawn) == 2 and hand(res.state, "sparky") == ["宝石", "宝石", *drawn]


def test_state_round_trips_and_second_turn_still_uses_the_skill():
    """Issue 4 "defined as data in the scenario": the definitions travel with the state (JSON
    between turns), so the next turn resolves them again without the scenario file."""
    state = RULESET.setup(SCENARIO, "t.yaml", "s")
    again = json.loads(json.dumps(state, ensure_ascii=False))
    assert Game.from_state(again).to_state() == again
    first = turn(again)
    second_in = json.loads(json.dumps(first.state, ensure_ascii=False))
    assert second_in["skills"] == {"spark": SPARK}
    second = turn(second_in)
    used = [e for e in second.events if e["type"] == "skill" and e["character"] == "sparky"]
    assert [e["skill"] for e in used] == ["魔力火花"]
    hits = [(e["target"], e["amount"], e["hp"]) for e in second.events if e["type"] == "damage" and e["cause"] == "魔力火花"]
    assert hits == [("foe", 1, hp(first.state, "foe") - 1)] == [("foe", 1, 2)]


def test_state_without_scenario_skills_has_no_skills_key():
    """Existing states (and the golden campaign) keep their exact JSON: the key is written
    only when the scenario defines skills."""
    sc = scenario()
    del sc["skills"]
    sc["characters"][0]["skills"] = ["golden_rule"]
    state = RULESET.setup(sc, "t.yaml", "s")
    assert "skills" not in state and Game.from_state(state).to_state() == state


def test_lookup_prefers_the_scenario_definition_and_caches_it():
    """The resolver tries the scenario's definitions first, then the bundled registry, and
    normalises each custom definition once."""
    custom = {"spark": SPARK}
    a = defs.of(["spark", "golden_rule"], custom)
    assert [s.name for s in a] == ["魔力火花", "黄金律"]
    assert defs.of(["spark"], copy.deepcopy(custom))[0] is a[0]
    assert defs.lookup("魔力火花", custom) is a[0] and defs.lookup("魔力火花") is None
    assert defs.of(["spark"]) == []


@pytest.mark.parametrize("bad, field", [
    ({**SPARK, "trigger": "sometimes"}, "skills.spark.trigger"),
    ({**SPARK, "effects": [{"damage": "lots"}]}, "skills.spark.damage"),
    ({**SPARK, "efects": []}, "skills.spark.efects"),
    ({**SPARK, "cost": {"discard": 0}}, "skills.spark.cost"),
])
def test_bad_scenario_skill_is_refused_with_its_field(bad, field):
    """Ruling C27: a scenario skill is checked like the bundled ones and refused naming
    ``skills.<id>.<what>`` (seed l.237 "角色牌具有…角色技能等属性": the skill must be usable)."""
    with pytest.raises(GmError) as e:
        RULESET.setup(scenario(skills={"spark": bad}), "t.yaml", "s")
    text = e.value.render("en")
    assert f"t.yaml: {field}: bad skill definition" in text
    assert "characters[0].skills" not in text  # the reference itself is not a second error
    assert "技能定义有误" in e.value.render("zh")


def test_scenario_skill_clashing_with_a_bundled_id_is_refused():
    """Ruling C27: a scenario id equal to a bundled one would silently change that skill for
    every character; it is refused."""
    with pytest.raises(GmError) as e:
        RULESET.setup(scenario(skills={"golden_rule": SPARK}), "t.yaml", "s")
    text = e.value.render("en")
    assert "skills.golden_rule" in text and "ids must differ from the bundled skills" in text


def test_unknown_skill_id_lists_scenario_and_bundled_ids():
    """A character naming a skill that is neither in the scenario nor bundled is refused."""
    sc = scenario()
    sc["characters"][0]["skills"] = ["sparks"]
    with pytest.raises(GmError) as e:
        RULESET.setup(sc, "t.yaml", "s")
    text = e.value.render("en")
    assert "characters[0].skills[0]" in text and "spark, " in text and "golden_rule" in text


def test_player_view_holds_only_own_scenario_skills():
    """l.52: skills are known to the player they are handed to; the other player's view holds
    neither the definition nor the skill ids of the character it sees."""
    state = RULESET.setup(SCENARIO, "t.yaml", "s")
    mine = RULESET.view(state, "p1")
    theirs = RULESET.view(state, "p2")
    assert mine["skills"] == {"spark": SPARK}
    assert "skills" not in theirs and "魔力火花" not in json.dumps(theirs, ensure_ascii=False)
    assert '"spark"' not in json.dumps(theirs)


def test_cli_new_with_scenario_skills_then_resolve(tmp_path: Path, gm):
    """Issue 4 "so a GM can add a character without Python": a scenario file with ``skills:``
    works through gm new / submit / resolve / verify."""
    sc = write(tmp_path / "custom.yaml", """\
ruleset: grail_war
name: custom
map: {width: 3, height: 1}
skills:
  spark:
    name: 魔力火花
    text: {zh: 技能阶段，你可以弃一张手牌：对一名敌人造成1点伤害。, en: "Skill phase: discard 1 card, deal 1 damage."}
    trigger: active
    cost: {discard: 1}
    target: enemy
    effects: [{damage: 1}]
characters:
  - {id: sparky, name: 火花术士, class: CASTER, side: red, player: p1, pos: A1, skills: [spark], hand: [宝石 ♥3, 宝石 ♥4]}
  - {id: foe, name: 敌, class: SABER, side: blue, player: p2, pos: A1, hand: []}
""")
    d = tmp_path / "c"
    gm("new", d, "--scenario", sc, "--seed", "x")
    gm("submit", d, write(tmp_path / "p1.yaml", "turn: 1\nplayer: p1\nskill: {use: true, discard: [宝石]}\n"))
    gm("resolve", d)
    state = json.loads(gm("show", d, "--json").output)
    assert hp(state, "foe") == 3 and state["skills"]["spark"]["name"] == "魔力火花"
    assert "魔力火花" in gm("report", d, "--player", "p1").output
    gm("verify", d)


def test_cli_new_refuses_bad_scenario_skill(tmp_path: Path, gm):
    """A bad definition in the file: exit 1, the field named, nothing written."""
    sc = write(tmp_path / "bad.yaml", """\
ruleset: grail_war
map: {width: 3, height: 1}
skills:
  spark: {name: 火花, trigger: whenever, target: enemy, effects: [{damage: 1}]}
characters:
  - {id: sparky, class: CASTER, side: red, pos: A1, skills: [spark]}
  - {id: foe, class: SABER, side: blue, pos: C1}
""")
    r = gm("new", tmp_path / "c", "--scenario", sc, "--lang", "en", code=1)
    assert "skills.spark.trigger" in r.output and "whenever" in r.output
    assert not (tmp_path / "c").exists() or not any((tmp_path / "c").iterdir())


def test_bots_read_the_scenario_skill_cost():
    """The random bot pays the scenario skill's own cost (discard 1), and its sheet passes the
    order check against that skill."""
    from gm_tool.core.chance import Chance
    from gm_tool.rulesets.grail_war import bots

    state = RULESET.setup(SCENARIO, "t.yaml", "s")
    game = Game.from_state(state)
    assert bots._skill_discards(game.character("sparky"), game.skills) == 1
    discards = []
    for seed in "abcdefgh":
        sheet = RULESET.bot_sheet(state, "p1", "random", Chance(seed, "bots"))
        RULESET.parse_orders(state, sheet, "bot.yaml", "en")  # raises on a wrong discard count
        discards.append(len(sheet["skill"].get("discard", [])))
    assert set(discards) == {0, 1}
