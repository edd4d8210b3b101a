"""Rulings G1-G6 (docs/rulings/grail_war.md, section G): turn structure and who learns what."""

from __future__ import annotations

import json

from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.core.grid import parse_cell
from gm_tool.rulesets.grail_war import RULESET
from gm_tool.rulesets.grail_war.model import Game
from gm_tool.rulesets.grail_war.orders import default
from gm_tool.rulesets.grail_war.resolve import check_victory
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


def test_g2_events_reach_players_by_end_of_turn_vision():
    """G2 — seed l.4 '每回合结束后每人将获得自己的视野': a step is told to its mover and to
    players whose end-of-turn vision covers both of its cells, nobody else."""
    state = setup()
    game = Game.from_state(state)
    o1 = default(game, "p1")
    o1.move_to = parse_cell("D2")
    o2 = default(game, "p2")
    o2.move_to = parse_cell("I2")  # ends 5 cells from D2: p1 sees G2 at most
    res = RULESET.resolve(state, {"p1": o1, "p2": o2}, "s")
    steps = [e for e in res.events if e["type"] == "step"]
    mine = [e for e in steps if e["character"] == "a"]
    theirs = [e for e in steps if e["character"] == "b"]
    assert all(e["to"] == ["p1"] for e in mine)
    assert all(e["to"] == ["p2"] for e in theirs)
    # a step whose both cells the other player sees is told to them
    o1b = default(Game.from_state(res.state), "p1")
    o1b.move_to = parse_cell("F2")
    o2b = default(Game.from_state(res.state), "p2")
    o2b.move_to = parse_cell("G2")  # p2 will see E2..I2 at the end of the turn
    res2 = RULESET.resolve(res.state, {"p1": o1b, "p2": o2b}, "s")
    a_steps = [e for e in res2.events if e["type"] == "step" and e["character"] == "a"]
    assert [(e["start"], e["end"], e["to"]) for e in a_steps] == [("D2", "E2", ["p1"]), ("E2", "F2", ["p1", "p2"])]
    b_steps = [e for e in res2.events if e["type"] == "step" and e["character"] == "b"]
    assert [(e["start"], e["end"], e["to"]) for e in b_steps] == [("I2", "H2", ["p2"]), ("H2", "G2", ["p1", "p2"])]


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


def test_g5_all_dead_at_once_is_a_draw_and_territory_option():
    """G5 — seed l.227 '任何一方满足游戏胜利条件即游戏结束': one side left alive wins; if the last
    characters of both sides die in the same turn the game is drawn; with rules.territory_after
    the side holding more territory after that turn wins."""
    game = Game.from_state(setup())
    for c in game.characters:
        c.alive = False
    check_victory(game, EventLog())
    assert game.winner == "draw"
    game = Game.from_state(setup())
    game.characters[1].alive = False
    log = EventLog()
    check_victory(game, log)
    assert game.winner == "red" and log.events[-1]["type"] == "victory" and log.events[-1]["to"] == "all"


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
