"""DATC-style cases for basic cards (杀, 闪, 宝石, 咒), the 出杀/出闪 lists, dying and death.

Each case sets up one cell, gives the sheets, plays the fight and asserts HP, hands and the log.
Seed: shared/seeds/002_04c4f176dbe8aff0.txt (quoted as l.N).
"""

from __future__ import annotations

from .combat_kit import A, B, fight


# R10: the seed's worked examples -----------------------------------------------------------
def test_1v1_strike_hits_without_dodge():
    """l.158 "1V1时，A对B出杀，B要出闪抵消才能不扣血。" (no 闪: B loses 1)"""
    r = fight(A("gawain", "杀"), B("mordred", "万法破尽"))
    assert r.hp("mordred") == 3 and r.hand("gawain") == []
    assert r.damage() == [("gawain", "mordred", 1)]


def test_1v1_dodge_cancels():
    """l.158: B plays a 闪 and loses no HP."""
    r = fight(A("gawain", "杀"), B("mordred", "闪"))
    assert r.hp("mordred") == 4 and r.hand("mordred") == []
    assert r.of("respond", character="mordred", need="闪", against="strike")


def test_1v2_one_strike_hits_both_enemies():
    """l.159 "1V2时，假设AB一队,C另一对，C出杀，AB同时要出闪。" (A dodges, B cannot)"""
    r = fight(A("gawain", "闪"), A("emiya"), B("mordred", "杀"))
    assert r.hp("gawain") == 4 and r.hp("emiya") == 3
    assert r.hand("gawain") == []
    assert r.of("strike", character="mordred")[0]["targets"] == ["gawain", "emiya"]


def test_1v2_two_strikes_from_different_enemies_need_one_dodge():
    """l.160 "但是AB同时对C出杀，C只需要一张闪。" """
    r = fight(A("gawain", "杀"), A("emiya", "杀"), B("mordred", "闪", "闪"))
    assert r.hp("mordred") == 4
    assert r.hand("mordred") == ["闪"]
    assert len(r.of("respond", character="mordred")) == 1


def test_1v2_two_strikes_and_no_dodge_deal_two():
    """l.160, the other way: without a 闪 C takes both 杀."""
    r = fight(A("gawain", "杀"), A("emiya", "杀"), B("mordred"))
    assert r.hp("mordred") == 2


def test_2v1_lone_striker_hits_both():
    """l.166 "一张杀是默认针对2个目标的。" (2v1 from the lone side)"""
    r = fight(B("mordred", "杀"), A("gawain"), A("emiya"))
    assert r.hp("gawain") == 3 and r.hp("emiya") == 3


def test_2v2_everyone_strikes_one_dodge_each():
    """l.163 "2V2时，假设AB一队，CD一队，ABCD同时出杀，则ABCD只需要各处一张闪就好。" """
    r = fight(A("gawain", "杀", "闪", "闪"), A("emiya", "杀", "闪", "闪"),
              B("mordred", "杀", "闪", "闪"), B("medea", "杀", "闪", "闪"))
    for cid in ("gawain", "emiya", "mordred", "medea"):
        assert r.hp(cid) == 4
        assert r.hand(cid) == ["闪"], cid


def test_2v2_three_strikers_each_side_one_dodge():
    """l.164 "如果A出杀，B没出，CD出杀，则AB各需要一张闪，而CD也各需要一张闪。" """
    r = fight(A("gawain", "杀", "闪"), A("emiya", "闪"),
              B("mordred", "杀", "闪"), B("medea", "杀", "闪"))
    assert [len(r.of("respond", character=c)) for c in ("gawain", "emiya", "mordred", "medea")] == [1, 1, 1, 1]
    assert all(r.hp(c) == 4 for c in ("gawain", "emiya", "mordred", "medea"))


def test_second_strike_of_same_enemy_needs_second_dodge():
    """l.169 "而若是同一角色使用的第二张则需要两张【闪】。" (七夜: two 杀, one 闪)"""
    r = fight(A("gawain", "杀", "杀", weapon="七夜"), B("mordred", "闪"))
    assert r.hp("mordred") == 3
    assert [e["wave"] for e in r.of("strike")] == [1, 2]


def test_second_strike_dodged_by_second_dodge():
    """l.169: with two 闪 both 杀 of the same enemy are cancelled."""
    r = fight(A("gawain", "杀", "杀", weapon="七夜"), B("mordred", "闪", "闪"))
    assert r.hp("mordred") == 4 and r.hand("mordred") == []


