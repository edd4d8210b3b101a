"""Hostile scenarios (contract §3): a scenario file from a stranger is refused with fields named,
never a crash; mutations of the bundled scenarios and of a full inline one."""

from __future__ import annotations

import copy
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_tool.errors import GmError
from gm_tool.rulesets.shenjianglu import RULESET as RS
from tests.shenjianglu.helpers import CATALOGUE, deck_for

EXAMPLES = int(os.environ.get("GM_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES * 2, deadline=None, derandomize="GM_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

FULL = {"ruleset": "shenjianglu", "name": "x",
        "board": {"width": 7, "height": 7, "void": ["A4"], "thrones": {1: "D7", 2: "D1"},
                  "spawns": {1: ["C7", "E7", "D6"], 2: ["C1", "E1", "D2"]}, "facing": {1: "N", 2: "南"}},
        "seats": {1: {"player": "alice", "king": "测王", "deck": deck_for(["兵", "弓"]), "hand": ["兵"], "order": ["弓"],
                      "graveyard": []},
                  2: {"player": "bob", "faction": "商"}},
        "units": [{"id": "u1", "card": "兵", "owner": "alice", "pos": "C5", "facing": "N", "damage": 0, "equipment": "甲"},
                  {"id": "K2", "pos": "B1"}],
        "catalogue": CATALOGUE, "rules": {"mana": 9, "neutrals": 4}}
WORDS = ["alice", "bob", "周", "商", "测王", "兵", "甲", "C5", "Z99", "K1", "K9", "N", "back", "", None, True, -1, 10 ** 30,
         "neutral", "character", "spell", "damage", "reduce", "when", "start"]
scalars = st.none() | st.booleans() | st.integers(-5, 60) | st.sampled_from(WORDS) | st.text(max_size=8) | st.floats()
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from([w for w in WORDS if isinstance(w, str)]) | st.text(max_size=5),
                                        inner, max_size=4), max_leaves=16)
paths = st.lists(st.sampled_from(["board", "seats", "units", "catalogue", "rules", "thrones", "spawns", "facing", "void",
                                  "deck", "hand", "player", "king", "faction", "兵", "弓", "skills", "effects", 1, 2, 0]),
                 min_size=1, max_size=5)


def _mutate(doc, path, value):
    out = copy.deepcopy(doc)
    node = out
    for step in path[:-1]:
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
    last = path[-1]
    if isinstance(node, dict):
        node[last if last in node or not node else list(node)[len(str(last)) % len(node)]] = value
    elif isinstance(node, list) and node:
        node[last % len(node) if isinstance(last, int) else 0] = value
    return out


def test_the_full_scenario_is_valid():
    """seed l.91: "各玩家將本陣營的“王”放入王位。" — the fuzzer starts from a scenario that sets up."""
    s = RS.setup(FULL, "x.yaml", "s")
    assert [u["pos"] for u in s["units"] if u["king"]] == ["D7", "B1"]


@FUZZ
@given(mutations=st.lists(st.tuples(paths, values), min_size=1, max_size=3))
def test_mutated_scenarios_set_up_or_are_refused(mutations):
    """seed l.233: "【組建套牌規則】" — whatever the scenario, a clean refusal naming fields, or a game."""
    doc = FULL
    for path, value in mutations:
        doc = _mutate(doc, path, value)
    try:
        RS.setup(doc, "x.yaml", "s")
    except GmError as exc:
        assert exc.problems and all(p.render("en") for p in exc.problems)
