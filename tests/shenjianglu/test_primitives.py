"""Card primitives for the seed's mechanics a printed card names (issue 21): 收服, facing as a
condition, area effects, pushes and pulls, reactions (attacked, damaged, a unit's death), and
bonuses, reductions and immunities by 细分类型. Each case quotes the seed line it reads; the
cards are defined in the scenario's catalogue, as a GM would enter them.

The duel board: alice (seat 1) on row 7 facing N (towards row 1), bob (seat 2) on row 1 facing S."""

from __future__ import annotations

from typing import Any

import pytest

from gm_tool.errors import GmError
from gm_tool.rulesets.shenjianglu.geometry import side_of
from tests.shenjianglu.helpers import duel, pass_turn, play, refused, seat, types, unit

W = {"faction": "neutral", "quality": "white", "cost": 1}


def troop(attack: int = 1, stamina: int = 9, move: int = 2, kind: str = "步兵", **extra: Any) -> dict[str, Any]:
    return {"type": "character", "attack": attack, "stamina": stamina, "move": move, "kind": kind, **W, **extra}


def active(name: str, effects: list[dict[str, Any]], range_: int = 1, target: str = "enemy", **extra: Any) -> dict[str, Any]:
    return {"name": name, "mode": "active", "range": range_, "target": target, "effects": effects, **extra}


def auto(name: str, when: str | None, effects: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"name": name, "mode": "auto", **({"when": when} if when else {}), "effects": effects, **extra}


def dmg(events: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(e["unit"], e["amount"]) for e in events if e["type"] == "damage"]


# --- 收服 ----------------------------------------------------------------------------------------

CAPTOR = {"降": troop(attack=2, skills=[active("收", [{"capture": True}])])}