def test_waves_mix_enemies_second_strike_needs_second_dodge():
    """l.165 "只要是不同的人无论多少张杀只需要一张闪" and l.169: A (七夜, 2 杀) and C (1 杀)
    against B with 2 闪: one 闪 for the first wave, one for A's second 杀."""
    r = fight(A("gawain", "杀", "杀", weapon="七夜"), A("emiya", "杀"), B("mordred", "闪", "闪"))
    assert r.hp("mordred") == 4 and r.hand("mordred") == []


def test_one_strike_per_phase():
    """l.157 "每个出牌阶段只能使用一张【杀】。" """
    r = fight(A("gawain", "杀", "杀", "杀"), B("mordred"))
    assert r.hp("mordred") == 3 and r.hand("gawain") == ["杀", "杀"]


# 出杀 / 出闪 lists -------------------------------------------------------------------------
def test_strike_list_none_first_means_no_strike():
    """l.76 "不出杀在前面 之后的都视为不出杀" """
    r = fight(A("gawain", "杀", sheet={"strike_order": ["none", {"against": "enemy"}]}), B("mordred"))
    assert r.hp("mordred") == 4 and r.hand("gawain") == ["杀"]


def test_strike_count_caps_spending():
    """l.77 "可注明出杀的张数" : count 1 with 七夜 uses one 杀."""
    r = fight(A("gawain", "杀", "杀", weapon="七夜", sheet={"strike_order": [{"against": "enemy", "count": 1}]}),
              B("mordred"))
    assert r.hp("mordred") == 3 and r.hand("gawain") == ["杀"]


def test_dodge_list_none_means_no_dodge():
    """l.83 "不出闪在前面 之后的都视为不出闪" """
    r = fight(A("gawain", "杀"), B("mordred", "闪", sheet={"dodge_order": ["不出闪", "对杀出闪"]}))
    assert r.hp("mordred") == 3 and r.hand("mordred") == ["闪"]


def test_dodge_count_caps_spending():
    """l.84 "可注明出闪的张数": count 1 against two 杀 of 七夜."""
    r = fight(A("gawain", "杀", "杀", weapon="七夜"),
              B("mordred", "闪", "闪", sheet={"dodge_order": [{"against": "strike", "count": 1}]}))
    assert r.hp("mordred") == 3 and r.hand("mordred") == ["闪"]


def test_dodge_priority_keeps_dodge_for_strike():
    """l.84 "GM自动根据这回合遭遇的出杀事件优先度出定量的闪": 对杀 ranked before 对魔术牌, one 闪:
    王之财宝 (magic phase) is not answered, the later 杀 is."""
    r = fight(A("gawain", "杀", "王之财宝"),
              B("mordred", "闪", sheet={"dodge_order": ["strike", "magic"]}))
    assert r.hp("mordred") == 3
    assert [e["cause"] for e in r.of("damage")] == ["王之财宝"]


def test_dodge_priority_magic_first_spends_on_magic():
    """l.84: 对魔术牌 ranked first: the 闪 answers 王之财宝 and the 杀 hits."""
    r = fight(A("gawain", "杀", "王之财宝"),
              B("mordred", "闪", sheet={"dodge_order": ["magic", "strike"]}))
    assert r.hp("mordred") == 3
    assert [e["cause"] for e in r.of("damage")] == ["杀"]


def test_dodge_priority_with_count_spends_the_spare():
    """l.84: 对杀 count 1 ranked first, two 闪: one answers 王之财宝, one the 杀."""
    r = fight(A("gawain", "杀", "王之财宝"),
              B("mordred", "闪", "闪", sheet={"dodge_order": [{"against": "strike", "count": 1}, "magic"]}))
    assert r.hp("mordred") == 4 and r.hand("mordred") == []


def test_strike_priority_keeps_strike_for_enemy():
    """l.77 "GM自动根据这回合遭遇的出杀事件优先度出定量的杀": 对敌人 before 对魔术牌 with one 杀:
    王之军势 is not answered, the 杀 is used on the enemy."""
    r = fight(A("gawain", "王之军势"), B("mordred", "杀", sheet={"strike_order": ["enemy", "magic"]}))
    assert r.hp("mordred") == 3 and r.hp("gawain") == 3


