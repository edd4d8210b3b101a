"""The built-in bots, for every ruleset: a bot never writes a sheet `gm check` refuses (over many
states reached by mixed random and greedy play from many seeds, each sheet written to YAML text
and read back as a file would be), and the greedy bot is worth something against the random one.

The rates themselves are measured by bench/bench_sweep.py (B1, docs/balance.md); here a cheap
version runs in CI, and the full one with ``GM_SLOW=1``."""

from __future__ import annotations

import os

import pytest

from gm_tool import app as ops
from gm_tool import simulate as sim
from gm_tool.core import ruleset as registry
from gm_tool.core.chance import Chance
from gm_tool.core.safeyaml import loads
from gm_tool.core.store import dump_yaml

SLOW = bool(os.environ.get("GM_SLOW"))
RULESETS = ["grail_war", "hunlu", "guangying", "shenjianglu"]


def _scenarios(name: str) -> list[str]:
    return [s for s in ops.bundled_scenarios() if ops.load_scenario(s)[0].get("ruleset") == name
            and s not in ("standard",)]  # standard is guangying's second name for the same game


def _states(scenario: str, seeds: int, turns: int):
    """States along games where each player's bot kind is drawn anew each turn."""
    data, source = ops.load_scenario(scenario)
    rs = registry.get(data["ruleset"])
    for k in range(seeds):
        seed = f"bq-{scenario}-{k}"
        state = rs.setup(data, source, seed)
        for turn in range(1, turns + 1):
            due = rs.due(state)
            if not due:
                break
            yield rs, state
            pick = Chance(seed, f"kinds-{turn}")
            kinds = {p: pick.choice(list(rs.bot_kinds), why="kind") for p in due}
            state = rs.resolve(state, rs.bot_orders(state, kinds, Chance(seed, f"bots-{turn}")), seed).state


@pytest.mark.parametrize("name", RULESETS)
def test_bots_never_write_a_sheet_check_refuses(name):
    checked = 0
    for scenario in _scenarios(name):
        for rs, state in _states(scenario, 12 if SLOW else 3, 60 if SLOW else 20):
            for player in rs.due(state):
                for kind in rs.bot_kinds:
                    sheet = rs.bot_sheet(state, player, kind, Chance("bq", f"{player}-{kind}-{state['turn']}"))
                    text = dump_yaml(sheet)  # what a player would save and `gm check` would read
                    read = loads(text, f"{player}.yaml")
                    orders = rs.parse_orders(state, read, f"{player}.yaml", "zh")  # raises GmError on any problem
                    assert orders.player == player
                    checked += 1
    assert checked >= (1000 if SLOW else 100)


# scenario -> (games a side, turn limit, greedy wins at least, of 2 x games; random wins at most,
# a side) for the CI check. Skirmish's greedy side is two characters: the random one wins 2-3 of
# 100 games as red (bench B1), 2 of these 10.
CHEAP = {"skirmish": (10, 50, 17, 2), "fuyuki": (10, 50, 18, 0), "hunlu_duel": (10, 50, 18, 1),
         "shenjianglu": (10, 50, 18, 1), "standard": (10, 100, 16, 1)}


@pytest.mark.parametrize("scenario", sorted(CHEAP))
def test_greedy_beats_random(scenario):
    """Fuyuki: 18 of 20 here; bench B1 at 100 games a pairing: 184/200 = 92% (and 922 of 1,000
    over five seeds; it was 62%)."""
    games, turns, floor, lost = CHEAP[scenario]
    data, source = ops.load_scenario(scenario)
    rs = registry.get(data["ruleset"])
    a, b = sim.Game(rs, data, source, "q", "random", 1).sides[:2]
    won = 0
    for me, other in ((a, b), (b, a)):
        report = sim.run(scenario, games=games, seed="quality", bots=f"{me}=greedy,{other}=random", max_turns=turns)
        won += report["outcomes"][me]
        assert report["outcomes"][other] <= lost
    assert won >= floor, (won, 2 * games)


def test_fuyuki_greedy_games_end_before_the_turn_limit():
    """Greedy against greedy on fuyuki's 14 characters: the games end (bench B1: 97% of 100 in
    50 turns; it was 17%, then 92%). Cheap version: 10 games."""
    report = sim.run("fuyuki", games=10, seed="quality", bots="greedy", max_turns=50)
    assert report["outcomes"]["timeout"] <= 2, report["outcomes"]
