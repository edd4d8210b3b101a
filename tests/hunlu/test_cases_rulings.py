"""Rule cases for the rulings of docs/rulings/hunlu.md that other files do not cover."""

from __future__ import annotations

from gm_tool.rulesets.hunlu import rules as R
from tests.hunlu.helpers import check, events, new, play, unit

B = {"player": "bob", "pos": "C5"}
MUTE_STRIKE = {"hush": {"name": "噤声斩", "qi": 1, "shape": "single", "effects": [{"strike": 1}, {"status": {"name": "沉默", "rounds": 1}}]}}
GENS = {"husher": {"name": "噤声者", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["hush"]}}


def test_r2_dodged_strike_carries_no_effects():
    """seed l.37: "若为闪避点数，则伤害无效。" (ruling R2: a nullified strike carries no skill effect, no 神 loss)"""
    s = new({"a": {"general": "husher", "pos": "C3"}, "b": {**B, "dodge": 100}}, generals=GENS, skills=MUTE_STRIKE)
    s, _ = play(s, [{"skill": "hush", "target": "b"}], dice=[3])
    assert unit(s, "b")["statuses"] == [] and unit(s, "b")["shen"] == 8


def test_r2_landed_strike_carries_effects():
    """seed l.22: "每次受到附带负面状态的打击时，都会减少1点神。" (ruling R2, the other side)"""
    s = new({"a": {"general": "husher", "pos": "C3"}, "b": B}, generals=GENS, skills=MUTE_STRIKE)
    s, _ = play(s, [{"skill": "hush", "target": "b"}], dice=[3])
    assert [x["name"] for x in unit(s, "b")["statuses"]] == ["沉默"] and unit(s, "b")["shen"] == 7


def test_r10_nobody_can_ever_act():
    """seed l.23: "当A魂将精神力为0时...永久停止行动" (ruling R10: every fielded general 寂灭: next is null)"""
    j = [{"name": "寂灭", "rounds": None}]
    s = new({"a": {"pos": "C3", "statuses": j}, "b": {**B, "statuses": j}})
    assert s["next"] is None and s["winner"] is None


def test_r10_timed_block_passes_rounds():
    """seed l.180: "并停止其行动一回合" (ruling R10: a round where nobody can act passes by itself)"""
    st = [{"name": "停止行动", "rounds": 1}]
    s = new({"a": {"pos": "C3", "statuses": st, "move": 4}, "b": {**B, "statuses": st}})
    assert s["round"] == 2 and s["next"]["unit"] == "a"


def test_r11_item_used_up():
    """seed l.66: "使用自己所拥有物品中的一项，并执行相应效果，无特殊说明，物品使用后均消失。" """
    sk = {"回气丹": {"name": "回气丹", "qi": 0, "shape": "self", "effects": [{"qi": 2}]}}
    s = new({"a": {"pos": "C3", "qi": 5, "move": 4, "items": ["回气丹"]}, "b": B}, skills=sk)
    s, _ = play(s, [{"item": "回气丹"}])
    a = unit(s, "a")
    assert a["qi"] == 8 and a["items"] == []


def test_r11_item_not_held_refused():
    """seed l.66: "使用自己所拥有物品中的一项" """
    assert check(new({"a": {"pos": "C3"}, "b": B}), [{"item": "回气丹"}]) == ["hunlu.skip.item_unknown@actions.0.item"]


def test_r13_resist_halving_rounds_up():
    """seed l.40: "若为元抗点数则受到伤害降低50%" (ruling R13: 1.5 halves to 0.75, rounded up to 1)"""
    assert R.resist_halve(1.5) == 1


def test_r14_move_cut_rounds_down():
    """seed l.134: "一为降低百分比行动力（通常为50%）" (ruling R14: 3 × 0.5 = 1.5 → 1)"""
    assert R.effective_move(3, [], [50], []) == 1


def test_r15_same_buff_refreshes():
    """seed l.135: "如降低50%行动力的效果若多次受到，则只减少50%行动力" (ruling R15: the same buff again refreshes)"""
    s = new({"t": {"general": "tianwei_jianjun", "pos": "C3", "move": 4}, "b": {**B, "pos": "H8"}})
    s, _ = play(s, [{"skill": "yishen_huajian"}, {"skill": "yishen_huajian"}])
    assert len([x for x in unit(s, "t")["statuses"] if x["name"] == "以身化剑"]) == 1


def test_r22_half_point_crit_stays_half():
    """seed l.144: "而当单次伤害为0.5点时，不受任何伤害改变效果。" (a 林 crit still deals 0.5)"""
    s = new({"a": {"pos": "C3", "element": "林", "crit": 100, "move": 4}, "b": B})
    s, _ = play(s, [{"attack": "b"}], dice=[1])
    assert unit(s, "b")["jing"] == 6.5


def test_r20_fall_voids_rest_of_leg_list():
    """seed l.126: "突进或移动经过上面的目标将被立即移出战场" (ruling R20: the second leg is void)"""
    s = new({"a": {"pos": "C3", "move": 6}, "b": {**B, "pos": "H8"}}, obstacles=[{"pos": "C4", "grade": 3}])
    s, ev = play(s, [{"move": ["C6", "E6"]}])
    assert len(events(ev, "move")) == 1 and unit(s, "a")["pos"] is None


