"""DATC-style cases: the fight follows the players' 出杀 / 出闪 lists (issue 14, issue 15 P8).

A conversion line (``via`` 正式外典 / 佩耳修斯之剑) is used where the list puts it; equipment the
sheet switches on converts on every line; a skill that costs cards waits for the sheet to ask;
``gem: self_first`` and a dying ally; why a card was held back, spent on a lower line or not
played is told to its player only. Seed: shared/seeds/002_04c4f176dbe8aff0.txt (quoted as l.N).
Rulings C28-C31 and P8 in docs/rulings/grail_war.md.
"""

from __future__ import annotations

from gm_tool.core.render import MARKUPS
from gm_tool.rulesets.grail_war.narrate import Teller, story
from tests.conftest import grail_posts

from .combat_kit import A, B, build, fight

NO_MAGIC = {"magic": {"use": False}}


def spent(r, cid, need=None):
    """The card names ``cid`` played in answer (respond events), in order, with how."""
    return [(sorted(c["name"] for c in e["cards"]), e.get("via")) for e in r.of("respond", character=cid)
            if need is None or e["need"] == need]


# item 1: a conversion line is used where the list puts it -------------------------------------
def test_c28_strike_as_dodge_on_the_magic_line_keeps_the_real_dodge_for_the_strike():
    """seed l.133 "2.发动外典 将杀转换成闪 对魔术牌出闪" after l.132 "3.1.对杀出闪", and l.222 "【正式外典】
    作用：你可以将你手牌的【杀】当【闪】": against 王之财宝 the 杀 is played as a 闪 (the line that names
    外典), so the real 闪 still answers the enemy's 杀 (the line ranked first)."""
    r = fight(A("gawain", "王之财宝", "杀"),
              B("mordred", "杀", "闪", armor="正式外典", sheet={
                  "dodge_order": ["strike", {"against": "magic", "via": "正式外典"}], "strike_order": ["none"]}))
    assert spent(r, "mordred") == [(["杀"], "正式外典"), (["闪"], None)]
    assert r.hp("mordred") == 4 and r.hand("mordred") == []
    assert r.damage() == []


def test_c28_dodge_as_strike_on_the_magic_line_keeps_the_real_strike_for_the_enemy():
    """seed l.222 "【闪】当【杀】使用（或打出）" with l.72-74 (出杀顺序 "对敌人出杀" before "对魔术牌出杀"):
    against 王之军势 the 闪 is played as a 杀 through 外典, and the real 杀 still strikes."""
    r = fight(A("gawain", "王之军势", "万法破尽", sheet={"dodge_order": ["none"]}),
              B("mordred", "杀", "闪", armor="正式外典", sheet={
                  "strike_order": ["enemy", {"against": "magic", "via": "正式外典"}], "dodge_order": ["none"]}))
    assert spent(r, "mordred") == [(["闪"], "正式外典")]
    assert [[c["name"] for c in e["cards"]] for e in r.of("strike", character="mordred")] == [["杀"]]
    assert r.hp("mordred") == 4 and r.hp("gawain") == 3 and r.hand("mordred") == []


def test_c28_perseus_pair_on_the_magic_line_keeps_the_real_strike_for_the_enemy():
    """seed l.208 "【佩耳修斯之剑】(U) 作用：当你需要使用（或打出）一张【杀】时，你可以将两张手牌当一张【杀】使用":
    against 王之军势 two other hand cards are played as the 杀 of the line that names the sword;
    the real 杀 is kept for "对敌人出杀", ranked first, and strikes."""
    r = fight(A("gawain", "王之军势", "万法破尽", sheet={"dodge_order": ["none"]}),
              B("mordred", "杀", "石化魔眼", "决斗", weapon="佩耳修斯之剑", sheet={
                  "strike_order": ["enemy", {"against": "magic", "via": "佩耳修斯之剑"}], **NO_MAGIC}))
    assert spent(r, "mordred") == [(["决斗", "石化魔眼"], "佩耳修斯之剑")]
    assert [[c["name"] for c in e["cards"]] for e in r.of("strike", character="mordred")] == [["杀"]]
    assert r.hp("mordred") == 4 and r.hp("gawain") == 3 and r.hand("mordred") == []


