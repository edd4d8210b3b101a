"""DATC-style cases for equipment (seed l.203-223) and the sheet's equipment choices (l.108-118)."""

from __future__ import annotations

from .combat_kit import A, B, fight

NO_MAGIC = {"magic": {"use": False}}


def use(name: str, **extra) -> dict:
    return {"equipment": {name: {"use": True, **extra}}, **NO_MAGIC}


def test_wanhua_staff_takes_a_card_instead_of_damage():
    """l.205 "【万华杖】…当你使用【杀】造成伤害时，你可以防止此伤害，改为你选择并获得该角色的一张牌。"
    zones as the sheet's l.149 "装备区，手牌"."""
    r = fight(A("gawain", "杀", weapon="万华杖", sheet=use("万华杖", zones=["equipment", "hand"])),
              B("mordred", "万法破尽", armor="天之服"))
    assert r.hp("mordred") == 4 and r["gawain"].equipment["armor"].name == "天之服"
    assert r["mordred"].equipment["armor"] is None and r.hand("mordred") == ["万法破尽"]
    assert r.of("prevent", item="万华杖")


def test_wanhua_staff_off_by_default():
    """l.108 "此选项不是必填选项": unnamed, 万华杖 is not used (ruling C14) and the 杀 deals damage."""
    r = fight(A("gawain", "杀", weapon="万华杖"), B("mordred", "万法破尽"))
    assert r.hp("mordred") == 3 and r.hand("mordred") == ["万法破尽"]


def test_wanhua_staff_target_without_cards_takes_damage():
    """l.205: with nothing to take, the damage is not prevented."""
    r = fight(A("gawain", "杀", weapon="万华杖", sheet=use("万华杖")), B("mordred"))
    assert r.hp("mordred") == 3


def test_wanhua_staff_applies_to_both_targets():
    """l.114 "（发动或不发动都默认为针对两人）" """
    r = fight(A("gawain", "杀", weapon="万华杖", sheet=use("万华杖", zones=["hand"])),
              B("mordred", "万法破尽"), B("medea", "扭曲螺旋", sheet=NO_MAGIC))
    assert r.hp("mordred") == 4 and r.hp("medea") == 4
    assert r.hand("gawain") == ["万法破尽", "扭曲螺旋"]


def test_stone_sword_plus_one_on_empty_hand():
    """l.206 "【石中剑】…锁定技，当你使用的【杀】造成伤害时，若指定的目标没有手牌，该伤害＋1。" """
    r = fight(A("gawain", "杀", weapon="石中剑"), B("mordred"))
    assert r.hp("mordred") == 2


def test_stone_sword_no_bonus_with_hand():
    """l.206: the target holds a card: 1 damage."""
    r = fight(A("gawain", "杀", weapon="石中剑"), B("mordred", "万法破尽"))
    assert r.hp("mordred") == 3


def test_ganjiang_moye_takes_back_dodged_strike():
    """l.207 "【干将莫邪】…当你使用的【杀】被对方的【闪】抵消时，你可以收回之前使用的【杀】。" """
    r = fight(A("gawain", "杀", weapon="干将莫邪"), B("mordred", "闪"))
    assert r.hand("gawain") == ["杀"] and r.of("retrieve", character="gawain")


def test_ganjiang_moye_not_when_strike_hit():
    """l.207: a 杀 that hit is not taken back."""
    r = fight(A("gawain", "杀", weapon="干将莫邪"), B("mordred"))
    assert r.hand("gawain") == [] and r.hp("mordred") == 3


def test_perseus_sword_two_cards_as_strike():
    """l.208 "【佩耳修斯之剑】…你可以将两张手牌当一张【杀】使用" (via on the 出杀 line)."""
    r = fight(A("gawain", "万法破尽", "扭曲螺旋", weapon="佩耳修斯之剑",
                sheet={"strike_order": [{"against": "enemy", "via": "佩耳修斯之剑"}], **NO_MAGIC}), B("mordred"))
    assert r.hp("mordred") == 3 and r.hand("gawain") == []
    assert r.of("strike")[0]["via"] == "佩耳修斯之剑"


