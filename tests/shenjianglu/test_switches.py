"""House rules as scenario `rules:` switches (rulings 5, 11, 13, 15, 16): the seed's reading by
default, the other reading when a group asks for it; a wrong value is refused naming the field."""

from __future__ import annotations

from collections import Counter

import pytest

from gm_tool.errors import GmError
from gm_tool.rulesets.shenjianglu import RULESET as RS
from gm_tool.rulesets.shenjianglu.cards import bundled, bundled_decks
from gm_tool.rulesets.shenjianglu.rules import HOUSE_RULINGS, RULES, SWITCHES
from tests.shenjianglu.helpers import duel, pass_turn, play, seat, types

UNITS = [{"id": "a1", "card": "弓", "owner": "alice", "pos": "D5"}, {"id": "a2", "card": "兵", "owner": "alice", "pos": "C3"},
         {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}, {"id": "a3", "card": "兵", "owner": "alice", "pos": "D2"}]


def test_every_switch_defaults_to_the_seeds_reading():
    """seed l.181, l.87, l.223, l.209, l.49: the default of each switch is its first value, the seed's reading."""
    assert {s.name: RULES[s.name] for s in SWITCHES if s.house} == {"counter": "first_attack", "neutral_pool": "shared",
                                               "odd_bonus": "players_in", "empty_deck_penalty": "per_turn",
                                               "captives": "graveyard"}
    assert duel()["rules"]["counter"] == "first_attack"


def test_a_wrong_switch_value_is_refused_naming_the_field():
    """seed l.181 "最多只反擊第一次受到的攻擊" — `rules.counter` takes first_attack or first_counterable only."""
    with pytest.raises(GmError) as exc:
        duel(rules={"counter": "twice"})
    p = exc.value.problems[0]
    assert (p.code, p.field) == ("field.choice", "rules.counter") and "first_counterable" in p.render("en")


def test_only_the_first_attack_received_is_countered_and_the_post_says_why():
    """seed l.181: "一個回合內一個人物最多只反擊第一次受到的攻擊。" — a ranged first hit leaves no counter
    for the melee that follows; the events say why (ruling 5)."""
    s = duel(units=UNITS)
    s2, ev = play(s, {"command": "a1", "skill": "射", "targets": ["b1"]}, {"command": "a3", "attack": "b1"})
    assert "counter" not in types(ev)
    assert [(e["unit"], e["target"], e["reason"]) for e in ev if e["type"] == "counter_withheld"] == [("b1", "a3", "not_first")]


def test_first_counterable_switch_answers_the_first_attack_it_can():
    """seed l.181 read as "one counter a turn" (`rules: {counter: first_counterable}`): the melee after
    a ranged shot is answered, a second melee is not (ruling 5's switch)."""
    s = duel(units=UNITS, rules={"counter": "first_counterable"})
    s2, ev = play(s, {"command": "a1", "skill": "射", "targets": ["b1"]}, {"command": "a3", "attack": "b1"},
                  {"command": "a2", "to": "C3", "attack": "b1"})
    assert [(e["unit"], e["target"]) for e in ev if e["type"] == "counter"] == [("b1", "a3")]
    assert [(e["target"], e["reason"]) for e in ev if e["type"] == "counter_withheld"] == [("a2", "countered")]


def test_a_no_counter_skill_is_named_as_the_reason():
    """seed l.191: "人物技能 > 法術和裝備 > 基本規則" — 哪吒's 风火轮 beats 3.13, and the events say so."""
    s = duel(units=[{"id": "a1", "card": "哪吒", "owner": "alice", "pos": "D4"}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "attack": "b1"})
    assert [e["reason"] for e in ev if e["type"] == "counter_withheld"] == ["no_counter"]


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


def test_at_start_switch_keeps_the_bonus_of_the_opening_table():
    """seed l.223: "當玩家人數是單數時" counted at the start (`rules: {odd_bonus: at_start}`): four players,
    one out, nobody gets more; by default the side of one does (ruling 15)."""
    for rules, expected in ((None, (15, 2)), ({"odd_bonus": "at_start"}, (9, 1))):
        s = _four(rules)
        s["seats"][0]["out"] = True  # alice's king died earlier
        s["units"] = [u for u in s["units"] if u["owner"] != "p1"]
        s = pass_turn(s)
        carol = seat(s, "p3")
        assert (carol["mana"], carol["draw"]) == expected


def test_every_switch_names_its_seed_line_and_ruling():
    """seed l.49: every switch names the line it reads and the ruling that explains it."""
    assert {s.name: (s.seed, HOUSE_RULINGS[s.name]) for s in SWITCHES if s.house} == {
        "counter": ("l.181", 5), "neutral_pool": ("l.87", 13), "odd_bonus": ("l.223", 15),
        "empty_deck_penalty": ("l.209", 16), "captives": ("l.49", 11)}