def test_strike_priority_magic_first_answers_magic():
    """l.77: 对魔术牌 first: the 杀 answers 王之军势 and none is left for the enemy."""
    r = fight(A("gawain", "王之军势"), B("mordred", "杀", sheet={"strike_order": ["magic", "enemy"]}))
    assert r.hp("mordred") == 4 and r.hp("gawain") == 4


def test_unlisted_kind_is_never_answered():
    """l.79-83: a kind missing from the 出闪 list is not answered."""
    r = fight(A("gawain", "王之财宝"), B("mordred", "闪", sheet={"dodge_order": ["strike"]}))
    assert r.hp("mordred") == 3 and r.hand("mordred") == ["闪"]


# 咒 ---------------------------------------------------------------------------------------
def test_curse_adds_one_to_next_strike():
    """l.178 "出牌阶段对自己使用，令下一张【杀】所造成的伤害+1" """
    r = fight(A("gawain", "杀", "咒", sheet={"use_curse": True}), B("mordred"))
    assert r.hp("mordred") == 2 and r.hand("gawain") == []


def test_curse_not_used_when_sheet_says_no():
    """l.85 "4.本回合是否用咒": no → the 咒 stays in hand."""
    r = fight(A("gawain", "杀", "咒", sheet={"use_curse": False}), B("mordred"))
    assert r.hp("mordred") == 3 and r.hand("gawain") == ["咒"]


def test_curse_kept_without_a_strike():
    """l.178: with no 杀 to boost the 咒 is not wasted (ruling C10)."""
    r = fight(A("gawain", "咒", sheet={"use_curse": True}), B("mordred"))
    assert r.hand("gawain") == ["咒"]


def test_curse_boosts_only_the_next_strike():
    """l.178 "令下一张【杀】" with 七夜: first 杀 2, second 1."""
    r = fight(A("gawain", "杀", "杀", "咒", weapon="七夜", sheet={"use_curse": True}), B("mordred"))
    assert [d[2] for d in r.damage()] == [2, 1] and r.hp("mordred") == 1


def test_curse_once_a_turn():
    """l.180 "◆一回合只能使用一次。" two 咒 in hand, one used."""
    r = fight(A("gawain", "杀", "咒", "咒", sheet={"use_curse": True}), B("mordred"))
    assert r.hand("gawain") == ["咒"] and r.hp("mordred") == 2


def test_curse_saves_own_life_when_dying():
    """l.181 "当处于濒死状态时，对自己使用，立即回复一点体力。" """
    r = fight(A("gawain", "杀"), B("mordred", "咒", hp=1, sheet={"use_curse": False}))
    assert r["mordred"].alive and r.hp("mordred") == 1 and r.hand("mordred") == []
    assert [e["type"] for e in r.log if e["type"] in ("dying", "rescue", "death")] == ["dying", "rescue"]


def test_curse_never_on_others():
    """l.182 "◆不能对他人使用咒。" a dying ally is not saved by another's 咒."""
    r = fight(B("mordred", "杀"), A("gawain", "咒", sheet={"gem": "ally_first"}), A("emiya", hp=1))
    assert not r["emiya"].alive and r.hand("gawain") == ["咒"]


# 宝石 --------------------------------------------------------------------------------------
def test_gem_saves_self_when_dying():
    """l.172 "当有角色处于濒死状态时，可以对该角色使用【宝石】，防止该角色的死亡。" """
    r = fight(A("gawain", "杀"), B("mordred", "宝石", hp=1))
    assert r["mordred"].alive and r.hp("mordred") == 1
    assert r.of("rescue", character="mordred", by="mordred")


def test_gem_ally_first_saves_dying_ally():
    """l.86 "是否将宝石自用，亦或是救队友优先": ally_first gives a 宝石 to a dying ally."""
    r = fight(B("mordred", "杀"), A("gawain", "宝石", "闪", sheet={"gem": "ally_first"}), A("emiya", hp=1))
    assert r["emiya"].alive and r.hp("emiya") == 1 and r.hand("gawain") == []
    assert r.of("rescue", character="emiya", by="gawain")


def test_gem_self_first_keeps_gem_from_ally():
    """l.86: self_first keeps 宝石 for itself: the dying ally is not saved (ruling C11)."""
    r = fight(B("mordred", "杀"), A("gawain", "宝石", "闪", sheet={"gem": "self_first"}), A("emiya", hp=1))
    assert not r["emiya"].alive and r.hand("gawain") == ["宝石"]