def test_black_key_strikes_again_after_dodge():
    """l.209 "【黑键】作用：当你使用的【杀】被抵消时，你可以立即对相同的目标再使用一张【杀】" """
    r = fight(A("gawain", "杀", "杀", weapon="黑键"), B("mordred", "闪"))
    assert r.hp("mordred") == 3 and r.hand("gawain") == []


def test_black_key_second_strike_needs_second_dodge():
    """l.209 with l.169: the second 杀 of the same enemy needs a second 闪."""
    r = fight(A("gawain", "杀", "杀", weapon="黑键"), B("mordred", "闪", "闪"))
    assert r.hp("mordred") == 4 and r.hand("mordred") == []


def test_monohoshizao_strikes_again_after_damage():
    """l.210 "【物干焯】…你使用【杀】对目标角色造成伤害时，你可以立刻对该目标角色额外使用一张【杀】" """
    r = fight(A("gawain", "杀", "杀", weapon="物干焯"), B("mordred"))
    assert r.hp("mordred") == 2


def test_gae_bolg_hits_through_dodge():
    """l.211 "【穿刺死棘之*】…目标角色使用【闪】抵消你使用【杀】的效果时，你可以弃两张牌，则【杀】依然造成伤害。" """
    r = fight(A("gawain", "杀", "万法破尽", "扭曲螺旋", weapon="穿刺死棘之枪", sheet=use("穿刺死棘之枪")),
              B("mordred", "闪"))
    assert r.hp("mordred") == 3 and r.hand("gawain") == [] and r.of("hit_anyway")


def test_gae_bolg_off_by_default():
    """l.211 "你可以": costly, so off unless the sheet says so (ruling C14)."""
    r = fight(A("gawain", "杀", "万法破尽", "扭曲螺旋", weapon="穿刺死棘之枪", sheet=NO_MAGIC), B("mordred", "闪"))
    assert r.hp("mordred") == 4 and len(r.hand("gawain")) == 2


def test_gae_dearg_ignores_six_paths():
    """l.212 "【破魔红蔷薇】(U) 锁定技，每当你使用【杀】时，无视目标角色的防具。" against 六道境界."""
    r = fight(A("gawain", "杀", weapon="破魔红蔷薇"), B("mordred", armor="六道境界"))
    assert r.hp("mordred") == 3


def test_gae_dearg_ignores_rho_aias_cap():
    """l.212 against 炽天覆七重圆环's cap: a 咒 杀 deals 2."""
    r = fight(A("gawain", "杀", "咒", weapon="破魔红蔷薇", sheet={"use_curse": True}),
              B("mordred", armor="炽天覆七重圆环"))
    assert r.hp("mordred") == 2


def test_gae_dearg_ignores_hounoden():
    """l.212 against 奉纳殿六十四层: no judgement is made."""
    r = fight(A("gawain", "杀", weapon="破魔红蔷薇"), B("mordred", armor="奉纳殿六十四层"), deck=["闪 ♥2"])
    assert r.hp("mordred") == 3 and not r.of("judge")


def test_sword_emperor_discards_a_card_with_damage():
    """l.213 "【斩击皇帝】作用：你使用【杀】对目标角色造成伤害时，你可以弃掉目标角色的一张牌。" """
    r = fight(A("gawain", "杀", weapon="斩击皇帝"), B("mordred", "万法破尽", armor="天之服"))
    assert r.hp("mordred") == 3 and r["mordred"].equipment["armor"] is None
    assert r.hand("mordred") == ["万法破尽"]


def test_excalibur_discards_two_for_plus_one():
    """l.214 "【誓约胜利之剑】…当你使用【杀】时，同时多弃2张手牌，可令自己使用的这张【杀】造成的伤害+1。" """
    r = fight(A("gawain", "杀", "万法破尽", "扭曲螺旋", weapon="誓约胜利之剑", sheet=use("誓约胜利之剑")),
              B("mordred"))
    assert r.hp("mordred") == 2 and r.hand("gawain") == []