def test_a_captured_unit_goes_under_its_captor_and_its_equipment_to_the_graveyard():
    """seed l.49: "若人物死亡或被收服（壓在身下），當前裝備會進入墓地。" """
    s = duel(catalogue=CAPTOR, units=[{"id": "a1", "card": "降", "owner": "alice", "pos": "D4"},
                                      {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3", "equipment": "甲"}])
    s2, ev = play(s, {"command": "a1", "skill": "收", "targets": ["b1"]})
    assert unit(s2, "b1") is None
    assert [(c["card"], c["owner"]) for c in unit(s2, "a1")["captives"]] == [("兵", "bob")]
    assert seat(s2, "bob")["graveyard"] == ["甲"]  # the card itself is under a1, not in the graveyard
    assert "counter" not in types(ev) and "death" not in types(ev)


def test_a_captured_unit_fires_no_death_effect():
    """seed l.165: "【自動技能】 人物上場後自動生效，若死亡或被收服則失效。" — 袁洪's 反噬 does not fire."""
    s = duel(catalogue=CAPTOR, units=[{"id": "a1", "card": "降", "owner": "alice", "pos": "D4"},
                                      {"id": "y1", "card": "袁洪", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "skill": "收", "targets": ["y1"]})
    assert unit(s2, "y1") is None and "trigger" not in types(ev) and unit(s2, "a1")["damage"] == 0


def test_a_king_cannot_be_captured():
    """seed l.33: "如果王被殺死則意味著失敗。" — a king ends only by death; 收服 on it does nothing (ruling 11)."""
    s = duel(catalogue=CAPTOR, units=[{"id": "a1", "card": "降", "owner": "alice", "pos": "D2"}])
    s2, ev = play(s, {"command": "a1", "skill": "收", "targets": ["K2"]})
    assert unit(s2, "K2") is not None and [e["effect"] for e in ev if e["type"] == "no_effect"] == ["capture"]


def test_when_the_captor_dies_its_captive_goes_to_its_owners_graveyard():
    """seed l.49 and l.67: "我方死亡的人物...放到這裡" — a captive leaves with its captor, to its own
    owner's graveyard, by default (ruling 11)."""
    s = duel(hand2=["大雷"], catalogue=CAPTOR, units=[{"id": "a1", "card": "降", "owner": "alice", "pos": "D4"},
                                                      {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"}])
    s2, _ = play(s, {"command": "a1", "skill": "收", "targets": ["b1"]})
    s3, ev = play(s2, {"cast": "大雷", "targets": ["a1"]})
    assert unit(s3, "a1") is None and unit(s3, "b1") is None
    assert seat(s3, "alice")["graveyard"] == ["降"] and seat(s3, "bob")["graveyard"] == ["大雷", "兵"]
    assert [(e["card"], e["owner"]) for e in ev if e["type"] == "captive_lost"] == [("兵", "bob")]


def test_release_switch_puts_the_captive_back_where_its_captor_stood():
    """seed l.49 "被收服（壓在身下）" with `rules: {captives: release}`: the captive comes back on the
    captor's cell, its owner's again, facing its seat's front, and waits a turn (l.115 立足時間)."""
    s = duel(hand2=["大雷"], catalogue=CAPTOR, rules={"captives": "release"},
             units=[{"id": "a1", "card": "降", "owner": "alice", "pos": "D4"},
                    {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3", "facing": "E"}])
    s2, _ = play(s, {"command": "a1", "skill": "收", "targets": ["b1"]})
    s3, ev = play(s2, {"cast": "大雷", "targets": ["a1"]})
    b1 = unit(s3, "b1")
    assert (b1["pos"], b1["owner"], b1["facing"], b1["arrived"]) == ("D4", "bob", "S", 2)
    assert seat(s3, "bob")["graveyard"] == ["大雷"] and "released" in types(ev)


def test_capture_in_a_spell_is_refused():
    """seed l.49: "被收服（壓在身下）" — a captive lies under a unit, so only a unit's skill captures."""
    bad = {"网": {"type": "spell", "target": "enemy", "effects": [{"capture": True}], **W}}
    with pytest.raises(GmError) as exc:
        duel(catalogue=bad)
    assert ("field.unknown", "catalogue.网.effects.1.capture") in [(p.code, p.field) for p in exc.value.problems]


# --- facing as a condition -------------------------------------------------------------------

def test_front_back_and_side_of_a_unit():
    """seed l.141: "人物的初始朝向為玩家座位的正前方" — front, back and side as cards read them (ruling 28)."""
    here = (3, 3)
    assert side_of(here, "N", (3, 2)) == "front" and side_of(here, "N", (3, 4)) == "back"
    assert side_of(here, "N", (2, 3)) == "side" and side_of(here, "E", (2, 3)) == "back"
    assert side_of(here, "N", (4, 2)) == "front" and side_of(here, "N", (5, 2)) == "side"  # the diagonal is front


def test_a_skill_that_needs_the_targets_back():
    """seed l.143: "人物的朝向一般情況下不會改變" — a card may test it: 背刺 only from behind the target."""
    cat = {"刺客": troop(skills=[active("背刺", [{"damage": 3}], **{"from": "back"})])}
    units = [{"id": "a1", "card": "刺客", "owner": "alice", "pos": "D2"}, {"id": "a2", "card": "刺客", "owner": "alice", "pos": "C4"},
             {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"}, {"id": "b2", "card": "兵", "owner": "bob", "pos": "C3"}]
    s = duel(catalogue=cat, units=units)
    # b1 faces S: a1 at D2 stands behind it; b2 faces S too and a2 at C4 stands before it
    assert dmg(play(s, {"command": "a1", "skill": "背刺", "targets": ["b1"]})[1])[0] == ("b1", 3)
    assert refused(s, {"command": "a2", "skill": "背刺", "targets": ["b2"]}) == [
        ("shenjianglu.orders.bad_target", "actions.1.targets.1")]


def test_a_skill_on_the_unit_it_faces():
    """seed l.141: "卡牌頂條的朝向與其一致" — `in_front: true` reaches only what stands before the user."""
    cat = {"枪": troop(skills=[active("刺", [{"damage": 2}], range_=2, in_front=True)])}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "枪", "owner": "alice", "pos": "D4"},
                                   {"id": "b1", "card": "兵", "owner": "bob", "pos": "D2"},
                                   {"id": "b2", "card": "兵", "owner": "bob", "pos": "D5"}])
    assert dmg(play(s, {"command": "a1", "skill": "刺", "targets": ["b1"]})[1]) == [("b1", 2)]
    assert refused(s, {"command": "a1", "skill": "刺", "targets": ["b2"]})[0][0] == "shenjianglu.orders.bad_target"


def test_a_bonus_from_behind():
    """seed l.25: "某些技能會對某些類型的人物產生針對效果" and l.139 3.10 朝向 — +2 damage when striking a back."""
    cat = {"狼": troop(attack=1, skills=[auto("偷袭", None, [{"bonus": {"from": "back", "damage": 2}}])])}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "狼", "owner": "alice", "pos": "D2"},
                                   {"id": "a2", "card": "狼", "owner": "alice", "pos": "C4"},
                                   {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"},
                                   {"id": "b2", "card": "盾", "owner": "bob", "pos": "C3"}])
    s2, ev = play(s, {"command": "a1", "attack": "b1"}, {"command": "a2", "attack": "b2"})
    assert [x for x in dmg(ev) if x[0] in ("b1", "b2")] == [("b1", 3), ("b2", 1)]


# --- area effects ----------------------------------------------------------------------------

def test_a_splash_hits_the_target_and_the_enemies_next_to_it():
    """seed l.205: "範圍攻擊：影響多個地點的攻擊。" — `area: {within: 1}` round the chosen target."""
    cat = {"炮": troop(skills=[active("轰", [{"damage": 1}], range_=4, area={"within": 1})])}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "炮", "owner": "alice", "pos": "D6"},
                                   {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"},
                                   {"id": "b2", "card": "兵", "owner": "bob", "pos": "C3"},
                                   {"id": "b3", "card": "兵", "owner": "bob", "pos": "B3"},
                                   {"id": "a2", "card": "兵", "owner": "alice", "pos": "E3"}])
    s2, ev = play(s, {"command": "a1", "skill": "轰", "targets": ["b1"]})
    assert dmg(ev) == [("b1", 1), ("b2", 1)]  # b3 is 2 away; a2 is alice's own (target: enemy)


def test_a_blast_round_the_user():
    """seed l.205: "影響多個地點" — a skill on itself with `area: {within: 2, target: enemy}`."""
    cat = {"雷公": troop(skills=[active("震", [{"damage": 2}], range_=0, target="self", area={"within": 2, "target": "enemy"})])}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "雷公", "owner": "alice", "pos": "D4"},
                                   {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"},
                                   {"id": "b2", "card": "兵", "owner": "bob", "pos": "F4"},
                                   {"id": "b3", "card": "兵", "owner": "bob", "pos": "G4"},
                                   {"id": "a2", "card": "兵", "owner": "alice", "pos": "C4"}])
    s2, ev = play(s, {"command": "a1", "skill": "震", "targets": []})
    assert [x for x in dmg(ev) if x[0] != "a1"] == [("b1", 2), ("b2", 2)]
    assert [e["unit"] for e in ev if e["type"] == "counter"] == ["b1"]  # the adjacent one answers (ruling 7)


def test_a_line_hits_every_unit_on_it_and_needs_a_target_in_line():
    """seed l.205: "影響多個地點的攻擊" — `area: {line: 3}`: the 3 cells from the user towards the target."""
    cat = {"枪阵": troop(skills=[active("贯", [{"damage": 1}], range_=3, target="other", area={"line": 3, "target": "other"})])}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "枪阵", "owner": "alice", "pos": "D5"},
                                   {"id": "b1", "card": "兵", "owner": "bob", "pos": "D4"},
                                   {"id": "b2", "card": "兵", "owner": "bob", "pos": "D2"},
                                   {"id": "b3", "card": "兵", "owner": "bob", "pos": "D1"},
                                   {"id": "b4", "card": "兵", "owner": "bob", "pos": "C4"}, {"id": "K2", "pos": "A1"}])
    s2, ev = play(s, {"command": "a1", "skill": "贯", "targets": ["b2"]})
    assert [x for x in dmg(ev) if x[0] != "a1"] == [("b1", 1), ("b2", 1)]  # D4, D3, D2; not D1, not C4
    assert refused(s, {"command": "a1", "skill": "贯", "targets": ["b4"]}) == [
        ("shenjianglu.orders.not_in_line", "actions.1.targets.1")]


