"""Seats, boards, decks and the opening (seed 3.1-3.6, 附录): what stays Python. Properties of the
bundled data (every sample deck legal, the six-seat board the eight-seat one without seats 7 and
8, each faction deck holding 4 neutrals of its own faction), of the shuffle (the campaign seed
deals the same decks) and one seat refused (a case lays its scenario over a base and cannot take
a seat away). Each docstring quotes the seed line it checks. The setup's rule cases are data:
cases/setup.yaml, cases/opening.yaml, cases/eight-seats.yaml, cases/four-seats.yaml, cases/seats.yaml."""

from __future__ import annotations

from collections import Counter

from gm_tool import app as ops
from gm_tool.rulesets.shenjianglu import RULESET as RS
from gm_tool.rulesets.shenjianglu.cards import bundled, bundled_decks


def scenario(name: str, seed: str = "s") -> dict:
    data, source = ops.load_scenario(name)
    return RS.setup(data, source, seed)


def test_four_neutrals_dealt_to_each_faction_deck():
    """seed l.87: "將中立陣營牌以背面隨機發給每人4張，各玩家查看之後放入自己的牌堆，洗牌後再開始遊戲。" """
    s = scenario("shenjianglu")
    neutrals = set(bundled_decks()["neutrals"])
    for x in s["seats"]:
        cards = x["hand"] + x["deck"]
        assert sum(1 for c in cards if c in neutrals) == 4
        assert all(bundled()[c]["faction"] in ("neutral", bundled()[x["king"]]["faction"]) for c in cards)


def test_shuffles_come_from_the_campaign_seed():
    """seed l.87: "洗牌後再開始遊戲" — the same seed deals the same decks, another seed others."""
    a, b, c = scenario("shenjianglu", "one"), scenario("shenjianglu", "one"), scenario("shenjianglu", "two")
    assert a == b
    assert [x["deck"] for x in a["seats"]] != [x["deck"] for x in c["seats"]]


def test_bundled_faction_decks_are_legal():
    """seed l.237 and l.233: the sample faction decks pass the deck-building rules (with any 4 neutrals)."""
    for faction, spec in bundled_decks()["factions"].items():
        deck = spec["deck"] + bundled_decks()["neutrals"][:4]
        assert 15 <= len(deck) <= 50
        for name, n in Counter(deck).items():
            card = bundled()[name]
            assert card["faction"] in (faction, "neutral")
            assert n <= (2 if card["quality"] in ("white", "green", "blue") else 1)


def test_six_seat_board_is_the_eight_seat_board_without_seats_seven_and_eight():
    """seed l.221: "【6人競技模式】 與8人模式的區別在於沒有上圖中的七、八號位。" """
    from gm_tool.rulesets.shenjianglu.cards import bundled_boards

    six, eight = bundled_boards()["six"], bundled_boards()["eight"]
    assert six["width"] == eight["width"] and six["height"] == eight["height"]
    for key in ("thrones", "spawns", "facing"):
        assert six[key] == {k: v for k, v in eight[key].items() if k not in (7, 8)}


def test_one_seat_is_refused():
    """seed l.1: "可供2～8人一起玩" """
    s = {"ruleset": "shenjianglu", "board": "duel", "seats": {1: {"player": "a", "faction": "周"}}}
    import pytest

    from gm_tool.errors import GmError

    with pytest.raises(GmError) as exc:
        RS.setup(s, "x.yaml", "s")
    assert exc.value.problems[0].field == "seats"
