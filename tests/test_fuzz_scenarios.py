"""Fuzzing of scenario files (issue 24): a scenario comes from a stranger too (`gm new --scenario
FILE`, and `gm verify` reads a published folder's scenario.yaml). Whatever a field holds, of any
type, `gm new` ends in a campaign or in a clear error naming the scenario: never an internal error
(光与影 `sides: {alice: 1}` and the grail war's `territory: true` crashed, 94 of 11,700 changes).

Three layers, for every ruleset, starting from every bundled scenario and from one scenario per
ruleset that sets every optional key:

- a sweep: every field (at any depth) replaced by each value of :data:`VALUES`, or removed;
- random changes of one to four fields (Hypothesis), values of any shape;
- a few of them through the command line, with a file.

CI sweeps a fixed sample of the fields (``SWEEP_SAMPLE`` a scenario: 5,200 changes, ~10 s) and
runs 40 random examples a ruleset; a long run sweeps every field and sets the examples:
``GM_FUZZ_EXAMPLES=1500 GM_FUZZ_SWEEP=all python -m pytest tests/test_fuzz_scenarios.py`` (22,536
single-field changes of 13 scenarios and 4 x 1,500 random ones: 2 min 37 s on a shared 2-core
machine, no failure; before the fixes of issue 24 the sweep crashed on 334 of the 22,536, in
光与影's sides/pool/standing/in_hand/squads/markers, the grail war's territory and 魂陆's statuses).
"""

from __future__ import annotations

import copy
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_tool import app
from gm_tool.core import safeyaml
from gm_tool.errors import GmError
from tests.conftest import write

EXAMPLES = int(os.environ.get("GM_FUZZ_EXAMPLES", "40"))
SWEEP_ALL = os.environ.get("GM_FUZZ_SWEEP") == "all"
SWEEP_SAMPLE = 400  # changes a scenario in CI (of ~1,000-4,000)
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="GM_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

VALUES: list[Any] = [None, True, False, 0, 1, -1, 2.5, 10 ** 30, "", "x", "A1", "alice", [], [1], ["x"], [None],
                     {}, {"a": 1}, {"alice": 1}, {"x": [1]}, [[1]], [{}], [{"a": None}]]


def _grail_war() -> dict[str, Any]:
    """spec §5 of the grail war: every key a scenario may set."""
    return {"ruleset": "grail_war", "name": "full", "title": "t", "description": "d", "sides": ["red", "blue"],
            "map": {"width": 5, "height": 3, "rows": [".....", ".~~..", "....."],
                    "strongholds": [{"id": 1, "name": "柳洞寺", "pos": "A1", "kind": "heal",
                                     "territory": ["A1", "B1", "A2"], "owner": "red"},
                                    {"id": 2, "name": "远坂邸", "pos": "E3", "kind": "hand", "territory": ["E3"]}],
                    "tunnels": [{"mouths": ["A3", "E1"]}]},
            "rules": {"vision": 2, "initial_hand": 6, "combat_draw": 2},
            "characters": [{"id": "artoria", "name": "阿尔托利亚", "class": "CASTER", "side": "red", "player": "alice",
                            "hp": 4, "max_hp": 4, "move": 3, "pos": "A1", "hand": ["杀", "闪 ♥2"],
                            "equipment": {"weapon": "万华杖"}},
                           {"id": "mordred", "name": "莫德雷德", "class": "SABER", "side": "blue", "player": "bob",
                            "pos": "E2", "skills": []}],
            "deck": {"order": ["闪", "杀"]}}


def _guangying() -> dict[str, Any]:
    """spec §5 of 光与影."""
    return {"ruleset": "guangying", "name": "full", "players": ["alice", "bob"], "first": "alice",
            "sides": {"alice": "south", "bob": "north"},
            "fortress": {"alice": ["E1", "F1", "E2", "F2"], "bob": ["E11", "F11", "E12", "F12"]},
            "fortress_hp": {"alice": 100, "bob": 90}, "pool": {"alice": {"法师": 0}},
            "in_hand": {"alice": [{"id": "r1", "class": "巡林客", "hp": 10}]},
            "standing": {"bob": {"leader_dies": "return"}},
            "squads": [{"id": "s1", "owner": "alice", "pos": "C5",
                        "members": [{"id": "w1", "class": "战士", "hp": 20}, {"id": "r2", "class": "巡林客"}]},
                       {"id": "s2", "owner": "bob", "pos": "C8", "members": [{"id": "p9", "class": "牧师"}]}],
            "markers": [{"id": "k1", "kind": "岩", "owner": "bob", "cells": ["C6"], "by": "p9"},
                        {"id": "wl1", "kind": "风墙", "owner": "bob", "cells": ["D5", "E5", "F5"]}],
            "classes": {}}


