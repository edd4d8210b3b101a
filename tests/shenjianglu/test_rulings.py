"""Rule cases for the gaps the contract leaves to rulings (docs/rulings/shenjianglu.md)."""

from __future__ import annotations

from gm_tool.rulesets.shenjianglu import RULESET as RS
from tests.shenjianglu.helpers import deck_for, duel, pass_turn, play, seat, types, unit

VOLLEY = {"弩": {"type": "character", "cost": 1, "faction": "neutral", "quality": "white", "attack": 1, "stamina": 9,
                "move": 1, "skills": [{"name": "连", "mode": "active", "range": 3, "target": "enemy", "count": 2,
                                       "effects": [{"damage": 1}]}]}}


def test_a_skill_on_two_adjacent_units_is_countered_by_both():
    """seed l.205: "範圍攻擊：影響多個地點的攻擊。" and l.177 "對相鄰別方人物...進行帶傷害的攻擊，會遭到反擊" (ruling 7)."""
    s = duel(catalogue=VOLLEY, units=[{"id": "a1", "card": "弩", "owner": "alice", "pos": "D4"},
                                      {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"},
                                      {"id": "b2", "card": "兵", "owner": "bob", "pos": "C4"}])
    s2, ev = play(s, {"command": "a1", "skill": "连", "targets": ["b1", "b2"]})
    assert [(e["unit"], e["target"], e["amount"]) for e in ev if e["type"] == "counter"] == [("b1", "a1", 1), ("b2", "a1", 2)]
    assert unit(s2, "a1") is not None


def test_range_crosses_void_cells():
    """seed l.169: "無論連接的路線上是否存在人物阻擋" — nor holes in the board (ruling 1)."""
    from gm_tool import app as ops

    data, source = ops.load_scenario("shenjianglu-4")
    data = {**data, "units": [{"id": "x1", "card": "弓手", "owner": "alice", "pos": "E1"},
                              {"id": "y1", "card": "民兵", "owner": "bob", "pos": "G1"}]}
    s = RS.setup(data, source, "v")
    assert "F1" in s["board"]["void"]
    s2, ev = play(s, {"command": "x1", "skill": "射箭", "targets": ["y1"]})
    assert [(e["unit"], e["amount"]) for e in ev if e["type"] == "damage"] == [("y1", 2)]


def test_movement_never_enters_void():
    """seed l.131: "可移動距離以連接目標的一條或者多條直線線路計算路線長度" — along the board only (ruling 1)."""
    import pytest

    from gm_tool import app as ops
    from gm_tool.errors import GmError

    data, source = ops.load_scenario("shenjianglu-4")
    data = {**data, "units": [{"id": "x1", "card": "斥候", "owner": "alice", "pos": "E1"},
                              {"id": "x2", "card": "民兵", "owner": "alice", "pos": "E9"}]}
    s = RS.setup(data, source, "v")
    with pytest.raises(GmError) as exc:  # E9 to G9 is 2 across the void F9, 4 around it
        RS.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"command": "x2", "to": "G9"}]}, "a", "en")
    assert exc.value.problems[0].code == "shenjianglu.orders.no_route"
    s2, ev = play(s, {"command": "x1", "to": "G1"})
    assert [e["path"] for e in ev if e["type"] == "move"] == [["E2", "F2", "G2", "G1"]]


def test_a_spell_killing_both_last_kings_is_a_draw():
    """seed l.213: "若雙方最後一個王同時死亡則為平局。" — one effect on both kings is 同時 (ruling 17)."""
    both = {"雷2": {"type": "spell", "cost": 3, "faction": "neutral", "quality": "white", "target": "any", "only": "king",
                   "count": 2, "effects": [{"damage": 2}]}}
    s = duel(hand1=["雷2"], catalogue=both, units=[{"id": "K1", "damage": 8}, {"id": "K2", "damage": 8}])
    s2, ev = play(s, {"cast": "雷2", "targets": ["K1", "K2"]})
    assert s2["winner"] == "draw"


