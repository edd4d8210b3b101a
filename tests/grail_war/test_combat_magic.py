"""DATC-style cases for magic cards (魔术牌) and 万法破尽 (seed l.87-107, l.183-202)."""

from __future__ import annotations

from .combat_kit import A, B, fight

HAND = {"magic": {"use": True, "zone_priority": ["hand"]}}


def test_twisted_spiral_discards_a_hand_card():
    """l.184 "【扭曲螺旋】…效果，你选择并弃掉该角色的手牌或装备区的一张牌" (hand zone)."""
    r = fight(A("gawain", "扭曲螺旋", sheet=HAND), B("mordred", "闪"))
    assert r.hand("mordred") == [] and "闪" in [c.name for c in r.game.deck.discard_pile]
    assert r.of("discard_card", character="gawain", target="mordred")


def test_twisted_spiral_weapon_first():
    """l.87 "某些魔术牌先针对武器，防具，还是手牌": weapon first takes the weapon to the pile."""
    r = fight(A("gawain", "扭曲螺旋", sheet={"magic": {"zone_priority": ["weapon", "hand"]}}),
              B("mordred", "闪", weapon="七夜"))
    assert r["mordred"].equipment["weapon"] is None and r.hand("mordred") == ["闪"]
    assert r.game.equipment_pile[0].name == "七夜"


def test_zone_priority_falls_through_to_next_zone():
    """l.87: armor first, but the enemy has none: its hand is hit."""
    r = fight(A("gawain", "扭曲螺旋", sheet={"magic": {"zone_priority": ["armor", "hand"]}}),
              B("mordred", "闪", weapon="七夜"))
    assert r.hand("mordred") == [] and r["mordred"].equipment["weapon"] is not None


def test_zone_priority_chooses_the_enemy_with_that_zone():
    """l.87 "双方都有的情况下…": only one of two enemies has armor; armor first picks it."""
    r = fight(A("gawain", "扭曲螺旋", sheet={"magic": {"zone_priority": ["armor", "hand"]}}),
              B("mordred", "闪", "闪"), B("medea", armor="天之服"))
    assert r["medea"].equipment["armor"] is None and r.hand("mordred") == ["闪", "闪"]


def test_hand_size_fewer_picks_smaller_hand():
    """l.87 "优先选择手牌多的还是手牌少的": fewer."""
    r = fight(A("gawain", "扭曲螺旋", sheet={"magic": {"zone_priority": ["hand"], "hand_size": "fewer"}}),
              B("mordred", "闪", "闪", "闪"), B("medea", "闪"))
    assert r.hand("medea") == [] and len(r.hand("mordred")) == 3


def test_hand_size_more_picks_bigger_hand():
    """l.87: more."""
    r = fight(A("gawain", "扭曲螺旋", sheet={"magic": {"zone_priority": ["hand"], "hand_size": "more"}}),
              B("mordred", "闪", "闪", "闪"), B("medea", "闪"))
    assert r.hand("medea") == ["闪"] and len(r.hand("mordred")) == 2


def test_red_master_takes_a_hand_card_privately():
    """l.186 "【赤主槛发】…你选择并获得该角色的手牌或装备区的一张牌"; l.269 "若你选择的是手牌，
    则你从中随机抽取一张": the public sees a hand card taken; only the two players see which."""
    r = fight(A("gawain", "赤主槛发", sheet=HAND), B("mordred", "宝石"))
    assert r.hand("gawain") == ["宝石"] and r.hand("mordred") == []
    public = r.of("take_hand_card")[0]
    assert public["to"] == [] and "card" not in public
    seen = r.of("take_card_seen")[0]
    assert seen["to"] == ["p_gawain", "p_mordred"] and seen["card"]["name"] == "宝石"


def test_red_master_takes_weapon_into_equipment():
    """l.186 with weapon first; ruling C3: gained equipment is equipped, the replaced one returns
    to the equipment pile."""
    r = fight(A("gawain", "赤主槛发", weapon="石中剑", sheet={"magic": {"zone_priority": ["weapon"]}}),
              B("mordred", weapon="七夜"))
    assert r["gawain"].equipment["weapon"].name == "七夜" and r["mordred"].equipment["weapon"] is None
    assert r.game.equipment_pile[0].name == "石中剑"


def test_nothing_to_take_card_kept():
    """l.107: a magic card with no possible target is not played (ruling C8)."""
    r = fight(A("gawain", "赤主槛发", "扭曲螺旋"), B("mordred"))
    assert r.hand("gawain") == ["扭曲螺旋", "赤主槛发"] and not r.of("magic")


def test_duel_target_without_strike_takes_damage():
    """l.188 "由目标角色先开始，轮流打出一张【杀】。【决斗】对首先不出【杀】的一方造成1点伤害" """
    r = fight(A("gawain", "决斗"), B("mordred"))
    assert r.damage() == [("gawain", "mordred", 1)]