def test_c28_without_a_conversion_the_real_card_is_held_back_for_the_higher_line():
    """seed l.82-84 (出闪顺序, "GM自动根据这回合遭遇的出杀事件优先度出定量的闪"), ruling C6: with no line
    naming 外典 for magic, the only 闪 is kept for the 杀 ranked higher; 王之财宝 hurts."""
    r = fight(A("gawain", "王之财宝", "杀"),
              B("mordred", "杀", "闪", armor="正式外典", sheet={"dodge_order": ["strike", "magic"],
                                                              "strike_order": ["none"]}))
    assert spent(r, "mordred") == [(["闪"], None)]
    assert r.hp("mordred") == 3 and r.hand("mordred") == ["杀"]


def test_c28_conversion_cannot_cover_the_higher_line_either_so_nothing_is_spent():
    """seed l.222 with l.82-84: one 闪 and no 杀 to convert: the magic line (via 外典) has only the
    real 闪, which the higher line needs, so it is held back."""
    r = fight(A("gawain", "王之财宝", "杀"),
              B("mordred", "闪", armor="正式外典", sheet={
                  "dodge_order": ["strike", {"against": "magic", "via": "正式外典"}], "strike_order": ["none"]}))
    assert spent(r, "mordred") == [(["闪"], None)]
    assert r.hp("mordred") == 3 and r.of("held_back", character="mordred")


def test_c28_of_two_ways_the_one_the_other_list_still_needs_is_kept():
    """seed l.208 (佩耳修斯之剑, two hand cards as a 杀) and l.222 (正式外典, a 杀 as a 闪): against
    王之军势 the real 杀 and the sword's pair both answer; the real 杀 is what the 出闪 list's
    外典 line needs against the enemy's 杀 later, so the pair is played and the 杀 dodges."""
    r = fight(A("gawain", "王之军势", "杀", sheet={"dodge_order": ["none"]}),
              B("mordred", "杀", "石化魔眼", "决斗", weapon="佩耳修斯之剑", armor="正式外典", sheet={
                  "strike_order": [{"against": "magic", "via": "佩耳修斯之剑"}],
                  "dodge_order": [{"against": "strike", "via": "正式外典"}], **NO_MAGIC}))
    assert spent(r, "mordred") == [(["决斗", "石化魔眼"], "佩耳修斯之剑"), (["杀"], "正式外典")]
    assert r.hp("mordred") == 4 and r.hand("mordred") == []


# item 2: equipment switched on by the sheet ------------------------------------------------------
def test_c29_perseus_switched_on_converts_wherever_a_strike_is_needed():
    """seed l.141 "7.装备牌选择，某些装备的效果需要玩家做出选择" and l.208 "当你需要使用（或打出）一张【杀】时":
    ``equipment: {佩耳修斯之剑: {use: true}}`` lets every 出杀 line make a 杀 from two hand cards."""
    r = fight(A("gawain", "石化魔眼", "决斗", weapon="佩耳修斯之剑",
                sheet={"equipment": {"佩耳修斯之剑": {"use": True}}, **NO_MAGIC}),
              B("mordred", "万法破尽"))
    strikes = r.of("strike", character="gawain")
    assert [sorted(c["name"] for c in e["cards"]) for e in strikes] == [["决斗", "石化魔眼"]]
    assert strikes[0]["via"] == "佩耳修斯之剑"
    assert r.hp("mordred") == 3 and r.hand("gawain") == []


def test_c29_perseus_not_switched_on_does_not_convert():
    """seed l.141 "此选项不是必填选项" (ruling C14): unnamed, the sword converts nothing."""
    r = fight(A("gawain", "石化魔眼", "决斗", weapon="佩耳修斯之剑", sheet=NO_MAGIC), B("mordred", "万法破尽"))
    assert not r.of("strike") and r.hp("mordred") == 4 and r.hand("gawain") == ["决斗", "石化魔眼"]