def _hunlu() -> dict[str, Any]:
    """The bundled duel, with a general of the scenario's own (a copy of a bundled one) and a team
    entry setting its values and statuses."""
    from gm_tool.rulesets.hunlu.catalogue import DATA

    doc = safeyaml.load_mapping(app.BUNDLED / "hunlu_duel.yaml")
    general = safeyaml.load_mapping(DATA / "generals.yaml")["duanmo_zhijian"]
    doc["generals"] = {"duanmo_x": {**general, "name": "断魔之剑·改"}}
    doc["players"]["alice"]["team"]["dm"] = {"general": "duanmo_x", "role": "main", "pos": "C3", "jing": 6,
                                             "statuses": [{"name": "沉默", "rounds": 1}]}
    doc["dice"] = [3, 5, 6]
    return doc


def _shenjianglu() -> dict[str, Any]:
    from tests.shenjianglu.test_scenario_fuzz import FULL

    return copy.deepcopy(FULL)


FULL = {"grail_war": _grail_war, "guangying": _guangying, "hunlu": _hunlu, "shenjianglu": _shenjianglu}
STARTS = {**{f"{r}-full": FULL[r] for r in FULL},
          **{name: (lambda name=name: safeyaml.load_mapping(app.BUNDLED / f"{name}.yaml"))
             for name in app.bundled_scenarios()}}


def _check(doc: Any) -> None:
    """The invariant: a scenario becomes a campaign's setup or a GmError that renders in both
    languages (a missing message parameter would be an internal error too)."""
    try:
        app.check_scenario(doc, "s.yaml", "fuzz-seed-0123456789abcdef")
    except GmError as exc:
        assert exc.problems and all(p.file for p in exc.problems), exc
        exc.render("zh")
        exc.render("en")


def test_every_start_is_a_valid_scenario():
    """The fuzzers start from scenarios that set up, so changes reach every check."""
    for name, make in STARTS.items():
        app.check_scenario(make(), f"{name}.yaml", "fuzz-seed-0123456789abcdef")


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


def _changed(doc: Any, path: tuple, value: Any, remove: bool = False) -> Any:
    out = copy.deepcopy(doc)
    node = out
    for step in path[:-1]:
        node = node[step]
    if remove:
        del node[path[-1]]
    else:
        node[path[-1]] = copy.deepcopy(value)
    return out


@pytest.mark.parametrize("start", sorted(STARTS))
def test_every_field_of_every_type(start):
    """Each field of the scenario replaced by a value of each type, or removed: a sample in CI,
    all of them with GM_FUZZ_SWEEP=all."""
    doc = STARTS[start]()
    cases = [(path, value, False) for path in _paths(doc) if path != ("ruleset",) for value in VALUES]
    cases += [(path, None, True) for path in _paths(doc) if path != ("ruleset",)]
    if not SWEEP_ALL:
        cases = random.Random(start).sample(cases, min(SWEEP_SAMPLE, len(cases)))
    for path, value, remove in cases:
        try:
            _check(_changed(doc, path, value, remove))
        except AssertionError:
            raise
        except Exception as exc:  # noqa: BLE001 (the failure this test exists to find)
            raise AssertionError(f"{start}: {'removing' if remove else f'{value!r} at'} {path}: "
                                 f"{type(exc).__name__}: {exc}") from exc


scalars = (st.none() | st.booleans() | st.integers(-3, 40) | st.integers() | st.floats()
           | st.sampled_from(["alice", "bob", "red", "blue", "south", "north", "A1", "C5", "Z99", "杀", "战士", "岩",
                              "周", "商", "K1", "main", "reserve", "heal", "", " ", "\u202e"])
           | st.text(max_size=8))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(["id", "pos", "owner", "player", "class", "hp", "kind", "cells",
                                                         "members", "team", "general", "role", "side", "alice", "bob",
                                                         1, 2]) | st.text(max_size=5), inner, max_size=4),
                      max_leaves=12)


@pytest.mark.parametrize("ruleset", sorted(FULL))
def test_random_changes_of_a_full_scenario(ruleset):
    doc = FULL[ruleset]()
    paths = _paths(doc)

    @FUZZ
    @given(changes=st.lists(st.tuples(st.sampled_from(paths), values, st.booleans()), min_size=1, max_size=4))
    def run(changes):
        out = doc
        for path, value, remove in changes:
            try:
                out = _changed(out, path, value, remove and len(path) > 1)
            except (KeyError, IndexError, TypeError):  # an earlier change removed or replaced the parent
                continue
        _check(out)

    run()


@pytest.mark.parametrize("start, path, value", [
    ("guangying", ("sides", "alice"), 1), ("skirmish", ("map", "strongholds", 0, "territory"), True),
    ("shenjianglu", ("seats",), {1: None}), ("hunlu_duel", ("players", "alice", "team"), [1])])
def test_a_scenario_of_the_wrong_type_is_one_clear_line_at_new(gm, tmp_path, start, path, value):
    """Through the command line: exit 1, the scenario file named, no internal error, no folder."""
    import yaml

    doc = _changed(STARTS[start](), path, value)
    f = write(tmp_path / "s.yaml", yaml.safe_dump(doc, allow_unicode=True))
    r = gm("new", tmp_path / "c", "--scenario", f, "--lang", "en", code=1)
    assert str(f) in r.output and "internal error" not in r.output, r.output
    assert not (tmp_path / "c").exists()
