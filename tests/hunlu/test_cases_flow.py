"""魂陆's rule cases for movement, the round, statuses, death and substitution and dice are data:
tests/hunlu/cases/flow.yaml (run by gm_tool/cases.py, one case per former test of this file).
What a case file cannot say stays here: a forum die that is no integer (a case's dice are
integers by the format), and the replay property (the same inputs give the same turn)."""

from __future__ import annotations

import pytest

from gm_tool.errors import GmError
from tests.hunlu.helpers import RS, new, play

A = {"pos": "C3", "move": 4}
B = {"player": "bob", "pos": "C5"}


def test_dice_file_non_integer_refused():
    """seed l.47: "上面显示的数值即为判定结果" (a face is an integer)"""
    s = new({"a": A, "b": B})
    with pytest.raises(GmError) as e:
        RS.resolve(s, {}, "x", [2.5])
    assert e.value.problems[0].field == "dice.0"


def test_replay_identical():
    """seed l.47: "扔一次骰子" (the seeded generator: the same inputs give the same turn)"""
    s = new({"a": A, "b": B})
    a1, e1 = play(s, [{"attack": "b"}, {"attack": "b"}])
    a2, e2 = play(s, [{"attack": "b"}, {"attack": "b"}])
    assert a1 == a2 and e1 == e2
