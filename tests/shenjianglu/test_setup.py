"""Rule cases: seats, teams, boards, decks and the opening (seed 3.1-3.6, 附录). Each docstring
quotes the seed line it checks."""

from __future__ import annotations

from collections import Counter

from gm_tool import app as ops
from gm_tool.rulesets.shenjianglu import RULESET as RS
from gm_tool.rulesets.shenjianglu.cards import bundled, bundled_decks
from tests.shenjianglu.helpers import deck_for, duel, pass_turn, seat, setup_refused, unit


def scenario(name: str, seed: str = "s") -> dict:
    data, source = ops.load_scenario(name)
    return RS.setup(data, source, seed)


def test_odd_seats_red_even_seats_green():
    """seed l.75: "摸到單數的為紅隊，摸到雙數的為綠隊。" """
    s = scenario("shenjianglu-8")
    assert [x["team"] for x in s["seats"]] == ["red", "green"] * 4
    assert {u["id"]: u["team"] for u in s["units"]} == {f"K{n}": ("red" if n % 2 else "green") for n in range(1, 9)}


def test_seat_one_plays_first_then_in_order():
    """seed l.99: "抽到“一”號順序牌的為先手，然後按順序依次行動。" """
    s = scenario("shenjianglu-4")
    seen = [s["next"]]
    for _ in range(4):
        s = pass_turn(s)
        seen.append(s["next"])
    assert seen == ["alice", "bob", "carol", "dave", "alice"]
    assert s["turn"] == 4


def test_kings_start_on_their_thrones():
    """seed l.91: "各玩家將本陣營的“王”放入王位。" """
    s = scenario("shenjianglu-8")
    for n in range(1, 9):
        assert unit(s, f"K{n}")["pos"] == s["board"]["thrones"][str(n)]
        assert unit(s, f"K{n}")["card"] == seat(s, f"p{n}")["king"]


def test_opening_hand_is_five_and_seat_one_has_drawn():
    """seed l.95: "每個玩家從自己牌堆中抽取5張牌作為初始手牌。" (seat 1 has also drawn its turn's card)"""
    s = scenario("shenjianglu")
    assert len(seat(s, "bob")["hand"]) == 5
    assert len(seat(s, "alice")["hand"]) == 6
    total = {x["player"]: x["hand_count"] + x["deck_count"] for x in s["seats"]}
    assert total == {"alice": 24, "bob": 23}  # faction decks of 20 and 19, plus 4 neutrals each


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


def test_deck_of_fourteen_is_refused():
    """seed l.233: "（1） 一副套牌至少15張，最多50張。" """
    assert ("shenjianglu.scenario.deck_size", "seats.1.deck") in setup_refused(deck1=deck_for(size=14))


def test_deck_of_fifty_one_is_refused():
    """seed l.233: "（1） 一副套牌至少15張，最多50張。" """
    extra = {f"多{i}": {"type": "spell", "cost": 1, "faction": "neutral", "quality": "white", "target": "any",
                       "effects": [{"heal": 1}]} for i in range(30)}
    deck = deck_for(size=16) + [f"多{i}" for i in range(30) for _ in range(2)][:35]
    assert len(deck) == 51
    assert ("shenjianglu.scenario.deck_size", "seats.1.deck") in setup_refused(deck1=deck, catalogue=extra)
    duel(deck1=deck[:50], catalogue=extra)  # fifty is fine


def test_the_king_is_not_counted_in_the_deck():
    """seed l.233: "一副套牌至少15張" — fifteen cards besides the king are a legal deck (ruling 12)."""
    s = duel(deck1=deck_for(size=15))
    assert seat(s, "alice")["hand_count"] + seat(s, "alice")["deck_count"] == 15
    assert unit(s, "K1")["card"] == "测王"


def test_a_card_of_another_faction_is_refused():
    """seed l.235: "（2） 各卡牌是相同陣營或中立陣營。" """
    assert ("shenjianglu.scenario.deck_faction", "seats.1.deck") in setup_refused(deck1=deck_for(["天雷"]))


def test_three_white_copies_are_refused_two_allowed():
    """seed l.237: "相同名字的白色、綠色、藍色品質卡牌最多可攜帶2張" """
    assert ("shenjianglu.scenario.deck_copies", "seats.1.deck") in setup_refused(deck1=deck_for(["兵"] * 3))
    duel(deck1=deck_for(["兵"] * 2))


