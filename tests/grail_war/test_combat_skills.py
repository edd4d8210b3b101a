"""DATC-style cases for the roster's skills (skill phase, R9) and the skill primitives.

The seed gives skills only by example (l.161-162 a skill "被扣血后可获得对方一张牌"; the sample
sheet l.126-127 discards two cards for 阿尔托利亚's skill); the skills are rulings C20-C21.
"""

from __future__ import annotations

import pytest

from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.rulesets.grail_war import data, hands
from gm_tool.rulesets.grail_war.combat import Fight
from gm_tool.rulesets.grail_war.combat import skills as defs
from gm_tool.rulesets.grail_war.model import CLASSES

from .combat_kit import A, B, build, fight, parse_sheets

OFF = {"magic": {"use": False}}
# a skill that costs cards is used only when the sheet asks for it (ruling C30)
CMD = {"skill": {"name": "王之号令"}}


def S(cid, *hand, side="red", **kw):
    """A fighter with its roster skills."""
    return (A if side == "red" else B)(cid, *hand, skills=None, **kw)


# the roster ---------------------------------------------------------------------------------
def test_roster_has_the_fourteen_servants_two_per_class():
    """Issue 4: 14 servants, two per class, 阿尔托利亚 CASTER 4 HP (seed l.121 "角色:阿尔托利亚 CASTER 当前4血")."""
    roster = data.load("characters")["characters"]
    ids = {c["id"] for c in roster}
    assert ids == {"artoria", "gawain", "mordred", "emiya", "gilgamesh", "cu_chulainn", "diarmuid", "medusa",
                   "iskandar", "medea", "kojiro", "hassan", "heracles", "lancelot"}
    assert sorted(c["class"] for c in roster) == sorted(list(CLASSES) * 2)
    art = next(c for c in roster if c["id"] == "artoria")
    assert (art["name"], art["class"], art["hp"]) == ("阿尔托利亚", "CASTER", 4)
    for c in roster:
        assert c["skills"] and all(s in defs.registry() for s in c["skills"])


def test_every_bundled_skill_is_valid_and_texted():
    """Ruling C21: every skill is built from the documented primitives and has zh/en text."""
    for sid, sk in defs.registry().items():
        assert sk.text.get("zh") and sk.text.get("en"), sid


@pytest.mark.parametrize("bad, what", [
    ({"trigger": "sometimes", "effects": []}, "trigger"),
    ({"trigger": "active", "target": "everyone", "effects": []}, "target"),
    ({"trigger": "active", "effects": [{"damage": "lots"}]}, "damage"),
    ({"trigger": "active", "effects": [{"judge": {"pattern": "purple"}}]}, "judge.pattern"),
    ({"trigger": "active", "cost": {"discard": 0}, "effects": []}, "cost"),
    ({"trigger": "active", "effects": [{"take_card": {"zones": ["pocket"]}}]}, "take_card.zones"),
])
def test_bad_skill_definitions_are_named(bad, what):
    """Ruling C21: a GM's new skill with an unknown primitive is refused with the field at fault."""
    assert any(p.startswith(what) for p in defs.problems(bad))


def test_scenario_refuses_unknown_skill_id():
    """Spec §5 "skills": an id that is not in skills.yaml is refused by the scenario check."""
    from gm_tool.errors import GmError
    from gm_tool.rulesets.grail_war.scenario import build as build_scenario

    sc = {"ruleset": "grail_war", "map": {"width": 3, "height": 1},
          "characters": [{"id": "x", "class": "SABER", "side": "red", "pos": "A1", "skills": ["flying"]},
                         {"id": "y", "class": "SABER", "side": "blue", "pos": "C1"}]}
    with pytest.raises(GmError) as e:
        build_scenario(sc, "s.yaml", "seed")
    assert "characters[0].skills[0]" in e.value.render("en")


# active skills --------------------------------------------------------------------------------
def test_artoria_sample_skill_discards_the_named_cards():
    """l.127 "是 丢弃 万法破尽 王之财宝": 湖之选定 pays those two; every enemy must 闪 or take 1."""
    sheet = {"skill": {"use": True, "discard": ["万法破尽", "王之财宝"]}, **OFF}
    r = fight(S("artoria", "万法破尽", "王之财宝", sheet=sheet),
              B("mordred", "闪", sheet={"dodge_order": ["skill"]}), B("medea"))
    assert r.hand("artoria") == [] and r.hp("mordred") == 4
    pay = r.of("pay", character="artoria")[0]
    assert sorted(c["name"] for c in pay["cards"]) == ["万法破尽", "王之财宝"]
    assert [d for d in r.damage() if d[0] == "artoria"][0] == ("artoria", "medea", 1)


def test_skill_not_used_when_sheet_says_no():
    """l.69 "1.1本回合是否使用角色技能。" no: nothing is paid."""
    r = fight(S("artoria", "万法破尽", "王之财宝", sheet={"skill": {"use": False}, **OFF}), B("mordred"))
    assert r.hand("artoria") == ["万法破尽", "王之财宝"] and not r.of("skill")