def test_a_spell_on_an_area():
    """seed l.39: "絕大部分法術可對任意人物施放，無距離限制" and l.205 範圍攻擊 — a spell with `area: {within: 1}`."""
    cat = {"火雨": {"type": "spell", "target": "enemy", "area": {"within": 1}, "effects": [{"damage": 2}], **W}}
    s = duel(hand1=["火雨"], catalogue=cat, units=[{"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"},
                                                   {"id": "b2", "card": "兵", "owner": "bob", "pos": "D2"}])
    s2, ev = play(s, {"cast": "火雨", "targets": ["b1"]})
    assert dmg(ev) == [("b1", 2), ("b2", 2)]  # K2 on D1 is 2 from b1
    assert [e["area"] for e in ev if e["type"] == "cast"] == [["b1", "b2"]]


def test_a_trigger_on_every_enemy_within_two():
    """seed l.165: "【自動技能】 人物上場後自動生效" — an arrival trigger with `area: {within: 2}`."""
    cat = {"惊雷": troop(skills=[auto("雷鸣", "arrive", [{"damage": 1}], target="enemy", area={"within": 2})])}
    s = duel(hand1=["惊雷"], catalogue=cat, units=[{"id": "b1", "card": "兵", "owner": "bob", "pos": "D5"},
                                                   {"id": "b2", "card": "兵", "owner": "bob", "pos": "D4"}])
    s2, ev = play(s, {"summon": "惊雷", "at": "D6", "id": "a1"})
    assert dmg(ev) == [("b1", 1), ("a1", 2), ("b2", 1)]  # b1, adjacent, answers the skill attack (S15)