def test_two_purple_copies_are_refused():
    """seed l.237: "更高品質的最多只能攜帶一張。" """
    assert ("shenjianglu.scenario.deck_copies", "seats.1.deck") in setup_refused(deck1=deck_for(["大雷"] * 2))


def test_bundled_faction_decks_are_legal():
    """seed l.237 and l.233: the sample faction decks pass the deck-building rules (with any 4 neutrals)."""
    for faction, spec in bundled_decks()["factions"].items():
        deck = spec["deck"] + bundled_decks()["neutrals"][:4]
        assert 15 <= len(deck) <= 50
        for name, n in Counter(deck).items():
            card = bundled()[name]
            assert card["faction"] in (faction, "neutral")
            assert n <= (2 if card["quality"] in ("white", "green", "blue") else 1)


def test_eight_seat_board_faces_the_enemy():
    """seed l.219: "人物朝向統一朝向敵方。" — odd seats face N, even seats S, across the board."""
    s = scenario("shenjianglu-8")
    for n in range(1, 9):
        k = unit(s, f"K{n}")
        assert k["facing"] == ("N" if n % 2 else "S")
        assert k["pos"].endswith("9" if n % 2 else "1")


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


def test_more_seats_than_thrones_are_refused():
    """seed l.1: "可供2～8人一起玩" — and no more seats than the board has thrones."""
    import pytest

    from gm_tool.errors import GmError

    seats = {n: {"player": f"p{n}", "faction": "周" if n % 2 else "商"} for n in range(1, 4)}
    with pytest.raises(GmError) as exc:
        RS.setup({"ruleset": "shenjianglu", "board": "duel", "seats": seats}, "x.yaml", "s")
    assert exc.value.problems[0].code == "shenjianglu.scenario.seat_count"


def test_odd_number_of_players_gives_the_smaller_team_more():
    """seed l.223: "當玩家人數是單數時 即是3、5、7人時，人少的那隊每人每回合法力值多6點，且多摸一張牌。" """
    seats = {n: {"player": f"p{n}", "faction": "周" if n % 2 else "商"} for n in range(1, 4)}
    s = RS.setup({"ruleset": "shenjianglu", "board": "four", "seats": seats}, "x.yaml", "s")
    assert [(x["mana"], x["draw"]) for x in s["seats"]] == [(9, 1), (15, 2), (9, 1)]
    s = pass_turn(s)
    assert s["next"] == "p2" and seat(s, "p2")["hand_count"] == 7  # drew two


def test_order_is_the_top_of_the_pile():
    """seed l.111: "摸牌階段：從牌堆中摸1張牌。" — scenario `order` is what is drawn next."""
    s = duel(hand1=["兵"], order1=["雷", "盾"], hand2=["弓"], order2=["疗"])
    assert seat(s, "alice")["hand"] == ["兵", "雷"]
    assert seat(s, "alice")["deck"][0] == "盾"
    s = pass_turn(s)
    assert seat(s, "bob")["hand"] == ["弓", "疗"]


def test_set_pieces_cannot_share_a_cell():
    """seed l.135: "任何人物不能重疊在一起" — a scenario stacking two units is refused."""
    problems = setup_refused(units=[{"id": "x", "card": "兵", "owner": "alice", "pos": "D7"}])
    assert problems[0][0] == "shenjianglu.scenario.stacked"


def test_a_card_outside_the_primitives_is_refused():
    """seed l.25 "【細分類型】 某些技能會對某些類型的人物產生針對效果。" — skills are data from the documented primitives only."""
    bad = {"怪": {"type": "spell", "cost": 1, "faction": "neutral", "quality": "white", "effects": [{"steal": 1}]}}
    problems = setup_refused(catalogue=bad)
    assert ("field.unknown", "catalogue.怪.effects.1.steal") in problems


def test_kings_arrive_at_turn_zero_and_may_act_first_turn():
    """seed l.117: "指揮上一回合上場的我方全部人物陸續行動一次" — kings are on the board before turn 1."""
    s = duel()
    assert unit(s, "K1")["arrived"] == 0 and unit(s, "K1")["can_act"] is True
    assert unit(s, "K2")["can_act"] is False  # not bob's turn