def test_excalibur_needs_two_cards():
    """l.214: with one other card the bonus is not paid."""
    r = fight(A("gawain", "杀", "万法破尽", weapon="誓约胜利之剑", sheet=use("誓约胜利之剑")), B("mordred"))
    assert r.hp("mordred") == 3 and r.hand("gawain") == ["万法破尽"]


def test_ea_discards_a_strike_for_plus_one():
    """l.215 "【乖离剑】 作用：当你使用【杀】时，可多弃一张【杀】令伤害+1" """
    r = fight(A("gawain", "杀", "杀", weapon="乖离剑", sheet=use("乖离剑")), B("mordred"))
    assert r.hp("mordred") == 2 and r.hand("gawain") == []


def test_hounoden_red_judgement_is_a_dodge():
    """l.216 "【奉纳殿六十四层】…你可以进行一次判定：若结果为红色，则视为你使用（或打出）了一张【闪】" """
    r = fight(A("gawain", "杀"), B("mordred", "闪", armor="奉纳殿六十四层"), deck=["宝石 ♥3"])
    assert r.hp("mordred") == 4 and r.hand("mordred") == ["闪"]
    assert r.of("respond_by", character="mordred", via="奉纳殿六十四层")


def test_hounoden_black_then_hand_dodge():
    """l.216 "若为黑色，则你仍可以从手牌里使用（或打出）。" """
    r = fight(A("gawain", "杀"), B("mordred", "闪", armor="奉纳殿六十四层"), deck=["杀 ♠7"])
    assert r.hp("mordred") == 4 and r.hand("mordred") == []


def test_hounoden_black_without_dodge_takes_damage():
    """l.216: black and no 闪 in hand: the 杀 hits."""
    r = fight(A("gawain", "杀"), B("mordred", armor="奉纳殿六十四层"), deck=["杀 ♠7"])
    assert r.hp("mordred") == 3


def test_six_paths_plain_strike_has_no_effect():
    """l.217 "【六道境界】 作用：锁定技，普通杀对你无效。" no 闪 is spent either."""
    r = fight(A("gawain", "杀"), B("mordred", "闪", armor="六道境界"))
    assert r.hp("mordred") == 4 and r.hand("mordred") == ["闪"]
    assert r.of("no_effect", target="mordred")


def test_six_paths_boosted_strike_works():
    """l.217 "普通杀": a 杀 boosted by 咒 is not plain (ruling C13)."""
    r = fight(A("gawain", "杀", "咒", sheet={"use_curse": True}), B("mordred", armor="六道境界"))
    assert r.hp("mordred") == 2


def test_moon_drop_dodges_one_on_one():
    """l.218 "【月灵髓液】作用：当你和敌人一对一战斗时，每回合一次，使用【月灵髓液】视为你使用了一张【杀】或【闪】。" """
    r = fight(A("gawain", "杀"), B("mordred", armor="月灵髓液"))
    assert r.hp("mordred") == 4 and r.of("respond_by", via="月灵髓液")


def test_moon_drop_once_a_turn():
    """l.218 "每回合一次": the second 杀 of 七夜 hits."""
    r = fight(A("gawain", "杀", "杀", weapon="七夜"), B("mordred", armor="月灵髓液"))
    assert r.hp("mordred") == 3


def test_moon_drop_kept_for_dodge():
    """l.218 with ruling C15: with a 出闪 line against 杀 it is kept for the 闪, not struck with."""
    r = fight(A("gawain", armor="月灵髓液"), B("mordred"))
    assert r.hp("mordred") == 4 and not r.of("strike")


def test_moon_drop_not_two_against_one():
    """l.218 "一对一": with two enemies it does nothing."""
    r = fight(A("gawain", "杀"), A("emiya"), B("mordred", armor="月灵髓液"))
    assert r.hp("mordred") == 3


