"""Rulings G1-G6 (docs/rulings/grail_war.md, section G) where the check is not a rule case: the
default orders (G1), the keys a view leaves out (G3), the random streams (G4), `gm check` on a
sheet naming its character (G6). G2 and G5 are rule cases: tests/grail_war/cases/general.yaml."""

from __future__ import annotations

import json

from gm_tool.core.chance import Chance
from gm_tool.rulesets.grail_war import RULESET
from gm_tool.rulesets.grail_war.model import Game
from gm_tool.rulesets.grail_war.orders import default
from tests.conftest import write

SCENARIO = {
    "ruleset": "grail_war", "name": "t", "sides": ["red", "blue"],
    "map": {"width": 12, "height": 3, "rows": ["." * 12] * 3},
    "characters": [
        {"id": "a", "name": "A", "class": "SABER", "side": "red", "player": "p1", "pos": "A2"},
        {"id": "b", "name": "B", "class": "SABER", "side": "blue", "player": "p2", "pos": "L2"},
    ],
}


def setup(seed: str = "s"):
    return RULESET.setup(SCENARIO, "t.yaml", seed)


def test_g1_missing_sheet_means_stay_with_default_options():
    """G1 — spec §2: 'a missing sheet means: stay, default options'."""
    state = setup()
    game = Game.from_state(state)
    o = default(game, "p1")
    assert o.move_to is None and o.keep is None and o.gem == "self_first"
    after = RULESET.resolve(state, {"p1": o, "p2": default(game, "p2")}, "s").state
    assert [c["pos"] for c in after["characters"]] == ["A2", "L2"]


def test_g3_view_shows_visible_enemy_without_hand_or_skills():
    """G3 — seed l.262 '除你之外的人都不能看到你的手牌': a visible enemy shows HP and equipment, never
    hand cards, skills or statuses; an enemy out of vision is absent."""
    sc = dict(SCENARIO, characters=[dict(SCENARIO["characters"][0]), dict(SCENARIO["characters"][1], pos="C2")])
    state = RULESET.setup(sc, "t.yaml", "s")
    v = RULESET.view(state, "p1")
    other = next(c for c in v["characters"] if c["id"] == "b")
    assert other["hand"] is None and "skills" not in other and "status" not in other
    assert other["hp"] == 4 and other["equipment"] == {"weapon": None, "armor": None}
    far = RULESET.view(setup(), "p1")
    assert [c["id"] for c in far["characters"]] == ["a"]


def test_g4_each_turn_draws_its_own_random_stream():
    """G4 — spec §6 'all randomness comes from one seeded generator per campaign': each turn uses
    a stream derived from the seed and the turn number, so re-resolving a turn after a rollback
    rolls the same dice (a GM cannot re-roll by rolling back)."""
    a = [Chance("seed", "turn-3").roll(6) for _ in range(1)] + [Chance("seed", "turn-3").roll(100)]
    b = [Chance("seed", "turn-3").roll(6) for _ in range(1)] + [Chance("seed", "turn-3").roll(100)]
    assert a == b
    assert [Chance("seed", f"turn-{n}").roll(10 ** 9) for n in range(5)] != [Chance("seed", "turn-0").roll(10 ** 9)] * 5


def test_g6_sheet_may_name_which_character(gm, tmp_path):
    """G6 — seed l.237 '角色牌代表了你操控的TM角色': a player with several characters names the one
    a sheet is for with `character`; without it the sheet is for their first living character."""
    sc = tmp_path / "two.yaml"
    write(sc, json.dumps(dict(SCENARIO, characters=SCENARIO["characters"] + [
        {"id": "c", "name": "C", "class": "RIDER", "side": "red", "player": "p1", "pos": "A3"}]), ensure_ascii=False))
    d = tmp_path / "camp"
    gm("new", d, "--scenario", sc, "--seed", "x")
    f = write(tmp_path / "s.yaml", "turn: 1\nplayer: p1\ncharacter: c\nmove: {to: D3}\n")
    gm("check", d, f)
    bad = write(tmp_path / "s2.yaml", "turn: 1\nplayer: p1\ncharacter: b\n")
    assert "character" in gm("check", d, bad, code=1).output
