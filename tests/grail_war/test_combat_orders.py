"""The combat part of the order sheet: the seed's sample sheet, bad input refused with its
reason (as `gm check` reports it), the hand limit from `keep` (R8) and who learns what."""

from __future__ import annotations

import pytest

from gm_tool.core.events import EventLog
from gm_tool.errors import GmError
from gm_tool.rulesets.grail_war import hands, orders

from .combat_kit import A, B, build, fight


def parse(hand, sheet, cid="artoria", **kw):
    game, _ = build(A(cid, *hand, skills=None, **kw), B("mordred"))
    c = game.character(cid)
    return game, orders.parse(game, {"turn": 1, "player": c.player, **sheet}, "s.yaml", "en")


def refused(hand, sheet, **kw) -> str:
    with pytest.raises(GmError) as e:
        parse(hand, sheet, **kw)
    return e.value.render("en")


SAMPLE_HAND = ["杀", "闪", "杀", "万法破尽", "王之财宝", "宝石"]
SAMPLE = {
    "保留": ["闪", "万法尽破", "杀", "宝石"],
    "技能": {"使用": "是", "丢弃": ["万法破尽", "王之财宝"]},
    "目标优先": "血多的优先",
    "出杀顺序": [{"对": "对敌人出杀"}, {"对": "对魔术牌出杀"}, "不出杀"],
    "出闪顺序": [{"对": "对杀出闪"}, {"对": "对魔术牌出闪", "转换": "正式外典"}, "不出闪"],
    "咒": "不使用",
    "宝石": "对队友优先",
    "魔术牌": {"使用": "不使用"},
    "装备": {"万华杖": {"发动": "是", "区域": ["装备区", "手牌"]}},
}


def test_sample_sheet_of_artoria_parses():
    """l.120-154, the seed's sample sheet of 阿尔托利亚 (4 HP, 万华杖, 正式外典), in its own words."""
    _, o = parse(SAMPLE_HAND, SAMPLE, weapon="万华杖", armor="正式外典")
    assert o.keep == ["闪", "万法破尽", "杀", "宝石"]
    assert o.skill_use and o.skill_discard == ["万法破尽", "王之财宝"]
    assert o.target_priority == "more_hp"
    assert [e.against for e in o.strike_order] == ["enemy", "magic"]
    assert [(e.against, e.via) for e in o.dodge_order] == [("strike", None), ("magic", "正式外典")]
    assert (o.use_curse, o.gem, o.magic_use) == (False, "ally_first", False)
    assert o.equipment["万华杖"].use and o.equipment["万华杖"].zones == ["equipment", "hand"]


def test_sample_sheet_plays_out():
    """l.120-154 played: her skill pays 万法破尽 and 王之财宝, hits the enemy (no 闪), her 杀 then
    takes a card through 万华杖 instead of damage."""
    sheet = {k: v for k, v in SAMPLE.items() if k != "保留"}
    r = fight(A("artoria", "杀", "闪", "杀", "万法破尽", "王之财宝", "宝石", skills=None, weapon="万华杖",
                armor="正式外典", sheet=sheet), B("mordred", "扭曲螺旋", sheet={"magic": {"use": False}}))
    assert r.hp("mordred") == 3 and r.hand("mordred") == []
    assert sorted(r.hand("artoria")) == ["宝石", "扭曲螺旋", "杀", "闪"]


def test_card_not_held_is_refused():
    """Issue: a sheet that names a card the player does not hold."""
    msg = refused(["杀"], {"skill": {"use": True, "discard": ["宝石", "杀"]}})
    assert "skill.discard[0]" in msg and "not enough 宝石" in msg


def test_unknown_card_is_refused():
    msg = refused(["杀"], {"keep": ["杀", "圣杯"]})
    assert "keep[1]" in msg and "圣杯" in msg


def test_count_below_one_is_refused():
    msg = refused(["杀"], {"strike_order": [{"against": "enemy", "count": 0}]})
    assert "strike_order[0].count" in msg


def test_option_outside_allowed_set_is_refused():
    msg = refused(["杀"], {"gem": "sometimes"})
    assert "gem" in msg and "ally_first" in msg


def test_zone_outside_allowed_set_is_refused():
    msg = refused(["杀"], {"magic": {"zone_priority": ["pocket"]}})
    assert "magic.zone_priority[0]" in msg


def test_skill_the_character_lacks_is_refused():
    msg = refused(["杀"], {"skill": {"use": True, "name": "王之号令"}})
    assert "skill.name" in msg and "湖之选定" in msg


