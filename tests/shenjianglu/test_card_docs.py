"""The five printed-card transcriptions of docs/shenjianglu.md ("Transcribing a printed card"),
read from the page itself into a scenario's catalogue and played in test games: the page cannot
show a card that `gm new` refuses or that plays otherwise than it says."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from tests.shenjianglu.helpers import duel, play, seat, types, unit

DOC = Path(__file__).resolve().parents[2] / "docs" / "shenjianglu.md"


def transcribed() -> dict[str, Any]:
    text = DOC.read_text("utf-8")
    section = text[text.index("### Transcribing a printed card"):text.index("## State JSON")]
    cards: dict[str, Any] = {}
    for block in re.findall(r"```yaml\n(.*?)```", section, re.S):
        cards.update(yaml.safe_load(block))
    return cards


CARDS = transcribed()


def game(**kw: Any) -> dict[str, Any]:
    return duel(catalogue=CARDS, **kw)


def test_the_page_shows_five_cards_that_gm_new_accepts():
    """seed l.5: "神將錄的卡牌分為人物、法術、裝備、順序牌4種。" — five transcriptions, all read by the card reader."""
    assert list(CARDS) == ["郑伦", "土行孙", "九龙神火罩", "风伯", "藤甲兵"]
    s = game()
    assert set(CARDS) <= set(s["catalogue"])


def test_zheng_lun_captures_an_adjacent_troop():
    """seed l.49: "若人物死亡或被收服（壓在身下），當前裝備會進入墓地。" — 郑伦's 鼻窍白光."""
    s = game(units=[{"id": "z", "card": "郑伦", "owner": "alice", "pos": "D4"},
                    {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3", "equipment": "甲"}])
    s2, ev = play(s, {"command": "z", "skill": "鼻窍白光", "targets": ["b1"]})
    assert unit(s2, "b1") is None and [c["card"] for c in unit(s2, "z")["captives"]] == ["兵"]
    assert seat(s2, "bob")["graveyard"] == ["甲"]


def test_tu_xingsun_strikes_a_back():
    """seed l.141-143 (3.10 人物的朝向) — 土行孙's 地行偷袭 needs the target's back, and 矮小 adds 1 from behind."""
    s = game(units=[{"id": "t", "card": "土行孙", "owner": "alice", "pos": "D2"},
                    {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])  # bob faces S: D2 is behind b1
    s2, ev = play(s, {"command": "t", "skill": "地行偷袭", "targets": ["b1"]})
    assert [(e["unit"], e["amount"]) for e in ev if e["type"] == "damage"][0] == ("b1", 4)


def test_nine_dragon_fire_hood_burns_the_target_and_its_neighbours():
    """seed l.205: "範圍攻擊：影響多個地點的攻擊。" — 九龙神火罩 on b1 reaches b2 beside it, not b3 further off."""
    s = game(hand1=["九龙神火罩"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"},
                                         {"id": "b2", "card": "盾", "owner": "bob", "pos": "E3"},
                                         {"id": "b3", "card": "盾", "owner": "bob", "pos": "G3"}])
    s2, ev = play(s, {"cast": "九龙神火罩", "targets": ["b1"]})
    assert [(e["unit"], e["amount"]) for e in ev if e["type"] == "damage"] == [("b1", 2), ("b2", 2)]


def test_feng_bo_blows_a_line_back():
    """seed l.135: "任何人物不能重疊在一起" — 风伯's 狂风 pushes every other unit on its line 2 cells."""
    s = game(units=[{"id": "f", "card": "风伯", "owner": "alice", "pos": "B6"},
                    {"id": "b1", "card": "兵", "owner": "bob", "pos": "B5"},
                    {"id": "b2", "card": "兵", "owner": "bob", "pos": "B3"}])
    s2, ev = play(s, {"command": "f", "skill": "狂风", "targets": ["b2"]})
    # in board order: b1 first, stopped after one cell by b2; then b2, two cells to the edge
    assert (unit(s2, "b1")["pos"], unit(s2, "b2")["pos"]) == ("B4", "B1")


def test_rattan_soldier_ignores_archers_and_pricks_attackers():
    """seed l.25: "【細分類型】 某些技能會對某些類型的人物產生針對效果。" and l.197 "凡是觸發有害效果的行為均為“攻擊”"."""
    s = game(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D5"},
                    {"id": "a2", "card": "兵", "owner": "alice", "pos": "C4"},
                    {"id": "r", "card": "藤甲兵", "owner": "bob", "pos": "D3"},
                    {"id": "r2", "card": "藤甲兵", "owner": "bob", "pos": "C3"}])
    s2, ev = play(s, {"command": "a1", "skill": "射", "targets": ["r"]}, {"command": "a2", "attack": "r2"})
    assert "immune_kind" in types(ev) and unit(s2, "r") is not None
    # a2 hits r2 (2), r2 answers (1) and its 棘刺 pricks a2 after the exchange (1)
    assert [(e["unit"], e["amount"], e["how"]) for e in ev if e["type"] == "damage"] == [
        ("r2", 2, "normal"), ("a2", 1, "counter"), ("a2", 1, "skill")]
