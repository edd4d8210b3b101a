"""心战 (l.120): the rule cases are data (tests/hunlu/cases/heart.yaml, run by gm_tool/cases.py);
what a case file cannot say stays here: the target's whole view and posts are the same whichever
card lies face down."""

from __future__ import annotations

from tests.hunlu.helpers import RS, new, play

SK = {"xin": {"name": "心战诀", "qi": 2, "shape": "single", "range": 3,
              "effects": [{"buff": {"name": "心战", "rounds": 1,
                                    "heart": {"A": [{"damage": 2}], "B": [{"status": {"name": "沉默", "rounds": 1}}]}}}]}}
GEN = {"mind": {"name": "心战者", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["xin"]}}
B = {"player": "bob", "pos": "C5"}


def cast(card):
    s = new({"a": {"general": "mind", "pos": "C3"}, "b": B}, generals=GEN, skills=SK)
    return s, play(s, [{"skill": "xin", "target": "b", "card": card}])


def test_heart_card_face_down():
    """seed l.120: "选择一张卡牌扣在自己面前" (the other side cannot see it, in its view or its posts)"""
    s0, (sa, ea) = cast("A")
    _, (sb, eb) = cast("B")
    assert RS.view(sa, "bob") == RS.view(sb, "bob")
    assert RS.posts(s0, sa, ea, "zh").texts["bob"] == RS.posts(s0, sb, eb, "zh").texts["bob"]