# --- pushes and pulls ------------------------------------------------------------------------

def test_a_push_moves_the_target_straight_away_and_stops_at_a_unit():
    """seed l.135: "任何人物不能重疊在一起" and l.143 (facing unchanged) — `push: 3` stops before a unit."""
    cat = {"力士": troop(skills=[active("推", [{"push": 3}])])}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "力士", "owner": "alice", "pos": "D5"},
                                   {"id": "b1", "card": "兵", "owner": "bob", "pos": "D4"},
                                   {"id": "b2", "card": "兵", "owner": "bob", "pos": "D2"}])
    s2, ev = play(s, {"command": "a1", "skill": "推", "targets": ["b1"]})
    assert unit(s2, "b1")["pos"] == "D3" and unit(s2, "b1")["facing"] == "S"
    assert [(e["frm"], e["pos"], e["cells"]) for e in ev if e["type"] == "shoved"] == [("D4", "D3", 1)]


def test_a_pull_brings_the_target_next_to_the_user():
    """seed l.131: "可移動距離以連接目標的一條或者多條直線線路計算" — `pull: 5` along the line, up to the user."""
    cat = {"钩": troop(skills=[active("拉", [{"pull": 5}], range_=4)])}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "钩", "owner": "alice", "pos": "D6"},
                                   {"id": "b1", "card": "兵", "owner": "bob", "pos": "D2"}])
    s2, _ = play(s, {"command": "a1", "skill": "拉", "targets": ["b1"]})
    assert unit(s2, "b1")["pos"] == "D5"


def test_a_spell_pushes_a_unit_backwards():
    """seed l.143: "除非被別人用技能或法術強制轉向" — a spell has no user: its push sends the target back
    from where it faces, to the board's edge at most (ruling 30)."""
    cat = {"风": {"type": "spell", "target": "enemy", "effects": [{"push": 5}], **W}}
    s = duel(hand1=["风"], catalogue=cat, units=[{"id": "b1", "card": "兵", "owner": "bob", "pos": "B4"}])
    s2, _ = play(s, {"cast": "风", "targets": ["b1"]})
    assert unit(s2, "b1")["pos"] == "B1"  # faces S, pushed N to row 1


# --- reactions -------------------------------------------------------------------------------

