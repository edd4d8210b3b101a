"""House rules as scenario `rules:` switches (rulings 5, 11, 13, 15, 16): what stays Python. The
deals of neutrals are properties over several seeds (one pool, no seat holding a neutral twice),
the switch table's seed lines and rulings are metadata, and a wrong value's message lists the
values allowed. The switches' rule cases are data: cases/switches.yaml, cases/four-seats.yaml."""

from __future__ import annotations

from collections import Counter

import pytest

from gm_tool.errors import GmError
from gm_tool.rulesets.shenjianglu import RULESET as RS
from gm_tool.rulesets.shenjianglu.cards import bundled, bundled_decks
from gm_tool.rulesets.shenjianglu.rules import HOUSE_RULINGS, SWITCHES
from tests.shenjianglu.helpers import duel


def test_a_wrong_switch_value_is_refused_naming_the_field():
    """seed l.181 "最多只反擊第一次受到的攻擊" — `rules.counter` takes first_attack or first_counterable only."""
    with pytest.raises(GmError) as exc:
        duel(rules={"counter": "twice"})
    p = exc.value.problems[0]
    assert (p.code, p.field) == ("field.choice", "rules.counter") and "first_counterable" in p.render("en")


def _four(rules: dict | None = None, seed: str = "s") -> dict:
    seats = {n: {"player": f"p{n}", "faction": "周" if n % 2 else "商"} for n in range(1, 5)}
    return RS.setup({"ruleset": "shenjianglu", "board": "four", "seats": seats, **({"rules": rules} if rules else {})},
                    "x.yaml", seed)


def _neutrals(s: dict) -> list[list[str]]:
    pool = set(bundled_decks()["neutrals"])
    return [sorted(c for c in x["hand"] + x["deck"] if c in pool) for x in s["seats"]]


def test_neutrals_are_dealt_from_one_pool():
    """seed l.87: "將中立陣營牌以背面隨機發給每人4張" — one pool dealt round the table (ruling 13); four seats
    take two sets of the 8 sample neutrals (l.215: more players, another set), every deck still legal (l.237)."""
    for seed in ("s", "t", "u", "v"):
        dealt = _neutrals(_four(seed=seed))
        assert all(len(d) == 4 for d in dealt)
        assert Counter(c for d in dealt for c in d) == Counter(bundled_decks()["neutrals"] * 2)
        for d in dealt:
            assert all(n <= (2 if bundled()[c]["quality"] in ("white", "green", "blue") else 1) for c, n in Counter(d).items())


def test_a_duel_deals_eight_different_neutrals():
    """seed l.87: "隨機發給每人4張" — from one pool of 8: the two seats never hold the same neutral."""
    s = RS.setup({"ruleset": "shenjianglu", "board": "duel", "seats": {1: {"player": "a", "faction": "周"},
                                                                      2: {"player": "b", "faction": "商"}}}, "x", "z")
    a, b = _neutrals(s)
    assert sorted(a + b) == sorted(bundled_decks()["neutrals"])


def test_per_seat_switch_gives_each_seat_its_own_pool():
    """seed l.87 with `rules: {neutral_pool: per_seat}`: each seat's 4 come from its own copy (4 different)."""
    found = set()
    for seed in ("a", "b", "c", "d", "e", "f"):
        for d in _neutrals(_four({"neutral_pool": "per_seat"}, seed)):
            assert len(set(d)) == 4
        found.add(tuple(tuple(d) for d in _neutrals(_four({"neutral_pool": "per_seat"}, seed))))
    assert len(found) > 1


def test_every_switch_names_its_seed_line_and_ruling():
    """seed l.49: every switch names the line it reads and the ruling that explains it."""
    assert {s.name: (s.seed, HOUSE_RULINGS[s.name]) for s in SWITCHES if s.house} == {
        "counter": ("l.181", 5), "neutral_pool": ("l.87", 13), "odd_bonus": ("l.223", 15),
        "empty_deck_penalty": ("l.209", 16), "captives": ("l.49", 11)}