def test_gem_never_does_not_self_rescue():
    """l.86, R13: gem never: even a dying character keeps its 宝石, and dies."""
    r = fight(A("gawain", "杀"), B("mordred", "宝石", hp=1, sheet={"gem": "never"}))
    assert not r["mordred"].alive
    assert r.of("death", character="mordred")


def test_gem_heals_in_play_phase():
    """l.171 "在出牌阶段，可以使用它来回复1点体力。" self_first, wounded after the 杀."""
    r = fight(A("gawain", "杀"), B("mordred", "宝石", "宝石", hp=3))
    assert r.hp("mordred") == 4 and r.hand("mordred") == []


def test_gem_never_above_max():
    """l.51 "最多只能跟自己的生命上限相同": at full HP the 宝石 is kept."""
    r = fight(A("gawain", "闪"), B("mordred", "宝石"))
    assert r.hp("mordred") == 4 and r.hand("mordred") == ["宝石"]


def test_gem_ally_first_keeps_gem_with_ally_present():
    """l.86 救队友优先: with an ally in the cell the 宝石 is kept for a rescue (ruling C11)."""
    r = fight(B("mordred", "杀"), A("gawain", "宝石", hp=3, sheet={"gem": "ally_first"}), A("emiya", "闪"))
    assert r.hand("gawain") == ["宝石"] and r.hp("gawain") == 2


def test_gem_ally_first_alone_heals_self():
    """l.86: ally_first with no ally in the cell heals itself like self_first."""
    r = fight(B("mordred", "杀"), A("gawain", "宝石", hp=3, sheet={"gem": "ally_first"}))
    assert r.hp("gawain") == 3 and r.hand("gawain") == []


def test_rescue_needs_hp_above_zero():
    """l.255 "若响应的结果使角色的体力值大于0，则濒死状态取消": from -1 two cards are needed."""
    r = fight(A("gawain", "杀", "咒", sheet={"use_curse": True}), B("mordred", "宝石", "咒", hp=1))
    assert r["mordred"].alive and r.hp("mordred") == 1 and r.hand("mordred") == []


# dying and death ---------------------------------------------------------------------------
def test_death_discards_cards_and_is_public():
    """l.256 "处于濒死状态的角色，若未在响应步骤中被救活，就会死去。" cards leave play."""
    r = fight(A("gawain", "杀"), B("mordred", "扭曲螺旋", hp=1, weapon="七夜", armor="天之服",
                                    sheet={"magic": {"use": False}}))
    m = r["mordred"]
    assert not m.alive and m.hp == 0 and m.hand == [] and not any(m.equipment.values())
    assert [e["to"] for e in r.of("death")] == ["all"]
    assert {c.name for c in r.game.equipment_pile} >= {"七夜", "天之服"}
    assert "扭曲螺旋" in [c.name for c in r.game.deck.discard_pile]


def test_simultaneous_strikes_both_land():
    """l.268 "即使来源被移除，此伤害或技能依旧会结算": two 1-HP fighters strike each other; both die."""
    r = fight(A("gawain", "杀", hp=1), B("mordred", "杀", hp=1))
    assert not r["gawain"].alive and not r["mordred"].alive


def test_dying_resolved_before_later_strikes():
    """l.255 "先结算该濒死事件，再结算伤害事件": the dying step and rescue come right after the
    damage, before the next target's 杀."""
    r = fight(A("gawain", "杀"), B("mordred", "宝石", hp=1), B("medea"))
    types = [t for t in r.types() if t in ("damage", "dying", "rescue")]
    assert types == ["damage", "dying", "rescue", "damage"]


def test_dead_do_not_draw():
    """l.59 "我们给所有参加战斗的玩家发2张新的手牌": survivors draw 2, the dead none."""
    r = fight(A("gawain", "杀"), B("mordred", hp=1), draw=2)
    assert len(r["gawain"].hand) == 2 and r["mordred"].hand == []
    assert [e["character"] for e in r.of("draw")] == ["gawain"]


def test_fighters_draw_two_after_fight():
    """R8 / l.59: everyone who fought draws 2 after the fight (to themselves only)."""
    r = fight(A("gawain"), B("mordred"), draw=2)
    assert len(r["gawain"].hand) == 2 and len(r["mordred"].hand) == 2
    assert [e["to"] for e in r.of("draw")] == [["p_gawain"], ["p_mordred"]]