def test_when_attacked_strikes_the_attacker():
    """seed l.197: "凡是觸發有害效果的行為均為“攻擊”" — a `when: attacked` trigger on `target: attacker`,
    even after a ranged shot that no counter answers."""
    cat = {"刺猬": troop(stamina=9, skills=[auto("棘", "attacked", [{"damage": 1}], target="attacker")])}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D6"},
                                   {"id": "b1", "card": "刺猬", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "skill": "射", "targets": ["b1"]})
    assert dmg(ev) == [("b1", 2), ("a1", 1)]


def test_reactions_do_not_answer_reactions():
    """seed l.181: "一個回合內一個人物最多只反擊第一次受到的攻擊" in spirit — two thorned units do not
    trade blows for ever: what a reaction does sets off no reaction (ruling 31)."""
    cat = {"刺猬": troop(attack=0, stamina=9, skills=[auto("棘", "attacked", [{"damage": 1}], target="attacker")])}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "刺猬", "owner": "alice", "pos": "D4"},
                                                 {"id": "b1", "card": "刺猬", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "attack": "b1"})
    # a1's attack (武力 0: not countered), b1's thorn (1), a1's counter to the thorn (武力 0); nothing more
    assert dmg(ev) == [("b1", 0), ("a1", 1), ("b1", 0)]
    assert [e["unit"] for e in ev if e["type"] == "trigger"] == ["b1"]


def test_when_damaged_but_not_when_armour_stops_it():
    """seed l.193: "受到攻擊時，會先算減傷之後再算技能效果" — `when: damaged` fires after reductions, only if
    damage is left."""
    cat = {"狂战": troop(attack=1, stamina=9, skills=[auto("怒", "damaged", [{"buff": {"attack": 2}}])])}
    s = duel(hand1=["雷", "甲"], catalogue=cat, units=[{"id": "b1", "card": "狂战", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"cast": "雷", "targets": ["b1"]})
    assert [e["attack"] for e in ev if e["type"] == "buff"] == [3]
    cat["甲甲"] = {"type": "equipment", "target": "any", "effects": [{"reduce": 3}], **W}
    s = duel(hand1=["雷", "甲甲"], catalogue=cat, units=[{"id": "b1", "card": "狂战", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"equip": "甲甲", "unit": "b1"}, {"cast": "雷", "targets": ["b1"]})
    assert "buff" not in types(ev) and dmg(ev) == [("b1", 0)]


def test_when_an_own_unit_dies():
    """seed l.187: "（不觸發死亡效果）" read the other way: a death in play does trigger — `when: unit_death`
    with `of: own` answers the death of its owner's other units."""
    cat = {"哀兵": troop(attack=1, skills=[auto("哀", "unit_death", [{"buff": {"attack": 2}}], of="own")])}
    s = duel(hand2=["雷"], catalogue=cat, units=[{"id": "a1", "card": "哀兵", "owner": "alice", "pos": "A4"},
                                                 {"id": "a2", "card": "快", "owner": "alice", "pos": "G4"},
                                                 {"id": "b1", "card": "快", "owner": "bob", "pos": "G2"}])
    s = pass_turn(s)
    s2, ev = play(s, {"cast": "雷", "targets": ["a2"]})
    assert [(e["unit"], e["attack"]) for e in ev if e["type"] == "buff"] == [("a1", 3)]


def test_an_enemy_death_does_not_trigger_an_own_watcher():
    """seed l.187 and l.67: `of: own` is the owner's units only: bob's death leaves alice's 哀兵 alone."""
    cat = {"哀兵": troop(attack=1, skills=[auto("哀", "unit_death", [{"buff": {"attack": 2}}], of="own")])}
    s = duel(hand1=["雷"], catalogue=cat, units=[{"id": "a1", "card": "哀兵", "owner": "alice", "pos": "A4"},
                                                 {"id": "b1", "card": "快", "owner": "bob", "pos": "G2"}])
    s2, ev = play(s, {"cast": "雷", "targets": ["b1"]})
    assert unit(s2, "b1") is None and "buff" not in types(ev)


# --- by 细分类型 ------------------------------------------------------------------------------

def test_immune_to_a_kind():
    """seed l.25: "【細分類型】 某些技能會對某些類型的人物產生針對效果。" — `immune: {kind: 弓兵}`: a
    弓兵's shot does nothing, and the unit does not answer what does not reach it."""
    cat = {"藤甲": troop(stamina=3, skills=[auto("藤", None, [{"immune": {"kind": "弓兵"}}])])}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D4"},
                                   {"id": "a2", "card": "兵", "owner": "alice", "pos": "C4"},
                                   {"id": "b1", "card": "藤甲", "owner": "bob", "pos": "D3"},
                                   {"id": "b2", "card": "藤甲", "owner": "bob", "pos": "C3"}])
    s2, ev = play(s, {"command": "a1", "skill": "射", "targets": ["b1"]}, {"command": "a2", "attack": "b2"})
    assert [e["unit"] for e in ev if e["type"] == "immune_kind"] == ["b1"]
    assert dmg(ev) == [("b2", 2), ("a2", 1)]  # a 步兵 still hurts


