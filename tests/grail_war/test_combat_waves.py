"""A wave of 杀 is simultaneous (ruling C35, issue 23): every target answers it before any of it
lands, and what the landing sets off reads the fight as the wave found it."""

from __future__ import annotations

from tests.grail_war.combat_kit import A, B, fight


def test_c35_a_skill_set_off_by_the_wave_does_not_take_the_dodge_that_answers_it():
    """seed l.231 "每个角色的移动行是同时的" and l.165-167 "ABCD同时出杀，则ABCD只需要各处一张闪就好": 卫宫 and
    莫德雷德 strike each other in the same wave. 莫德雷德 (given 投影魔术 here, l.161 "被扣血后可获得对方一张
    牌") is answered first in actor order and hit; his skill takes a card of 卫宫's, but 卫宫 has
    already answered the wave with his only 闪, so the 杀 aimed at him is dodged."""
    r = fight(B("mordred", "杀", skills=["projection"]), A("emiya", "杀", "闪"), order=["mordred", "emiya"])
    assert [(e["character"], e["need"]) for e in r.of("respond")] == [("emiya", "闪")]
    assert r.damage() == [("emiya", "mordred", 1)]
    assert r.hp("emiya") == 4 and r.hp("mordred") == 3
    answered = r.of("respond", character="emiya")[0]["seq"]
    assert all(e["seq"] > answered for e in r.of("damage"))


def test_c35_full_hp_is_read_when_the_wave_is_made():
    """seed l.231 with 日轮加护 (C20: "锁定技，你使用的【杀】造成伤害时，若你的体力值为满，该伤害+1"): 高文 at
    full HP and 莫德雷德 strike each other in one wave; 高文 is first in actor order, so the 杀 aimed
    at him lands first, but his own 杀 of that same wave was used at full HP and deals 2."""
    r = fight(A("gawain", "杀", skills=["sun_blessing"]), B("mordred", "杀"), order=["gawain", "mordred"])
    assert r.damage() == [("mordred", "gawain", 1), ("gawain", "mordred", 2)]
    assert (r.hp("gawain"), r.hp("mordred")) == (3, 2)


def test_c35_the_next_wave_sees_what_the_first_did():
    """Waves follow each other (l.168 "而若是同一角色使用的第二张则需要两张【闪】"): 高文, hurt by the first
    wave, uses his second 杀 (双枪-like 七夜) no longer at full HP: it deals 1."""
    r = fight(A("gawain", "杀", "杀", skills=["sun_blessing"], weapon="七夜"), B("mordred", "杀", hp=6, max_hp=6),
              order=["gawain", "mordred"])
    assert [a for s, t, a in r.damage() if s == "gawain"] == [2, 1]