def test_c29_formal_apocrypha_switched_on_converts_on_the_dodge_list():
    """seed l.222 "你可以将你手牌的【杀】当【闪】": ``equipment: {正式外典: {use: true}}`` lets the 出闪
    list's lines play a 杀 as a 闪."""
    r = fight(A("gawain", "杀"), B("mordred", "杀", armor="正式外典", sheet={
        "equipment": {"正式外典": {"use": True}}, "strike_order": ["none"]}))
    assert spent(r, "mordred") == [(["杀"], "正式外典")]
    assert r.hp("mordred") == 4


# item 3: a skill that costs cards waits for the sheet ------------------------------------------
def test_c30_skill_costing_cards_unused_when_the_sheet_does_not_ask():
    """seed l.69 "1.1本回合是否使用角色技能" and the sample l.127 "是 丢弃 万法破尽 王之财宝": a skill paid
    with cards is used when the sheet names it or its discards; a sheet silent on it keeps the
    cards (here the player's only 宝石) and the player is told why."""
    r = fight(A("artoria", "宝石", skills=None, sheet=NO_MAGIC), B("mordred"), B("medea"))
    assert not r.of("skill") and r.hand("artoria") == ["宝石"]
    assert r.hp("mordred") == 4 and r.hp("medea") == 4
    told = r.of("skill_skipped", character="artoria", reason="not_asked")
    assert told and told[0]["to"] == ["p_artoria"]
    assert ("**阿尔托利亚** 的技能【湖之选定】未能发动（它要丢弃手牌，而战术选项没有点名它或它要丢弃的牌）。"
            in private_lines(r, "p_artoria"))


def test_c30_skill_costing_cards_used_when_named():
    """seed l.69: naming the skill asks for it; the GM pays with the cards wanted least (C22)."""
    r = fight(A("artoria", "宝石", "扭曲螺旋", skills=None, sheet={"skill": {"name": "湖之选定"}, **NO_MAGIC}),
              B("mordred"))
    assert r.of("skill", character="artoria") and r.hand("artoria") == [] and r.hp("mordred") == 3


def test_c30_free_skill_keeps_its_default():
    """seed l.69 with ruling C22: a skill that costs no card (叛逆魔剑 loses 1 HP) is still used by
    default when the sheet says nothing."""
    r = fight(A("mordred", "杀", skills=None), B("gawain"))
    assert r.of("skill", character="mordred") and r.hp("mordred") == 3 and r.hp("gawain") == 2


# item 4: gem self_first and a dying ally ----------------------------------------------------------
def test_c31_self_first_gives_a_spare_gem_to_a_dying_ally():
    """seed l.86 "5.是否将宝石自用，亦或是救队友优先" and l.172 "当有角色处于濒死状态时，可以对该角色使用【宝石】":
    self_first keeps one 宝石 for itself while an enemy may still hurt it, and saves a dying ally
    with the next."""
    r = fight(B("mordred", "杀"), A("gawain", "宝石", "宝石", "闪", sheet={"gem": "self_first"}), A("emiya", hp=1))
    assert r["emiya"].alive and r.hp("emiya") == 1
    assert r.hand("gawain") == ["宝石"]
    assert r.of("rescue", character="emiya", by="gawain")


def test_c31_self_first_keeps_its_only_gem_while_an_enemy_stands():
    """seed l.86 "宝石自用" first: with one 宝石 and an enemy alive, the dying ally is not saved."""
    r = fight(B("mordred", "杀"), A("gawain", "宝石", "闪", sheet={"gem": "self_first"}), A("emiya", hp=1))
    assert not r["emiya"].alive and r.hand("gawain") == ["宝石"]


def test_c31_self_first_saves_an_ally_with_its_only_gem_once_no_enemy_stands():
    """seed l.86 with l.268 "即使来源被移除，此伤害或技能依旧会结算": the last enemy falls in the same
    wave its 杀 takes the ally to 0; the self_first holder need not save itself any more and
    spends its only 宝石 on the ally."""
    r = fight(B("mordred", "杀", hp=1), A("gawain", "杀", "宝石", sheet={"gem": "self_first", "dodge_order": ["none"]}),
              A("emiya", hp=1))
    assert not r["mordred"].alive
    assert r["emiya"].alive and r.hp("emiya") == 1 and r.hand("gawain") == []
    assert r.hp("gawain") == 3