def test_a_reduction_against_one_kind():
    """seed l.25 细分类型 and l.193 "會先算減傷" — `reduce: {kind: 骑兵, amount: 2}` only against 骑兵."""
    cat = {"拒马": troop(stamina=9, skills=[auto("拒", None, [{"reduce": {"kind": "骑兵", "amount": 2}}])]),
           "骑": troop(attack=3, kind="骑兵"), "步": troop(attack=3, kind="步兵")}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "骑", "owner": "alice", "pos": "D4"},
                                   {"id": "a2", "card": "步", "owner": "alice", "pos": "C4"},
                                   {"id": "b1", "card": "拒马", "owner": "bob", "pos": "D3"},
                                   {"id": "b2", "card": "拒马", "owner": "bob", "pos": "C3"}])
    s2, ev = play(s, {"command": "a1", "attack": "b1"}, {"command": "a2", "attack": "b2"})
    assert [x for x in dmg(ev) if x[0].startswith("b")] == [("b1", 1), ("b2", 3)]


def test_a_bonus_against_one_kind():
    """seed l.25 "某些技能會對某些類型的人物產生針對效果" — 哪吒's 风火轮: +2 against 骑兵 (a 骑兵 only)."""
    cat = {"骑": troop(attack=1, stamina=9, kind="骑兵"), "步": troop(attack=1, stamina=9, kind="步兵")}
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "哪吒", "owner": "alice", "pos": "D4"},
                                   {"id": "b1", "card": "骑", "owner": "bob", "pos": "D3"}])
    assert dmg(play(s, {"command": "a1", "attack": "b1"})[1]) == [("b1", 6)]
    s = duel(catalogue=cat, units=[{"id": "a1", "card": "哪吒", "owner": "alice", "pos": "D4"},
                                   {"id": "b1", "card": "步", "owner": "bob", "pos": "D3"}])
    assert dmg(play(s, {"command": "a1", "attack": "b1"})[1]) == [("b1", 4)]


def test_new_primitives_read_in_the_seeds_words():
    """seed l.25-27: 【細分類型】【生效方式】 — the new keys in Chinese: 收服, 击退, 范围, 方位, 免疫, 时机."""
    cat = {"降魔": {"type": "人物", "法力消耗": 1, "阵营": "中立", "品质": "白", "武力": 1, "体力": 3, "移动力": 1, "细分类型": "术士",
                  "技能": [{"名称": "镇", "生效方式": "主动", "射程": 1, "目标": "敌方", "方位": "后", "效果": [{"收服": True}]},
                         {"名称": "震", "生效方式": "主动", "射程": 2, "目标": "敌方", "范围": {"距离": 1}, "效果": [{"击退": 1}]},
                         {"名称": "罩", "生效方式": "自动", "效果": [{"免疫": {"细分类型": "弓兵"}}]},
                         {"名称": "怒", "生效方式": "自动", "时机": "受到攻击", "目标": "攻击者", "效果": [{"伤害": 1}]}]}}
    s = duel(catalogue=cat)
    card = s["catalogue"]["降魔"]
    assert [sk.get("from") for sk in card["skills"]][:1] == ["back"]
    assert card["skills"][1]["area"] == {"within": 1} and card["skills"][3]["target"] == "attacker"
