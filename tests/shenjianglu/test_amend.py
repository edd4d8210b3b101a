"""GM edits (`gm amend`) that fit 神将录: each changes what it says, tells the public the edit and
its reason, tells which card moved only to its player, and refuses what cannot be done."""

from __future__ import annotations

import pytest

from gm_tool.core.ruleset import check_amend
from gm_tool.errors import GmError
from gm_tool.rulesets.shenjianglu import RULESET as RS
from tests.shenjianglu.helpers import duel, seat, unit


def amend(state, action, *args):
    record = check_amend(RS, {"action": action, "args": list(args), "reason": "fix"}, "gm amend")
    return RS.amend(state, record, "gm amend")


def test_move_and_face():
    """seed l.143: "人物的朝向一般情況下不會改變" — only a skill, a spell or the GM turns a unit."""
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"}])
    s2, ev = amend(s, "move", "a1", "c4")
    assert unit(s2, "a1")["pos"] == "C4"
    assert [(e["type"], e["frm"], e["pos"], e["reason"]) for e in ev] == [("amend_move", "D5", "C4", "fix")]
    s3, _ = amend(s2, "face", "a1", "西")
    assert unit(s3, "a1")["facing"] == "W"
    with pytest.raises(GmError) as exc:
        amend(s, "move", "a1", "D7")  # the king stands there
    assert exc.value.problems[0].field == "args.1"


def test_cards_between_deck_hand_and_graveyard_are_told_to_their_player_only():
    """seed l.95: "每個玩家從自己牌堆中抽取5張牌作為初始手牌。" — a GM's card fix stays as private as the hand."""
    s = duel(hand1=["兵"], order1=["雷", "盾"])
    s2, ev = amend(s, "give_card", "alice", "盾")
    assert "盾" in seat(s2, "alice")["hand"] and "盾" not in seat(s2, "alice")["deck"]
    assert [e["to"] for e in ev if e["type"] == "amend_card"] == [["alice"]]
    assert all("盾" not in str(e) for e in ev if e["to"] == "all")
    s3, _ = amend(s2, "take_card", "alice", "兵")
    assert seat(s3, "alice")["graveyard"] == ["兵"] and seat(s3, "alice")["hand_count"] == len(seat(s3, "alice")["hand"])
    with pytest.raises(GmError):
        amend(s, "take_card", "alice", "大雷")


def test_set_damage_can_kill_and_end_the_game():
    """seed l.33: "如果王被殺死則意味著失敗。" — an edit that kills settles the death at once."""
    s2, ev = amend(duel(), "set_damage", "K2", "10")
    assert s2["winner"] == "red" and unit(s2, "K2") is None


def test_unknown_unit_is_refused_naming_the_argument():
    """seed l.135: "任何人物不能重疊在一起" — edits name units by id; an unknown one is refused cleanly."""
    with pytest.raises(GmError) as exc:
        amend(duel(), "set_damage", "zz", "1")
    assert exc.value.problems[0].code == "shenjianglu.amend.no_unit"
    with pytest.raises(GmError):
        amend(duel(), "remove", "K1")  # a king is not removed by hand