def test_skill_without_enough_cards_is_skipped_privately():
    """Ruling C22: a cost that cannot be paid skips the skill, told only to its player."""
    r = fight(S("artoria", "万法破尽", sheet=OFF), B("mordred"))
    skipped = r.of("skill_skipped", character="artoria")
    assert skipped and skipped[0]["to"] == ["p_artoria"] and r.hp("mordred") == 4


def test_skill_discard_lost_to_hand_limit_is_skipped_and_logged():
    """Issue: "a choice that turned impossible … is skipped and logged": the keep list at the
    start of the turn drops a card the skill was to discard."""
    game, _ = build(S("artoria", "杀", "杀", "杀", "闪", "闪", "宝石", "王之财宝", hp=2),
                    B("mordred"))
    parsed = parse_sheets(game, {"artoria": {"keep": ["杀", "杀", "杀", "闪"],
                                             "skill": {"use": True, "discard": ["王之财宝", "宝石"]}, **OFF}})
    log = EventLog()
    hands.apply_limit(game, parsed, log)
    Fight(game, (0, 0), game.characters, parsed, log, Chance("s", "t", log), order=["artoria", "mordred"]).run()
    skipped = [e for e in log.events if e["type"] == "skill_skipped"]
    assert skipped and skipped[0]["reason"] == "card_gone"
    assert game.character("mordred").hp == game.character("mordred").max_hp - 1  # the 杀 still lands


def test_iskandar_command_by_more_hp():
    """l.70 "如果出现时某些技能先针对血多的角色还是牌多的角色": more_hp picks the healthier enemy."""
    r = fight(S("iskandar", "万法破尽", sheet={"target_priority": "more_hp", **CMD, **OFF}),
              B("mordred", hp=2), B("medea", hp=4))
    assert r.hp("medea") == 3 and r.hp("mordred") == 2


def test_iskandar_command_by_more_cards():
    """l.70: more_cards picks the enemy holding more cards."""
    r = fight(S("iskandar", "万法破尽", sheet={"target_priority": "more_cards", **CMD, **OFF}),
              B("mordred", "宝石", "宝石", "宝石", hp=2, sheet={"gem": "never"}), B("medea", hp=4))
    assert r.hp("mordred") == 1


def test_target_tie_broken_by_seeded_chance():
    """l.70 "若相等则随机": the tie is a logged chance draw, the same for the same seed."""
    runs = [fight(S("iskandar", "万法破尽", sheet={**CMD, **OFF}), B("mordred"), B("medea"), seed=s) for s in ("a", "b", "c", "d")]
    hit = [next(d[1] for d in r.damage()) for r in runs]
    assert set(hit) <= {"mordred", "medea"}
    assert all(any(e["type"] == "chance" and e["why"] == "target tie" for e in r.log) for r in runs)
    again = fight(S("iskandar", "万法破尽", sheet={**CMD, **OFF}), B("mordred"), B("medea"), seed="a")
    assert next(d[1] for d in again.damage()) == hit[0]


def test_iskandar_command_answered_with_strike():
    """l.72 "--对技能出杀": the target plays a 杀 against the skill."""
    r = fight(S("iskandar", "万法破尽", sheet={**CMD, **OFF}), B("mordred", "杀", sheet={"strike_order": ["skill"]}))
    assert r.hp("mordred") == 4 and r.hand("mordred") == []


def test_medusa_eyes_petrify_on_non_heart():
    """石化之魔眼 with a ♣ judgement: the enemy cannot use 杀 (cf. l.200)."""
    r = fight(S("medusa", "万法破尽", sheet={"skill": {"discard": ["万法破尽"]}, **OFF}), B("mordred", "杀"), deck=["杀 ♣9"])
    assert r.of("petrified", character="mordred") and r.hp("medusa") == 4


def test_hassan_zabaniya_black_deals_damage():
    """妄想心音: a black judgement deals 1, no 闪 possible."""
    r = fight(S("hassan", "万法破尽", sheet={"skill": {"name": "妄想心音"}, **OFF}), B("mordred", "闪"), deck=["杀 ♠9"])
    assert r.hp("mordred") == 3 and r.hand("mordred") == ["闪"]


def test_hassan_zabaniya_red_misses():
    r = fight(S("hassan", "万法破尽", sheet=OFF), B("mordred"), deck=["闪 ♦9"])
    assert r.hp("mordred") == 4


def test_medea_rule_breaker_discards_equipment_by_zone_priority():
    """破戒之符: weapon or armour in the order of the sheet's zone priority."""
    r = fight(S("medea", "万法破尽", sheet={"skill": {"name": "破戒之符"},
                                       "magic": {"use": False, "zone_priority": ["armor", "weapon"]}}),
              B("mordred", weapon="七夜", armor="天之服"))
    assert r["mordred"].equipment["armor"] is None and r["mordred"].equipment["weapon"] is not None


def test_medea_rule_breaker_needs_an_equipped_enemy():
    r = fight(S("medea", "万法破尽", sheet=OFF), B("mordred"))
    assert r.hand("medea") == ["万法破尽"] and r.of("skill_skipped", reason="no_target")


