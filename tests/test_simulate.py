"""`gm simulate`: seeded bot games in-process, merged in game order, win rates with Wilson intervals."""

from __future__ import annotations

import json

import pytest

from gm_tool import simulate as sim


def _json(gm, *args):
    return json.loads(gm("simulate", *args, "--json").stdout)


def test_in_process_and_two_dask_workers_give_identical_reports(gm):
    args = ("skirmish", "--games", "12", "--max-turns", "8", "--seed", "w", "--bots", "greedy",
            "--rule", "territory_after=6")
    one = _json(gm, *args, "--workers", "0")
    two = _json(gm, *args, "--workers", "2", "--batch", "5")
    assert one == two
    assert [g["game"] for g in one["per_game"]] == list(range(12))
    # the territory rule ended every game at turn 6 with a side or a draw
    assert {g["turns"] for g in one["per_game"]} == {6}
    assert one["outcomes"]["timeout"] == 0
    assert sum(one["outcomes"].values()) == 12


def test_games_are_seeded_per_game_whatever_the_run():
    """Game i of a 6-game run is game i of a 3-game run: each game depends only on SEED:i."""
    small = sim.run("skirmish", games=3, seed="s", bots="random", max_turns=6, rules={"territory_after": 5})
    big = sim.run("skirmish", games=6, seed="s", bots="random", max_turns=6, rules={"territory_after": 5}, batch=4)
    assert big["per_game"][:3] == small["per_game"]


def test_counts_match_the_games_and_timeouts_are_counted():
    report = sim.run("skirmish", games=5, seed="t", bots="random", max_turns=2)
    assert report["outcomes"]["timeout"] == 5  # nobody can win in 2 turns without the territory rule
    assert all(g["turns"] == 2 and g["winner"] == "timeout" for g in report["per_game"])
    assert [r["side"] for r in report["sides"]] == ["red", "blue"]
    assert all(r["wins"] == 0 and r["n"] == 5 for r in report["sides"])
    assert {r["id"] for r in report["characters"]} == {"artoria", "gawain", "medea", "mordred"}
    assert {r["class"]: r["n"] for r in report["classes"]} == {"CASTER": 10, "SABER": 10}


def test_side_and_unit_wins_follow_the_winners():
    report = sim.run("skirmish", games=8, seed="u", bots="red=greedy,blue=random", max_turns=4,
                     rules={"territory_after": 3})
    winners = [g["winner"] for g in report["per_game"]]
    for row in report["sides"]:
        assert row["wins"] == winners.count(row["side"])
    for row in report["characters"]:
        assert row["wins"] == winners.count(row["side"])
    assert sum(r["wins"] for r in report["classes"]) == sum(r["wins"] for r in report["characters"])


def test_wilson_interval():
    assert sim.wilson(0, 20)[0] == 0.0
    assert sim.wilson(0, 20)[1] == pytest.approx(0.1611, abs=1e-4)
    lo, hi = sim.wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    assert sim.wilson(0, 0) == (0.0, 1.0)


def test_text_table_and_usage_errors(gm):
    out = gm("simulate", "skirmish", "-n", "2", "--max-turns", "2", "--lang", "en", "-j", "0").stdout
    assert "Simulation: skirmish, 2 games" in out and "timeout (no winner) 2" in out
    assert "artoria" in out and "[  0.0%,  65.8%]" in out
    zh = gm("simulate", "skirmish", "-n", "1", "--max-turns", "1", "-j", "0").stdout
    assert "胜率" in zh
    bad = gm("simulate", "skirmish", "--bots", "clever", code=2)
    assert "clever" in bad.stderr and "random, greedy" in bad.stderr
    gm("simulate", "skirmish", "--bots", "green=greedy", code=2)
    gm("simulate", "skirmish", "--rule", "territory_after", code=2)
    gm("simulate", "nowhere", code=2)


def test_no_progress_bar_when_not_a_terminal(gm):
    result = gm("simulate", "skirmish", "-n", "2", "--max-turns", "1", "--lang", "en", "-j", "0")
    assert "games" not in result.stderr and "\r" not in result.output and "\x1b[" not in result.output


def test_bots_per_player_and_per_side():
    """A kind per player overrides its side's; everyone not named plays the first kind."""
    from gm_tool.core import ruleset as registry

    rs = registry.get("grail_war")
    sides, players = ["red", "blue"], ["alice", "bob", "heidi", "ivan"]
    assert sim.parse_bots("greedy", rs, sides, players) == {"*": "greedy"}
    assert sim.parse_bots({"red": "greedy", "ivan": "greedy"}, rs, sides, players) == {"*": "random", "red": "greedy", "ivan": "greedy"}
    report = sim.run("skirmish", games=4, seed="p", bots="alice=greedy,bob=greedy", max_turns=6, rules={"territory_after": 5})
    side = sim.run("skirmish", games=4, seed="p", bots="red=greedy", max_turns=6, rules={"territory_after": 5})
    assert report["per_game"] == side["per_game"]  # both red players greedy is red greedy


def test_the_winner_is_what_outcome_says_not_what_the_state_holds():
    """`gm simulate` and `gm sweep` (one engine) count the winner ``outcome()`` names: a toy
    whose outcome crowns the runner who lost is counted so, game for game."""
    from pathlib import Path

    from gm_tool import app as ops
    from gm_tool.core import ruleset as registry
    from gm_tool.core.ruleset import Outcome
    from tests.toy import RULESET, Race

    class Upside(Race):
        def outcome(self, state):
            told = super().outcome(state)
            if not told.over:
                return told
            return Outcome(True, next(r["id"] for r in state["runners"] if r["id"] != told.winner))

    scenario, source = ops.load_scenario(str(Path(__file__).parent / "toy" / "race.yaml"))
    registry.register(Upside())  # in the toy's place, for this run only
    try:
        upside = sim.play_all("toy", scenario, source, games=6, seed="u", max_turns=60)
    finally:
        registry.register(RULESET)
    plain = sim.play_all("toy", scenario, source, games=6, seed="u", max_turns=60)
    flip = {"ann": "ben", "ben": "ann"}
    assert {g["winner"] for g in plain} <= {"ann", "ben"} and len(plain) == 6
    assert [g["winner"] for g in upside] == [flip[g["winner"]] for g in plain]
    assert [g["turns"] for g in upside] == [g["turns"] for g in plain]