# P8: why a card was held back, spent lower, or not played -----------------------------------------
def private_lines(r, player):
    names = {c.id: c.name for c in r.game.characters}
    teller = Teller(names, "zh", MARKUPS["md"])
    return [line for s in story(r.log, teller, player) for line in s["lines"]]


def test_p8_held_back_is_emitted_and_told_to_its_player_only():
    """seed l.82-84 "GM自动根据这回合遭遇的出杀事件优先度出定量的闪": the 闪 kept for the 杀 ranked higher
    is told to its player (event ``held_back``), not to the enemy."""
    r = fight(A("gawain", "王之财宝", "杀"),
              B("mordred", "闪", sheet={"dodge_order": ["strike", "magic"], "strike_order": ["none"]}))
    ev = r.of("held_back", character="mordred")
    assert ev and ev[0]["to"] == ["p_mordred"] and ev[0]["reserved_for"] == "strike" and ev[0]["against"] == "magic"
    line = "**莫德雷德** 保留【闪 ♣2】以应对优先级更高的敌人的【杀】，这次不打出。"
    held = [x for x in private_lines(r, "p_mordred") if "保留" in x]
    assert held == [line.replace("♣2", held[0].split("【闪 ")[1].split("】")[0])]
    assert not any("保留" in x for x in private_lines(r, "p_gawain"))


def test_p8_spent_lower_is_told_when_the_higher_line_cannot_come():
    """seed l.72-77 (出杀顺序 with "对敌人出杀" first) and l.200 "不能使用【杀】": petrified, the fighter
    cannot use its 杀 on enemies, so it is spent on 王之军势 (the lower line) and the player is told."""
    r = fight(A("gawain", "石化魔眼", "王之军势", "万法破尽", sheet={"dodge_order": ["none"]}),
              B("mordred", "杀", sheet={"strike_order": ["enemy", "magic"], **NO_MAGIC}), deck=["杀 ♣9"])
    assert r.of("petrified", character="mordred")
    assert spent(r, "mordred") == [(["杀"], None)] and r.hp("mordred") == 4
    ev = r.of("spent_lower", character="mordred")
    assert ev and ev[0]["to"] == ["p_mordred"] and ev[0]["higher"] == "enemy"
    assert any("在魔术牌上打出【杀" in x and "对敌人出杀本场不会再发生" in x for x in private_lines(r, "p_mordred"))
    assert not any("本场不会再发生" in x for x in private_lines(r, "p_gawain"))


def test_p8_not_played_is_told_once_to_its_player():
    """seed l.158 "B要出闪抵消才能不扣血": asked for a 闪 its list answers, with none in hand, the
    fighter is told it had none (once for the turn's 杀), the enemy is not."""
    r = fight(A("gawain", "杀", "杀", weapon="七夜"), B("mordred", "万法破尽"))
    assert r.hp("mordred") == 2
    ev = r.of("not_played", character="mordred")
    assert len(ev) == 1 and ev[0]["to"] == ["p_mordred"]
    assert "**莫德雷德** 没有可打出的【闪】（应对敌人的【杀】）。" in private_lines(r, "p_mordred")
    assert not any("没有可打出" in x for x in private_lines(r, "p_gawain"))


def test_p8_in_the_private_posts():
    """ruling P8 end to end: the posts of the turn (posts.posts) hold the held-back sentence in the
    owner's private post only, never in the enemy's nor in the public post."""
    fs = (A("gawain", "王之财宝", "杀"),
          B("mordred", "闪", sheet={"dodge_order": ["strike", "magic"], "strike_order": ["none"]}))
    before = build(*fs)[0].to_state()
    r = fight(*fs)
    out = grail_posts(before, r.game.to_state(), r.log, "zh")
    assert "以应对优先级更高的敌人的【杀】，这次不打出" in out["p_mordred"]["md"]
    assert "这次不打出" not in out["p_gawain"]["md"] and "这次不打出" not in out["public"]["md"]
