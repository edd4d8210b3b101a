"""The combat's tables: every skill primitive a definition may list has one function carrying it
out (registered by the module doing it), and every magic card but 万法破尽 has a play."""

from __future__ import annotations

import pytest

from gm_tool.rulesets.grail_war import cards
from gm_tool.rulesets.grail_war.combat import abilities, cardmoves, damage, magic
from gm_tool.rulesets.grail_war.combat import skills as defs


def test_every_primitive_but_the_static_ones_is_carried_out_by_one_function():
    running = {name for name, p in defs.PRIMITIVES.items() if p.run is not None}
    assert running == set(defs.PRIMITIVES) - set(defs.STATIC)
    assert defs.PRIMITIVES["damage"].run is damage.skill_damage
    assert defs.PRIMITIVES["judge"].run is abilities._judge


def test_a_primitive_is_registered_once():
    with pytest.raises(ValueError, match="damage"):
        defs.runs("damage")(damage.skill_damage)
    with pytest.raises(ValueError, match="convert"):
        defs.runs("convert")(damage.skill_damage)


def test_every_magic_card_but_wuxie_has_a_play_in_the_seed_order_of_ruling_c8():
    table, rank = magic.cards()
    magic_cards = {n for n in cards.all_names() if cards.kind_of()[n] == "magic"}
    assert set(table) == magic_cards - {"万法破尽"}
    assert list(rank) == ["石化魔眼", "枯竭庭院", "扭曲螺旋", "赤主槛发", "不死徒手", "决斗", "王之军势", "王之财宝",
                          "阿宁艾鲁贝的一日"]
    play, spec = table["王之财宝"]
    assert play is magic.volley and spec["want"] == "闪" and spec["damage"] == 1
    assert table["赤主槛发"][0] is magic.zone_card and magic.MOVES[table["赤主槛发"][1]["move"]] is cardmoves.take
