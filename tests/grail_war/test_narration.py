"""What the posts say of cards played through an equipment (seed l.218 月灵髓液 "视为你使用了一张【杀】",
l.222 正式外典 "将杀当闪"): the equipment is named, never a bare dash."""

from __future__ import annotations

from gm_tool.core.render import MARKUPS
from gm_tool.rulesets.grail_war.narrate import Teller
from tests.grail_war.combat_kit import A, B, fight


def told(r, lang: str = "zh") -> list[str]:
    names = {c.id: c.name for c in r.game.characters}
    teller = Teller(names, lang, MARKUPS["md"])
    return [teller.sentence(e) for e in r.log if e["type"] in ("strike", "respond", "respond_by")]


def test_moon_drop_strike_is_told_by_name():
    r = fight(A("gawain", armor="月灵髓液", sheet={"dodge_order": ["magic"]}), B("mordred"))
    lines = told(r)
    assert any("出杀 【月灵髓液】" in line for line in lines), lines
    assert not any("—" in line for line in lines)
    assert any("uses 杀 【月灵髓液】" in line for line in told(r, "en"))


def test_formal_scripture_conversion_names_the_card_and_the_equipment():
    r = fight(A("gawain", "杀 ♠7"),
              B("mordred", "杀 ♥9", armor="正式外典",
                sheet={"strike_order": ["none"], "dodge_order": [{"against": "strike", "via": "正式外典"}]}))
    lines = told(r)
    assert any("杀 ♥9" in line and "（正式外典）" in line for line in lines), lines


def test_a_taken_hand_card_is_told_once_to_taker_and_victim():
    """l.186 【赤主槛发】 with l.269 "若你选择的是手牌，则你从中随机抽取一张": the two players involved read
    which card changed hands (one line); everyone else who sees the cell reads that a hand card
    was taken, not which."""
    from gm_tool.rulesets.grail_war.vision import assign_audiences

    r = fight(A("gawain", "赤主槛发", sheet={"magic": {"zone_priority": ["hand"]}}), A("emiya"),
              B("mordred", "宝石"))
    assign_audiences(r.game, r.log)
    public = r.of("take_hand_card")[0]
    seen = r.of("take_card_seen")[0]
    assert seen["to"] == ["p_gawain", "p_mordred"]
    assert "p_emiya" in public["to"] and "p_gawain" not in public["to"] and "p_mordred" not in public["to"]