def test_skill_named_by_id_or_name_is_accepted():
    _, o = parse(["杀", "闪"], {"skill": {"name": "湖之选定", "discard": ["杀", "闪"]}})
    assert o.skill_name == "lake_selection"


def test_skill_discard_count_must_match_cost():
    msg = refused(["杀", "闪", "宝石"], {"skill": {"discard": ["杀", "闪", "宝石"]}})
    assert "skill.discard" in msg and "discards 2 cards; 3 given" in msg


def test_via_must_convert_for_that_list():
    msg = refused(["杀"], {"dodge_order": [{"against": "strike", "via": "佩耳修斯之剑"}]}, weapon="佩耳修斯之剑")
    assert "dodge_order[0].via" in msg


def test_via_must_be_equipped():
    msg = refused(["杀"], {"strike_order": [{"against": "enemy", "via": "正式外典"}]})
    assert "strike_order[0].via" in msg and "not equipped" in msg


def test_equipment_choice_for_unequipped_card_is_refused():
    msg = refused(["杀"], {"equipment": {"万华杖": {"use": True}}})
    assert "equipment.万华杖" in msg


def test_gm_check_names_file_and_field(gm, skirmish, tmp_path):
    """Spec §2 `gm check`: one line per problem, with file and field, exit 1."""
    sheet = tmp_path / "a.yaml"
    sheet.write_text("turn: 1\nplayer: alice\nstrike_order: [{against: enemy, count: 0}]\nskill: {name: 飞行}\n",
                     encoding="utf-8")
    out = gm("check", skirmish, sheet, code=1).output
    lines = out.splitlines()
    assert any("a.yaml" in l and "strike_order[0].count" in l for l in lines)
    assert any("a.yaml" in l and "skill.name" in l for l in lines)


# hand limit (R8) ----------------------------------------------------------------------------
def limit(hand, keep, **kw):
    game, _ = build(A("gawain", *hand, **kw), B("mordred"))
    c = game.character("gawain")
    o = orders.Orders(player=c.player, turn=1, character="gawain", keep=keep)
    log = EventLog()
    hands.apply_limit(game, {c.player: o}, log)
    return c, log.events


def test_keep_list_discards_down_to_hp_plus_two():
    """l.263 "你的手牌上限等于你当前的体力值+2"; l.61 "玩家选择自己留下来的手牌" (first = most wanted)."""
    c, ev = limit(["杀", "杀", "闪", "宝石", "咒", "扭曲螺旋", "决斗"], ["决斗", "扭曲螺旋", "杀"], hp=3)
    assert sorted(x.name for x in c.hand) == sorted(["决斗", "扭曲螺旋", "宝石", "杀", "闪"])
    assert ev[0]["type"] == "discard" and ev[0]["to"] == [c.player]


def test_default_keep_order_without_list():
    """R8 "with no list, by a documented default": 闪, 宝石, 杀, 咒, 万法破尽, then the rest."""
    c, _ = limit(["决斗", "杀", "闪", "宝石", "咒", "扭曲螺旋"], None, hp=2)
    assert sorted(x.name for x in c.hand) == sorted(["宝石", "杀", "闪", "咒"])


def test_heavenly_robe_limit_seven():
    """l.223 "【天之服】 作用：锁定技，你的手牌上限为7张。" """
    c, ev = limit(["杀"] * 8, None, hp=1, armor="天之服")
    assert len(c.hand) == 7 and len(ev) == 1


def test_under_limit_nothing_discarded():
    c, ev = limit(["杀", "闪"], ["闪"], hp=1)
    assert len(c.hand) == 2 and ev == []


# who learns what -------------------------------------------------------------------------------
def test_fight_events_are_for_the_cell():
    """R7 and the issue: fight events carry the fighters' players as actors and the cell, so
    observers of the cell learn them; deaths are public."""
    r = fight(A("gawain", "杀"), B("mordred", hp=1))
    for e in r.log:
        if e["type"] in ("strike", "damage", "dying", "killed"):
            assert e["to"] == [] and e["actors"] == ["p_gawain", "p_mordred"] and e["cells"] == ["A1"]
    assert r.of("death")[0]["to"] == "all"


def test_resolve_through_the_pipeline_is_deterministic():
    """Determinism (brief): the same state, orders and seed give the same fight log."""
    a = fight(A("gawain", "杀", "扭曲螺旋", "闪"), B("mordred", "杀", "赤主槛发", "闪"), seed="x")
    b = fight(A("gawain", "杀", "扭曲螺旋", "闪"), B("mordred", "杀", "赤主槛发", "闪"), seed="x")
    assert a.log == b.log