def test_r21_check_ignores_luck():
    """seed l.47: "每当需要判定时，扔一次骰子" (ruling R21: gm check rolls nothing; a kill at resolution skips the rest)"""
    s = new({"a": {"pos": "C3", "move": 4}, "b": {**B, "jing": 1}, "c": {"player": "bob", "pos": "H8"}})
    assert check(s, [{"attack": "b"}, {"attack": "b"}]) == []
    s, ev = play(s, [{"attack": "b"}, {"attack": "b"}], dice=[3])
    assert events(ev, "skip")[0]["reason"] == "target_gone" and len(events(ev, "strike")) == 1


CHANCY = {"stun": {"name": "震晕斩", "qi": 1, "shape": "single", "chance": 50,
                   "effects": [{"strike": 1}, {"status": {"name": "停止行动", "rounds": 1}}]}}
CGEN = {"stunner": {"name": "震晕者", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["stun"]}}


def test_r25_skill_chance_after_strike_die():
    """seed l.146: "判定时，先判定被动，再判定攻击属性，最后判定技能特效。" (the strike's die, then the effect's chance)"""
    s = new({"a": {"general": "stunner", "pos": "C3"}, "b": B}, generals=CGEN, skills=CHANCY)
    s, ev = play(s, [{"skill": "stun", "target": "b"}], dice=[5, 2])
    assert [e["why"] for e in events(ev, "roll")] == ["震晕斩", "震晕斩"]
    assert unit(s, "b")["jing"] == 6 and [x["name"] for x in unit(s, "b")["statuses"]] == ["停止行动"]


def test_r25_skill_chance_fails():
    """seed l.147: "首先判定是否免疫技能特效，然后判定是否触发弱点，最后判定是否回1气。" (a failed chance: no effect)"""
    s = new({"a": {"general": "stunner", "pos": "C3"}, "b": B}, generals=CGEN, skills=CHANCY)
    s, _ = play(s, [{"skill": "stun", "target": "b"}], dice=[5, 4])
    assert unit(s, "b")["jing"] == 6 and unit(s, "b")["statuses"] == []


def test_h25_target_passive_before_die():
    """seed l.147: "当受到攻击时，首先判定是否免疫技能特效，然后判定是否触发弱点，最后判定是否回1气。" (the target's passive first)"""
    sk = {"calm": {"name": "回气心法", "timing": "passive", "trigger": "attacked", "chance": 50, "effects": [{"qi": 1}]}}
    gens = {"calmer": {"name": "心法者", "jing": 7, "qi": 10, "move": 1, "range": 2, "skills": ["calm"]}}
    s = new({"a": {"pos": "C3", "move": 4}, "b": {**B, "general": "calmer", "qi": 5, "weakness": 35}},
            generals=gens, skills=sk)
    s, ev = play(s, [{"attack": "b"}], dice=[1, 6])
    assert [e["why"] for e in events(ev, "roll")] == ["回气心法", "attack"]
    assert unit(s, "b")["qi"] == 6 and unit(s, "b")["jing"] == 5  # 5 + 1 (no regen given); weakness on 6


def test_h25_passive_immunity_to_skill_effects():
    """seed l.147: "A的被动为35%免疫技能特效...首先判定是否免疫技能特效，然后判定是否触发弱点" """
    sk = {"ward": {"name": "免疫特效", "timing": "passive", "trigger": "attacked", "chance": 35,
                   "effects": [{"negate_effects": True}]}}
    gens = {"warded": {"name": "护体者", "jing": 7, "qi": 10, "move": 1, "range": 2, "skills": ["ward"]}}
    s = new({"a": {"general": "stunner", "pos": "C3"}, "b": {**B, "general": "warded"}},
            generals={**CGEN, **gens}, skills={**CHANCY, **sk})
    s, ev = play(s, [{"skill": "stun", "target": "b"}], dice=[2, 5])
    assert [e["why"] for e in events(ev, "roll")] == ["免疫特效", "震晕斩"]
    assert unit(s, "b")["jing"] == 6 and unit(s, "b")["statuses"] == [] and events(ev, "negated")


def test_h25_passive_immunity_fails():
    """seed l.147: "A的被动为35%免疫技能特效" (face 3 is not among the 35 % faces 1-2)"""
    sk = {"ward": {"name": "免疫特效", "timing": "passive", "trigger": "attacked", "chance": 35,
                   "effects": [{"negate_effects": True}]}}
    gens = {"warded": {"name": "护体者", "jing": 7, "qi": 10, "move": 1, "range": 2, "skills": ["ward"]}}
    s = new({"a": {"general": "stunner", "pos": "C3"}, "b": {**B, "general": "warded"}},
            generals={**CGEN, **gens}, skills={**CHANCY, **sk})
    s, ev = play(s, [{"skill": "stun", "target": "b"}], dice=[3, 5, 1])
    assert [x["name"] for x in unit(s, "b")["statuses"]] == ["停止行动"]