def test_duel_alternates_until_one_fails():
    """l.188: target 杀, user 杀, target 杀, user has none: the user takes 1 from the target."""
    magic_first = {"strike_order": ["magic", "enemy"]}
    r = fight(A("gawain", "决斗", "杀", sheet=magic_first), B("mordred", "杀", "杀", sheet=magic_first))
    duel = [e for e in r.log if e["type"] == "damage" and e["cause"] == "决斗"]
    assert [(e["source"], e["target"]) for e in duel] == [("mordred", "gawain")]
    assert [e["character"] for e in r.of("respond")] == ["mordred", "gawain", "mordred"]


def test_duel_reserves_strike_for_enemy():
    """l.77 with 决斗: 对敌人 ranked before 对魔术牌 keeps the only 杀 for the basic phase."""
    r = fight(A("gawain", "决斗"), B("mordred", "杀", sheet={"strike_order": ["enemy", "magic"]}))
    assert [e["cause"] for e in r.of("damage")] == ["决斗", "杀"]


def test_duel_damage_not_raised_by_curse():
    """l.179 "使用咒不会影响“决斗”的伤害值" """
    r = fight(A("gawain", "决斗", "杀", "咒", sheet={"use_curse": True}), B("mordred"))
    assert [(e["cause"], e["amount"]) for e in r.of("damage")] == [("决斗", 1), ("杀", 2)]


def test_borrowed_blade_forces_strike_on_ally():
    """l.94 "你选择装备区里有武器牌的一名角色A使用，A需对角色B使用一张[杀]": B strikes its ally."""
    r = fight(A("gawain", "不死徒手"), B("mordred", "杀", weapon="七夜", sheet={"strike_order": ["magic"]}), B("medea"))
    assert r.damage() == [("mordred", "medea", 1)]
    assert r["mordred"].equipment["weapon"].name == "七夜"


def test_borrowed_blade_takes_weapon_when_refused():
    """l.94 "否则你获得A装备区里的武器。" """
    r = fight(A("gawain", "不死徒手"), B("mordred", weapon="七夜"), B("medea"))
    assert r["gawain"].equipment["weapon"].name == "七夜" and r["mordred"].equipment["weapon"] is None


def test_borrowed_blade_one_on_one_strikes_user():
    """l.94 with one enemy: the 杀 is aimed at the user (ruling C9)."""
    r = fight(A("gawain", "不死徒手"), B("mordred", "杀", weapon="七夜", sheet={"strike_order": ["magic"]}))
    assert r.damage() == [("mordred", "gawain", 1)]


def test_borrowed_blade_needs_an_armed_enemy():
    """l.94: no enemy has a weapon: the card is kept."""
    r = fight(A("gawain", "不死徒手"), B("mordred", "杀"))
    assert r.hand("gawain") == ["不死徒手"]


def test_anniversary_heals_everyone():
    """l.96 "【阿宁艾鲁贝的一日】目标，所有角色 效果，目标角色回复1点体力" (enemies too)."""
    r = fight(A("gawain", "阿宁艾鲁贝的一日", hp=3), B("mordred", hp=2))
    assert r.hp("gawain") == 4 and r.hp("mordred") == 3


def test_anniversary_kept_when_nobody_is_wounded():
    """l.96: nobody in the cell is wounded: the card would heal no one and is kept (ruling C8;
    an enemy alone wounded: see test_rulings_reexamined.py)."""
    r = fight(A("gawain", "阿宁艾鲁贝的一日"), B("mordred"))
    assert r.hand("gawain") == ["阿宁艾鲁贝的一日"] and not r.of("magic")


def test_wuxie_never_against_anniversary():
    """l.87 "默认设定不能万法尽破自己的阿宁艾鲁贝的一日": 万法破尽 is not spent on a heal."""
    r = fight(A("gawain", "阿宁艾鲁贝的一日", hp=3), B("mordred", "万法破尽", hp=3))
    assert r.hp("mordred") == 4 and r.hand("mordred") == ["万法破尽"]


def test_kings_army_hits_everyone_else():
    """l.98 "【王之军势】目标，你以外所有角色 效果，目标角色打出一张【杀】，否则受到…1点伤害" (an
    ally too)."""
    r = fight(A("gawain", "王之军势"), A("emiya"), B("mordred"))
    assert r.hp("emiya") == 3 and r.hp("mordred") == 3 and r.hp("gawain") == 4


def test_kings_army_answered_with_strike():
    """l.98: a 杀 played in answer avoids the damage."""
    r = fight(A("gawain", "王之军势"), B("mordred", "杀", sheet={"strike_order": ["magic"]}))
    assert r.hp("mordred") == 4 and r.hand("mordred") == []


def test_kings_treasure_answered_with_dodge():
    """l.100 "【王之财宝】…目标角色打出一张【闪】，否则受到【王之财宝】对其造成的1点伤害。" """
    r = fight(A("gawain", "王之财宝"), B("mordred", "闪", sheet={"dodge_order": ["magic", "strike"]}), B("medea"))
    assert r.hp("mordred") == 4 and r.hp("medea") == 3