def test_moon_drop_as_strike():
    """l.218 "视为你使用了一张【杀】": no 杀 in hand and no 出闪 line against 杀, so the wearer
    strikes with it (ruling C15)."""
    r = fight(A("gawain", armor="月灵髓液", sheet={"dodge_order": ["magic"]}), B("mordred"))
    assert r.hp("mordred") == 3


def test_rho_aias_caps_damage_at_one():
    """l.220 "1.锁定技：每次你受到伤害时，最多承受1点伤害（防止多余的伤害）" """
    r = fight(A("gawain", "杀", "咒", sheet={"use_curse": True}), B("mordred", armor="炽天覆七重圆环"))
    assert r.hp("mordred") == 3


def test_rho_aias_discarded_to_prevent_lethal():
    """l.221 "2.受到伤害时，你可以弃掉【炽天覆七重圆环】防止此伤害" (used when the damage would be
    lethal, ruling C14)."""
    r = fight(A("gawain", "杀"), B("mordred", hp=1, armor="炽天覆七重圆环"))
    assert r["mordred"].alive and r.hp("mordred") == 1 and r["mordred"].equipment["armor"] is None
    assert r.game.equipment_pile[0].name == "炽天覆七重圆环"


def test_rho_aias_kept_when_not_lethal():
    """l.221: a survivable hit does not cost the armour."""
    r = fight(A("gawain", "杀"), B("mordred", armor="炽天覆七重圆环"))
    assert r.hp("mordred") == 3 and r["mordred"].equipment["armor"] is not None


def test_formal_apocrypha_strike_as_dodge():
    """l.222 "【正式外典】 作用：你可以将你手牌的【杀】当【闪】" and the sample l.133
    "发动外典 将杀转换成闪" """
    r = fight(A("gawain", "杀"), B("mordred", "杀", armor="正式外典",
                                    sheet={"dodge_order": [{"against": "strike", "via": "正式外典"}],
                                           "strike_order": ["none"]}))
    assert r.hp("mordred") == 4 and r.hand("mordred") == []
    assert r.of("respond", character="mordred")[0]["via"] == "正式外典"


def test_formal_apocrypha_needs_via():
    """spec §4 "via: answer with a card an equipment converts": without it, no conversion."""
    r = fight(A("gawain", "杀"), B("mordred", "杀", armor="正式外典", sheet={"strike_order": ["none"]}))
    assert r.hp("mordred") == 3


def test_formal_apocrypha_dodge_as_strike():
    """l.222 "【闪】当【杀】使用": 闪 used as a 杀 through via on the 出杀 line."""
    r = fight(A("gawain", "闪", armor="正式外典", sheet={"strike_order": [{"against": "enemy", "via": "正式外典"}]}),
              B("mordred"))
    assert r.hp("mordred") == 3 and r.hand("gawain") == []


def test_via_equipment_taken_is_skipped_and_logged():
    """Issue: a choice that turned impossible is skipped and logged: 赤主槛发 takes 正式外典 first."""
    r = fight(A("gawain", "杀", "赤主槛发", sheet={"magic": {"zone_priority": ["armor"]}}),
              B("mordred", "杀", armor="正式外典",
                sheet={"dodge_order": [{"against": "strike", "via": "正式外典"}], "strike_order": ["none"]}))
    assert r["gawain"].equipment["armor"].name == "正式外典"
    assert r.hp("mordred") == 3
    skipped = r.of("choice_skipped", character="mordred")
    assert skipped and skipped[0]["to"] == ["p_mordred"]


def test_seven_nights_one_more_strike():
    """l.204 "武器【七夜】作用：出牌阶段，你可以额外使用一张【杀】" """
    r = fight(A("gawain", "杀", "杀", "杀", weapon="七夜"), B("mordred"))
    assert r.hp("mordred") == 2 and r.hand("gawain") == ["杀"]
