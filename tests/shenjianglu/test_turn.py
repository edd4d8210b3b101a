"""Rule cases: the turn, mana, drawing and its limits, the end phase (seed 3.7, 3.8, 附录)."""

from __future__ import annotations

from gm_tool.rulesets.shenjianglu import RULESET as RS
from tests.shenjianglu.helpers import deck_for, duel, pass_turn, play, refused, seat, sheet, types, unit


def test_nine_mana_every_turn():
    """seed l.103: "每個玩家每回合均有固定的9點法力值，使用卡牌時按照卡牌左上方的“法力消耗”數值扣除法力值。" """
    s = duel(hand1=["雷", "雷", "兵"])
    assert seat(s, "alice")["mana"] == 9
    s2, ev = play(s, {"cast": "雷", "targets": ["K2"]}, {"cast": "雷", "targets": ["K2"]}, {"summon": "兵", "at": "D6"})
    assert [e["mana"] for e in ev if e["type"] in ("cast", "summon")] == [6, 3, 2]


def test_over_budget_is_refused_naming_the_action():
    """seed l.103: "使用卡牌時按照卡牌左上方的“法力消耗”數值扣除法力值。" — 9 then 1 is over the 9."""
    s = duel(hand1=["大雷", "兵"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    assert refused(s, {"cast": "大雷", "targets": ["b1"]}, {"summon": "兵", "at": "D6"}) == [
        ("shenjianglu.orders.over_budget", "actions.2.summon")]


def test_unspent_mana_is_lost():
    """seed l.103: "固定的9點法力值" — a turn spent idle leaves the next turn at 9, not 18."""
    s = pass_turn(pass_turn(duel()))
    assert s["next"] == "alice" and seat(s, "alice")["mana"] == 9


def test_one_card_drawn_at_turn_start():
    """seed l.111: "摸牌階段：從牌堆中摸1張牌。" """
    s = duel(hand1=["兵"], hand2=["兵"])
    assert seat(s, "bob")["hand_count"] == 1
    s = pass_turn(s)
    assert seat(s, "bob")["hand_count"] == 2 and seat(s, "bob")["deck_count"] == 13


def test_twelve_cards_at_turn_start_means_no_draw():
    """seed l.207: "【摸牌限制】 當你的回合開始時若手牌大於等於12張，則不能摸牌。" """
    hand = deck_for(size=12)
    s = pass_turn(duel(hand2=hand))
    assert seat(s, "bob")["hand_count"] == 12 and seat(s, "bob")["deck_count"] == 3


def test_eleven_cards_draw_normally():
    """seed l.207: "手牌大於等於12張，則不能摸牌" — 11 is below the limit: the draw brings 12."""
    s = pass_turn(duel(hand2=deck_for(size=11)))
    assert seat(s, "bob")["hand_count"] == 12


def test_eleven_cards_and_two_draws_take_both():
    """seed l.207: "當你的回合開始時若手牌大於等於12張" — the limit is read once, at turn start (ruling 16)."""
    seats = {1: {"player": "p1", "faction": "周"}, 2: {"player": "p2", "faction": "商"}, 3: {"player": "p3", "faction": "周"}}
    from gm_tool.rulesets.shenjianglu.cards import bundled_decks

    deck = bundled_decks()["factions"]["商"]["deck"]
    seats[2] = {"player": "p2", "king": "商王", "deck": deck, "hand": deck[:11]}
    s = RS.setup({"ruleset": "shenjianglu", "board": "four", "seats": seats}, "x.yaml", "s")
    s = pass_turn(s)
    assert s["next"] == "p2" and seat(s, "p2")["hand_count"] == 13


def test_empty_deck_costs_the_king_two():
    """seed l.209: "【無牌懲罰】 當你的回合開始時若無牌可摸，則每次強制減少2點王的體力。" """
    deck = deck_for(size=15)
    s = duel(deck2=deck, hand2=deck[:5])
    s["seats"][1]["graveyard"], s["seats"][1]["deck"] = deck[5:], []
    s = pass_turn(s)
    assert unit(s, "K2")["damage"] == 2 and seat(s, "bob")["hand_count"] == 5


def test_empty_deck_with_two_draws_costs_two_once():
    """seed l.209: "當你的回合開始時若無牌可摸，則每次強制減少2點王的體力" — 每次: each turn start that finds
    no card, 2 once however many draws were due (ruling 16)."""
    seats = {1: {"player": "p1", "faction": "周"}, 2: {"player": "p2", "faction": "商"}, 3: {"player": "p3", "faction": "周"}}
    s = RS.setup({"ruleset": "shenjianglu", "board": "four", "seats": seats}, "x.yaml", "s")
    assert seat(s, "p2")["draw"] == 2
    s["seats"][1]["deck"] = []
    s = pass_turn(s)
    assert unit(s, "K2")["damage"] == 2


def test_a_seat_that_drew_its_card_and_missed_the_bonus_draw_loses_nothing():
    """seed l.209: "若無牌可摸" — one card left for two draws: there was a card to draw, no penalty (ruling 16)."""
    seats = {1: {"player": "p1", "faction": "周"}, 2: {"player": "p2", "faction": "商"}, 3: {"player": "p3", "faction": "周"}}
    s = RS.setup({"ruleset": "shenjianglu", "board": "four", "seats": seats}, "x.yaml", "s")
    last = s["seats"][1]["deck"][0]
    s["seats"][1]["deck"] = [last]
    s, ev = play(s)
    assert unit(s, "K2")["damage"] == 0 and seat(s, "p2")["hand"][-1] == last and "empty_deck" not in types(ev)


def test_per_draw_switch_costs_each_missing_draw():
    """seed l.209: "則每次強制減少2點王的體力" read per draw (`rules: {empty_deck_penalty: per_draw}`): two
    draws on an empty deck cost 4, one card for two draws costs 2 (ruling 16's switch)."""
    seats = {1: {"player": "p1", "faction": "周"}, 2: {"player": "p2", "faction": "商"}, 3: {"player": "p3", "faction": "周"}}
    scenario = {"ruleset": "shenjianglu", "board": "four", "seats": seats, "rules": {"empty_deck_penalty": "per_draw"}}
    s = RS.setup(scenario, "x.yaml", "s")
    s["seats"][1]["deck"] = []
    assert unit(pass_turn(s), "K2")["damage"] == 4
    s = RS.setup(scenario, "x.yaml", "s")
    s["seats"][1]["deck"] = s["seats"][1]["deck"][:1]
    assert unit(pass_turn(s), "K2")["damage"] == 2


def test_twelve_cards_and_an_empty_deck_cost_nothing():
    """seed l.207 and l.209: "若手牌大於等於12張，則不能摸牌" — who may not draw finds no empty deck (ruling 16)."""
    deck = deck_for(size=15)
    s = duel(deck2=deck, hand2=deck)
    assert seat(s, "bob")["deck_count"] == 0
    s = pass_turn(s)
    assert unit(s, "K2")["damage"] == 0


def test_empty_deck_can_kill_the_king():
    """seed l.209: "強制減少2點王的體力" and l.33 "如果王被殺死則意味著失敗。" """
    deck = deck_for(size=15)
    s = duel(deck2=deck, hand2=deck[:5], units=[{"id": "K2", "damage": 9}])
    s["seats"][1]["graveyard"], s["seats"][1]["deck"] = deck[5:], []
    s = pass_turn(s)
    assert s["winner"] == "red" and s["next"] is None and RS.due(s) == []


def test_wounded_troops_recover_at_the_end_phase():
    """seed l.127: "結束階段： 受傷的將士體力全部回滿，然後進入下一個玩家的回合。" """
    s = duel(units=[{"id": "a1", "card": "盾", "owner": "alice", "pos": "D4"},
                    {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "attack": "b1"})
    assert [(e["unit"], e["damage"]) for e in ev if e["type"] == "damage"] == [("b1", 1), ("a1", 1)]
    assert unit(s2, "a1")["damage"] == 0 and unit(s2, "b1")["damage"] == 0
    assert "recover" in types(ev)


def test_kings_never_recover():
    """seed l.33: "王的體力不能回復。" — the end phase heals troops only."""
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D2"}])
    s2, _ = play(s, {"command": "a1", "attack": "K2"})
    assert unit(s2, "K2")["damage"] == 2
    assert unit(pass_turn(s2), "K2")["damage"] == 2


def test_a_heal_on_a_king_does_nothing_but_the_card_is_spent():
    """seed l.33: "王的體力不能回復。" — the spell is still played (contract §3)."""
    s = duel(hand1=["疗"], units=[{"id": "K1", "damage": 4}])
    s2, ev = play(s, {"cast": "疗", "targets": ["K1"]})
    assert unit(s2, "K1")["damage"] == 4
    assert seat(s2, "alice")["graveyard"] == ["疗"] and "no_effect" in types(ev)


def test_a_heal_on_a_troop_mends_damage_of_this_turn():
    """seed l.17: "【體力】 一個回合內能夠承受傷害的累計最大值。" — healed damage no longer counts."""
    s = duel(hand1=["疗", "雷"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"cast": "雷", "targets": ["b1"]}, {"cast": "疗", "targets": ["b1"]})
    assert [e["amount"] for e in ev if e["type"] == "heal"] == [2]


def test_a_turn_is_one_seat():
    """seed l.195: "【回合的定義】 每個玩家從自己的回合開始到結束稱為“一個回合”。" """
    s = duel()
    s2 = pass_turn(s)
    assert (s2["turn"], s2["next"]) == (1, "bob")
    assert (pass_turn(s2)["turn"], pass_turn(s2)["next"]) == (2, "alice")


def test_only_the_seat_to_play_may_send_a_sheet():
    """seed l.99: "然後按順序依次行動。" — bob's sheet on alice's turn is refused at `player`."""
    s = duel()
    import pytest

    from gm_tool.errors import GmError

    with pytest.raises(GmError) as exc:
        RS.parse_orders(s, {"turn": 1, "player": "bob", "actions": []}, "b.yaml", "en")
    assert [(p.code, p.field) for p in exc.value.problems] == [("shenjianglu.orders.not_due", "player")]


def test_a_sheet_for_another_turn_is_refused():
    """seed l.195: "每個玩家從自己的回合開始到結束稱為“一個回合”。" — the sheet names the turn being played."""
    import pytest

    from gm_tool.errors import GmError

    with pytest.raises(GmError) as exc:
        RS.parse_orders(duel(), {"turn": 2, "player": "alice", "actions": []}, "a.yaml", "en")
    assert exc.value.problems[0].field == "turn"


def test_stored_states_hold_no_troop_damage():
    """seed l.127: "受傷的將士體力全部回滿" — every stored state stands after an end phase."""
    s = duel(hand1=["雷"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    s2, _ = play(s, {"cast": "雷", "targets": ["b1"]})
    assert all(u["damage"] == 0 for u in s2["units"] if not u["king"])


def test_the_smaller_team_spends_fifteen():
    """seed l.223: "人少的那隊每人每回合法力值多6點" — p2, alone in green against two reds, plays 9 + 3 + 3."""
    from tests.shenjianglu.helpers import CATALOGUE

    seats = {1: {"player": "p1", "king": "测王", "deck": deck_for()},
             2: {"player": "p2", "king": "测王", "deck": deck_for(["大雷", "雷", "雷"]), "hand": ["大雷", "雷", "雷"]},
             3: {"player": "p3", "king": "测王", "deck": deck_for()}}
    s = RS.setup({"ruleset": "shenjianglu", "board": "four", "seats": seats, "catalogue": CATALOGUE}, "x.yaml", "s")
    s = pass_turn(s)
    assert s["next"] == "p2" and seat(s, "p2")["mana"] == 15
    s2, ev = play(s, {"cast": "大雷", "targets": ["K1"]}, {"cast": "雷", "targets": ["K3"]}, {"cast": "雷", "targets": ["K3"]})
    assert [e["mana"] for e in ev if e["type"] == "cast"] == [6, 3, 0]
    assert unit(s2, "K3")["damage"] == 4 and seat(s2, "p1")["out"]


def test_bonus_follows_the_players_still_in():
    """seed l.223: "當玩家人數是單數時 ... 人少的那隊每人每回合法力值多6點，且多摸一張牌。" — counted among players still in (ruling 15)."""
    seats = {n: {"player": f"p{n}", "faction": "周" if n % 2 else "商"} for n in range(1, 5)}
    s = RS.setup({"ruleset": "shenjianglu", "board": "four", "seats": seats}, "x.yaml", "s")
    assert [x["mana"] for x in s["seats"]] == [9, 9, 9, 9]
    s["units"] = [u for u in s["units"] if u["id"] != "K4"]
    s["seats"][3]["out"] = True
    s = pass_turn(s)
    assert s["next"] == "p2" and seat(s, "p2")["mana"] == 15 and seat(s, "p2")["draw"] == 2
    assert seat(s, "p1")["mana"] == 9


def test_pass_is_an_empty_action_list():
    """seed l.113: "行動階段：以下3種行為可自行決定順序" — doing none of them is a pass."""
    s = duel()
    orders = RS.parse_orders(s, sheet(s), "a.yaml", "zh")
    assert orders.actions == []
    assert RS.pass_orders(s, "alice").actions == []
