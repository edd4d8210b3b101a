"""The core serves every ruleset and knows none (design card; spec core.md), and every
registered ruleset passes the same generic test (OpenSpiel-style): random legal play through
the protocol, JSON round trip, deterministic replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gm_tool import app as ops
from gm_tool.core import ruleset as registry
from gm_tool.core.chance import Chance

CORE = Path(__file__).parent.parent / "gm_tool" / "core"
GAME_WORDS = re.compile(r"grail|stronghold|territory|SABER|CASTER|LANCER|杀|闪|宝石|据点|servant|fuyuki", re.I)


def test_core_has_no_game_words():
    hits = [f"{p.name}:{i}: {line.strip()}" for p in sorted(CORE.glob("*.py"))
            for i, line in enumerate(p.read_text("utf-8").splitlines(), 1) if GAME_WORDS.search(line)]
    assert hits == []


def _play(name: str, scenario: str, seed: str, turns: int) -> list[str]:
    rs = registry.get(name)
    data, source = ops.load_scenario(scenario)
    state = rs.setup(data, source, seed)
    dumps = [json.dumps(state, ensure_ascii=False, sort_keys=True)]
    for n in range(1, turns + 1):
        if not rs.due(state):
            break
        chance = Chance(seed, f"bots-{n}")
        orders = {p: rs.parse_orders(state, rs.bot_sheet(state, p, "random", chance), f"{p}.yaml", "en")
                  for p in rs.due(state)}
        state = rs.resolve(state, orders, seed).state
        assert json.loads(json.dumps(state)) == state  # plain JSON data
        for p in rs.players(state):
            json.dumps(rs.view(state, p))
        dumps.append(json.dumps(state, ensure_ascii=False, sort_keys=True))
    return dumps


@pytest.mark.parametrize("name", registry.available())
def test_every_ruleset_plays_randomly_and_replays_identically(name):
    scenarios = [s for s in ops.bundled_scenarios() if ops.load_scenario(s)[0].get("ruleset") == name]
    assert scenarios, f"ruleset {name} has no bundled scenario"
    for scenario in scenarios:
        first = _play(name, scenario, "generic", 6)
        assert first == _play(name, scenario, "generic", 6)
        assert len(first) > 1


@pytest.mark.parametrize("module", ["grid", "deck", "schema"])
def test_core_doctests(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"gm_tool.core.{module}"))
    assert result.attempted > 0 and result.failed == 0