def test_mordred_loses_hp_for_stronger_strikes():
    """叛逆魔剑: lose 1 HP, this turn's 杀 +1."""
    r = fight(S("mordred", "杀"), B("gawain"))
    assert r.hp("mordred") == 3 and r.hp("gawain") == 2


def test_mordred_not_at_one_hp():
    r = fight(S("mordred", "杀", hp=1), B("gawain"))
    assert r.hp("mordred") == 1 and r.hp("gawain") == 3


# triggered and static skills -------------------------------------------------------------------
def test_gawain_full_hp_bonus_is_locked():
    """日轮加护 (锁定技) works even with skill use false."""
    r = fight(S("gawain", "杀", sheet={"skill": {"use": False}}), B("mordred"))
    assert r.hp("mordred") == 2


def test_gawain_no_bonus_when_wounded():
    r = fight(S("gawain", "杀", hp=3), B("mordred"))
    assert r.hp("mordred") == 3


def test_emiya_takes_only_from_who_damaged_him():
    """l.161 "若C的技能为被扣血后可获得对方一张牌，B没出杀就不用收到效果。" """
    r = fight(A("gawain", "杀", "万法破尽"), A("mordred", "扭曲螺旋", sheet=OFF), S("emiya", side="blue"))
    assert r.hp("emiya") == 3
    assert r.hand("gawain") == [] and r.hand("mordred") == ["扭曲螺旋"]
    assert r.hand("emiya") == ["万法破尽"]


def test_both_skills_trigger_on_one_strike():
    """l.162 "而如果C的杀触发了AB两人的技能，则要收到两人的技能效果。" """
    r = fight(S("emiya"), A("gawain", skills=["projection"]),
              B("mordred", "杀", "万法破尽", "扭曲螺旋", sheet=OFF))
    assert r.hand("mordred") == []
    assert len(r.of("take_hand_card", target="mordred")) == 2


def test_gilgamesh_draws_one_more():
    """黄金律 with R8's 2: three cards after the fight."""
    r = fight(S("gilgamesh"), B("mordred"), draw=2)
    assert len(r["gilgamesh"].hand) == 3 and len(r["mordred"].hand) == 2


def test_cu_chulainn_red_judgement_survives():
    """战斗续行: dying, a red judgement recovers to 1 HP."""
    r = fight(A("gawain", "杀"), S("cu_chulainn", hp=1, side="blue"), deck=["闪 ♥2"])
    assert r["cu_chulainn"].alive and r.hp("cu_chulainn") == 1


def test_cu_chulainn_black_judgement_dies():
    r = fight(A("gawain", "杀"), S("cu_chulainn", hp=1, side="blue"), deck=["杀 ♠8"])
    assert not r["cu_chulainn"].alive


def test_diarmuid_two_strikes():
    """双枪: one more 杀 in the basic phase (like 七夜)."""
    r = fight(S("diarmuid", "杀", "杀", "杀"), B("mordred"))
    assert r.hp("mordred") == 2 and r.hand("diarmuid") == ["杀"]


def test_kojiro_black_judgement_hits_through_dodge():
    """燕返: the 杀 is dodged, a black judgement makes it hit anyway."""
    r = fight(S("kojiro", "杀"), B("mordred", "闪"), deck=["杀 ♣7"])
    assert r.hp("mordred") == 3 and r.hand("mordred") == []


def test_kojiro_red_judgement_stays_dodged():
    r = fight(S("kojiro", "杀"), B("mordred", "闪"), deck=["宝石 ♥7"])
    assert r.hp("mordred") == 4


def test_heracles_revives_once_per_turn():
    """十二试炼: dying, lose 1 max HP and recover to 1; only once a turn."""
    r = fight(A("gawain", "杀", "杀", weapon="七夜"), S("heracles", hp=1, side="blue"))
    h = r["heracles"]
    assert not h.alive and h.max_hp == 4
    r = fight(A("gawain", "杀"), S("heracles", hp=1, side="blue"))
    assert r["heracles"].alive and r.hp("heracles") == 1 and r["heracles"].max_hp == 4


def test_lancelot_black_card_as_strike():
    """骑士不死于徒手: a black hand card (not 闪/宝石) used as a 杀."""
    r = fight(S("lancelot", "扭曲螺旋 ♠3", sheet=OFF), B("mordred"))
    assert r.hp("mordred") == 3 and r.hand("lancelot") == []


def test_lancelot_red_card_is_not_a_strike():
    r = fight(S("lancelot", "扭曲螺旋 ♥Q", sheet=OFF), B("mordred"))
    assert r.hp("mordred") == 4


def test_lancelot_no_conversion_with_skill_off():
    r = fight(S("lancelot", "扭曲螺旋 ♠3", sheet={"skill": {"use": False}, **OFF}), B("mordred"))
    assert r.hp("mordred") == 4


def test_skill_phase_before_magic_phase():
    """l.67 "默认先进行技能的使用，再使用玩家有意打出的魔术牌": the skill comes first."""
    r = fight(S("iskandar", "王之财宝", "扭曲螺旋", sheet=CMD), B("mordred"))
    kinds = [t for t in r.types() if t in ("skill", "magic")]
    assert kinds == ["skill", "magic"]