def test_wuxie_cancels_first_enemy_magic():
    """l.202 "在目标魔术牌生效前，抵消其对自己产生的效果。" """
    r = fight(A("gawain", "扭曲螺旋", sheet=HAND), B("mordred", "万法破尽", "闪"))
    assert r.hand("mordred") == ["闪"]
    assert r.of("nullify", character="mordred", against="扭曲螺旋", source="gawain")


def test_wuxie_only_the_first_enemy_card():
    """l.87 "万法破尽只能针对对方对你的第一张魔术牌，不可选择。" the second card hits even with a
    second 万法破尽 in hand."""
    r = fight(A("gawain", "扭曲螺旋", "扭曲螺旋", sheet=HAND), B("mordred", "万法破尽", "万法破尽", "闪"))
    assert len(r.of("nullify")) == 1 and len(r.of("discard_card")) == 1
    assert len(r["mordred"].hand) == 1


def test_wuxie_ignores_ally_cards():
    """l.87 "对方对你的": an ally's 王之军势 is not the first enemy card; the enemy's later
    扭曲螺旋 is nullified."""
    r = fight(B("mordred", "王之军势"), A("gawain", "扭曲螺旋", sheet=HAND), B("medea", "万法破尽", "闪"),
              order=["mordred", "gawain", "medea"])
    assert r.hp("medea") == 3
    assert r.of("nullify", character="medea", against="扭曲螺旋")


def test_wuxie_per_target_of_aoe():
    """l.202 "抵消其对自己产生的效果": against 王之财宝 only the holder is spared."""
    r = fight(A("gawain", "王之财宝"), B("mordred", "万法破尽"), B("medea"))
    assert r.hp("mordred") == 4 and r.hp("medea") == 3


def test_petrifying_eye_stops_strikes():
    """l.200 "【石化魔眼】…对方进行一次判定，若不为红桃，直至回合结束，不能使用【杀】。" (♠: petrified)"""
    r = fight(A("gawain", "石化魔眼"), B("mordred", "杀"), deck=["杀 ♠5"])
    assert r.hp("gawain") == 4 and r.hand("mordred") == ["杀"]
    assert r.of("judge", character="mordred")[0]["result"] is True and r.of("petrified", character="mordred")


def test_petrifying_eye_hearts_escapes():
    """l.200: a heart judgement: no effect, the 杀 is used."""
    r = fight(A("gawain", "石化魔眼"), B("mordred", "杀"), deck=["宝石 ♥3"])
    assert r.hp("gawain") == 3 and not r.of("petrified")


def test_petrified_may_still_play_strike_in_answer():
    """l.200 "不能使用【杀】" forbids using, not playing one in answer to 王之军势 (ruling C12)."""
    r = fight(A("gawain", "石化魔眼", "王之军势"), B("mordred", "杀", sheet={"strike_order": ["magic"]}),
              deck=["杀 ♠5"])
    assert r.of("petrified", character="mordred") and r.hp("mordred") == 4 and r.hand("mordred") == []


def test_withering_garden_skips_draw():
    """l.202 "【枯竭庭院】…对方进行一次判定，若不为梅花，跳过摸牌阶段。" (R8 draw skipped)"""
    r = fight(A("gawain", "枯竭庭院"), B("mordred"), deck=["闪 ♦3"], draw=2)
    assert r["mordred"].hand == [] and len(r["gawain"].hand) == 2
    assert r.of("no_draw", character="mordred")


def test_withering_garden_clubs_escapes():
    """l.202: a club judgement: the draw happens."""
    r = fight(A("gawain", "枯竭庭院"), B("mordred"), deck=["杀 ♣4"], draw=2)
    assert len(r["mordred"].hand) == 2


def test_magic_not_used_when_sheet_says_no():
    """l.139 "6.是否使用魔术牌 不使用魔术牌。" """
    r = fight(A("gawain", "扭曲螺旋", sheet={"magic": {"use": False}}), B("mordred", "闪"))
    assert r.hand("gawain") == ["扭曲螺旋"] and r.hand("mordred") == ["闪"]


def test_magic_played_round_robin_in_actor_order():
    """l.107 "一旦抽到魔术牌后将会根据选项使用": one card a fighter a round, in actor order (ruling C8)."""
    # the pick of 扭曲螺旋 is by lot: seed "a" has gawain's first one discard a 闪, so mordred keeps his
    r = fight(A("gawain", "扭曲螺旋", "扭曲螺旋", "闪", "闪", sheet=HAND), B("mordred", "扭曲螺旋", "闪", "闪", sheet=HAND),
              seed="a")
    assert r.of("discard_card")[0]["card"]["name"] == "闪"
    assert [e["character"] for e in r.of("magic")] == ["gawain", "mordred", "gawain"]


def test_magic_phase_before_basic_phase():
    """l.67 "默认先进行技能的使用，再使用玩家有意打出的魔术牌，最后使用基本牌": the 杀 comes after
    the magic card."""
    r = fight(A("gawain", "杀", "王之财宝"), B("mordred"))
    kinds = [t for t in r.types() if t in ("magic", "strike")]
    assert kinds == ["magic", "strike"]