def test_a_forced_turn_uses_up_the_counter():
    """seed l.197: "凡是觸發有害效果的行為均為“攻擊”。" — 妲己's 魅惑 (turn, −2 武力) is the first attack received (ruling 5)."""
    s = duel(units=[{"id": "a1", "card": "妲己", "owner": "alice", "pos": "B4"}, {"id": "a2", "card": "兵", "owner": "alice", "pos": "D4"},
                    {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "skill": "魅惑", "targets": ["b1"]}, {"command": "a2", "attack": "b1"})
    assert "counter" not in types(ev)
    assert [e["attack"] for e in ev if e["type"] == "buff"] == [0]


def test_a_draw_effect_on_an_empty_deck_costs_nothing():
    """seed l.209: "當你的回合開始時若無牌可摸" — the penalty belongs to the draw phase only (ruling 16)."""
    extra = {"书": {"type": "spell", "cost": 1, "faction": "neutral", "quality": "white", "target": "own",
                   "effects": [{"draw": 1}]}}
    deck = deck_for(["书"])
    s = duel(hand1=deck, deck1=deck, catalogue=extra, units=[])
    s["seats"][0]["deck"] = []
    s2, ev = play(s, {"cast": "书", "targets": ["K1"]})
    assert unit(s2, "K1")["damage"] == 0 and "no_card" in types(ev)


def test_a_player_whose_king_dies_mid_turn_does_nothing_more():
    """seed l.187: "王被殺死的玩家將退出遊戲" — the rest of the sheet is skipped; the next seat plays (ruling 22)."""
    s = duel(hand1=["兵"], units=[{"id": "K1", "pos": "D2", "damage": 9}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"},
                                  {"id": "K2", "pos": "A1"}])
    # a 4-seat game would go on; in a duel bob wins at once
    s2, ev = play(s, {"command": "K1", "attack": "b1"}, {"summon": "兵", "at": "D6"})
    assert s2["winner"] == "green"
    assert [(e["index"], e["reason"]) for e in ev if e["type"] == "action.skipped"] == [(2, "game_over")]


def test_a_dead_king_in_a_four_seat_game_passes_the_turn():
    """seed l.187: "王被殺死的玩家將退出遊戲" — the team plays on while it has a king (ruling 22)."""
    from gm_tool import app as ops

    data, source = ops.load_scenario("shenjianglu-4")
    data = {**data, "units": [{"id": "K1", "pos": "C7", "damage": 11}, {"id": "y1", "card": "民兵", "owner": "bob", "pos": "C6"}]}
    s = RS.setup(data, source, "q")
    s2, ev = play(s, {"command": "K1", "attack": "y1"})
    assert seat(s2, "alice")["out"] and s2["winner"] is None and s2["next"] == "bob"
    s3 = pass_turn(pass_turn(s2))
    assert s3["next"] == "dave"
    assert pass_turn(s3)["next"] == "bob"  # alice's seat is passed over


def test_gm_removal_fires_no_death_effect():
    """seed l.49: "若人物死亡或被收服（壓在身下），當前裝備會進入墓地。" — 收服 is a GM edit here (ruling 11)."""
    s = duel(units=[{"id": "y1", "card": "袁洪", "owner": "bob", "pos": "D3", "equipment": "甲"},
                    {"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"}])
    s2, ev = RS.amend(s, {"action": "remove", "args": ["y1"], "reason": "收服"}, "gm amend")
    assert unit(s2, "y1") is None and sorted(seat(s2, "bob")["graveyard"]) == ["甲", "袁洪"]
    assert unit(s2, "a1")["damage"] == 0 and "trigger" not in types(ev)


def test_trigger_targets_every_matching_unit():
    """seed l.165: "【自動技能】 人物上場後自動生效" — a trigger without a choice hits every unit it names (ruling 28)."""
    s = duel(units=[{"id": "y1", "card": "袁洪", "owner": "bob", "pos": "D4", "damage": 4}, {"id": "a1", "card": "盾", "owner": "alice", "pos": "D5"},
                    {"id": "a2", "card": "盾", "owner": "alice", "pos": "C4"}, {"id": "a3", "card": "盾", "owner": "alice", "pos": "B2"}],
             hand1=["大雷"])
    s2, ev = play(s, {"cast": "大雷", "targets": ["y1"]})
    hits = sorted(e["unit"] for e in ev if e["type"] == "damage" and e["how"] == "skill")
    assert hits == ["a1", "a2"]


def test_mana_given_on_another_players_turn_is_lost():
    """seed l.103: "每個玩家每回合均有固定的9點法力值" — mana is the active player's, this turn (ruling 19)."""
    s = duel(hand1=["雷"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}],
             catalogue={"盾": {"type": "character", "cost": 1, "faction": "neutral", "quality": "white", "attack": 1,
                              "stamina": 1, "move": 1, "skills": [{"name": "遗", "mode": "auto", "when": "death", "target": "self",
                                                                   "effects": [{"mana": 3}]}]}})
    s2, ev = play(s, {"cast": "雷", "targets": ["b1"]})
    assert unit(s2, "b1") is None and seat(s2, "bob")["mana"] == 9


def test_front_back_and_side_of_a_unit():
    """seed l.141: "人物的初始朝向為玩家座位的正前方" — front, back and side as cards read them (ruling 28)."""
    from gm_tool.rulesets.shenjianglu.geometry import side_of

    here = (3, 3)
    assert side_of(here, "N", (3, 2)) == "front" and side_of(here, "N", (3, 4)) == "back"
    assert side_of(here, "N", (2, 3)) == "side" and side_of(here, "E", (2, 3)) == "back"
    assert side_of(here, "N", (4, 2)) == "front" and side_of(here, "N", (5, 2)) == "side"  # the diagonal is front


def test_every_ruling_names_a_test_that_exists():
    """seed l.191: "【是否生效優先級】" — every ruling in docs/rulings/shenjianglu.md is checked by a named test
    or rule case (cases/*.yaml)."""
    import re
    from pathlib import Path

    from gm_tool.cases import load

    root = Path(__file__).parent
    doc = (root.parent.parent / "docs" / "rulings" / "shenjianglu.md").read_text("utf-8")
    named = set(re.findall(r"(test_[a-z0-9_]+)`", doc))
    defined = set(re.findall(r"^def (test_[a-z0-9_]+)\(", "\n".join(p.read_text("utf-8") for p in root.glob("test_*.py")), re.M))
    cases = set(re.findall(r"`(cases/[a-z0-9-]+\.yaml#[a-z0-9-]+)`", doc))  # rule cases as data: FILE#ID
    written = {f"cases/{p.name}#{case.id}" for p in (root / "cases").glob("*.yaml") for case in load(p)}
    assert len(re.findall(r"^\*\*\d+\.", doc, re.M)) >= 27
    assert named and named <= defined, named - defined
    assert cases and cases <= written, cases - written
