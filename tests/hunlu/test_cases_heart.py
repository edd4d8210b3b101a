"""Rule cases for 心战 (l.120): a face-down card, shown when the effect ends, 气 paid then."""

from __future__ import annotations

from tests.hunlu.helpers import RS, events, new, play, unit

SK = {"xin": {"name": "心战诀", "qi": 2, "shape": "single", "range": 3,
              "effects": [{"buff": {"name": "心战", "rounds": 1,
                                    "heart": {"A": [{"damage": 2}], "B": [{"status": {"name": "沉默", "rounds": 1}}]}}}]}}
GEN = {"mind": {"name": "心战者", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["xin"]}}
B = {"player": "bob", "pos": "C5"}


def cast(card):
    s = new({"a": {"general": "mind", "pos": "C3"}, "b": B}, generals=GEN, skills=SK)
    return s, play(s, [{"skill": "xin", "target": "b", "card": card}])


def test_heart_qi_paid_on_reveal_not_cast():
    """seed l.120: "心战技能的耗气将在展示卡牌后消耗。" """
    _, (s, _) = cast("A")
    assert unit(s, "a")["qi"] == 10


def test_heart_card_face_down():
    """seed l.120: "选择一张卡牌扣在自己面前" (the other side cannot see it)"""
    s0, (sa, ea) = cast("A")
    _, (sb, eb) = cast("B")
    assert RS.view(sa, "bob") == RS.view(sb, "bob")
    assert RS.posts(s0, sa, ea, "zh").texts["bob"] == RS.posts(s0, sb, eb, "zh").texts["bob"]
    assert [st["heart_card"] for st in unit(RS.view(sa, "alice"), "b")["statuses"]] == ["A"]


def test_heart_card_shown_when_effect_ends():
    """seed l.120: "当技能效果结束时，展示卡牌并执行相应的效果。" """
    _, (s, _) = cast("A")
    s, _ = play(s, [])  # round 2: active
    s, _ = play(s, [])
    s, ev = play(s, [])  # round 2 ends: the card is shown
    assert events(ev, "heart_reveal")[0]["card"] == "A"
    assert unit(s, "b")["jing"] == 5 and unit(s, "a")["qi"] == 8  # 10, paid 2 on reveal


def test_heart_card_b():
    """seed l.120: "准备三张卡牌（A,B,未启用）" (card B: its own effect)"""
    _, (s, _) = cast("B")
    for _ in range(3):
        s, ev = play(s, [])
    assert unit(s, "b")["jing"] == 7 and [x["name"] for x in unit(s, "b")["statuses"]] == ["沉默"]


def test_heart_card_unused_costs_nothing():
    """seed l.120: "准备三张卡牌（A,B,未启用）" (未启用: no effect, no 气)"""
    _, (s, _) = cast("none")
    qi = unit(s, "a")["qi"]
    for _ in range(3):
        s, ev = play(s, [])
    assert events(ev, "heart_reveal")[0]["card"] == "none" and unit(s, "b")["jing"] == 7
    assert unit(s, "a")["qi"] == qi == 10


def test_heart_card_from_standing():
    """seed l.120: "选择一张卡牌扣在自己面前" (the standing heart_card is used when the sheet names none)"""
    s = new({"a": {"general": "mind", "pos": "C3"}, "b": B}, generals=GEN, skills=SK)
    s, _ = play(s, [{"skill": "xin", "target": "b"}], standing={"alice": {"heart_card": {"a": "A"}}})
    assert unit(RS.view(s, "alice"), "b")["statuses"][0]["heart_card"] == "A"
