"""What the posts say, in plain words a player can check against their own list (issue 15,
rulings P7-P9): movement per character, one line per death, cards played as themselves, judgements
with their outcome, the engine's reasons in words, held-back cards, the cards received, the
skills and equipment with their text, closed cells on every map, the sheet to send."""

from __future__ import annotations

import copy

import pytest

from gm_tool.core.render import MARKUPS
from gm_tool.rulesets.grail_war import RULESET
from gm_tool.rulesets.grail_war.narrate import Teller, narration, story
from gm_tool.rulesets.grail_war.posts import draw_map, text_map
from gm_tool.rulesets.grail_war.sheet import template
from tests.conftest import grail_posts as posts
from tests.grail_war.combat_kit import A, B, fight
from tests.regen_golden import SCENARIO, load_campaign

NAMES = {"a": "甲", "b": "乙", "c": "丙"}


def tell(events, player="pa", lang="zh", gone=None):
    for i, e in enumerate(events):
        e.setdefault("seq", i)
        e.setdefault("to", "all")
    teller = Teller(NAMES, lang, MARKUPS["md"])
    return [line for s in story(events, teller, player, gone=gone) for line in s["lines"]]


def told(r, lang="zh"):
    names = {c.id: c.name for c in r.game.characters}
    teller = Teller(names, lang, MARKUPS["md"])
    return [line for s in narration().story(r.log, teller, None) for line in s["lines"]]


def state0(**changes):
    sc = copy.deepcopy(SCENARIO)
    for i, ch in changes.items():
        sc["characters"][int(i[1:])].update(ch)
    return RULESET.setup(sc, "<scenario>", "phrasing")


# movement ------------------------------------------------------------------------------------
def test_p7_movement_is_one_line_per_character():
    """seed l.54: "移动阶段" / l.262 "每个角色的移动行是同时的": steps are simultaneous, but a reader
    follows characters, so each character's path is one line, in the order each first moved."""
    steps = [{"type": "step", "character": "a", "start": "D5", "end": "D6"},
             {"type": "step", "character": "b", "start": "A1", "end": "A2"},
             {"type": "step", "character": "a", "start": "D6", "end": "D7"},
             {"type": "blocked", "character": "a", "cell": "D8", "reason": "full", "cells": ["D7", "D8"]}]
    assert tell(steps) == ["**甲**：D5→D6→D7，无法进入 D8（格子已满），停下。", "**乙**：A1→A2。"]
    assert tell(steps, lang="en")[0] == "**甲**: D5→D6→D7, cannot enter D8 (full) and stops."


def test_p7_a_stretch_out_of_sight_and_a_walk_out_of_sight_are_told():
    """seed l.4 "每回合结束后每人将获得自己的视野": a reader sees only part of an ally's path; the gap is
    "…" and a path ending where the reader no longer sees the character says so (the ally is
    still accounted for)."""
    steps = [{"type": "step", "character": "b", "start": "A1", "end": "A2"},
             {"type": "step", "character": "b", "start": "A4", "end": "A5"}]
    assert tell(steps, gone={"b"}) == ["**乙**：A1→A2…A4→A5，之后离开视野。"]


def test_p7_an_enemy_barring_the_way_is_not_a_full_cell():
    """seed l.262 (simultaneous moves), ruling O7: two enemies stepping into each other's cells."""
    line = tell([{"type": "blocked", "character": "a", "cell": "C3", "reason": "enemy", "cells": ["C2", "C3"]}])
    assert line == ["**甲**：C2，与迎面而来的敌人互相阻挡，未能进入 C3，停下。"]


def test_p7_the_golden_turn_tells_each_walk_once():
    """seed l.54 "移动阶段": bob's post of the golden first turn: one line for 高文's walk."""
    campaign = load_campaign()
    out = posts(campaign["states"][0], campaign["states"][1], campaign["logs"][0], "zh")["bob"]["md"]
    assert out.count("**\\*\\*高文\\*\\* &lt;i>**：") == 1
    assert "移动到" not in out


# fights ----------------------------------------------------------------------------------------
def test_p7_a_death_is_one_line():
    """seed l.169 "当有角色处于濒死状态时...防止该角色的死亡": without a rescue the character dies; the
    fall and the death are one line for who sees the fight."""
    r = fight(A("gawain", hp=1), B("mordred", "杀"))
    lines = told(r)
    assert sum("阵亡" in x for x in lines) == 1 and not any("倒下了" in x for x in lines)
    assert any(x == "**高文** 阵亡，手牌与装备离场。" for x in lines), lines


def test_p7_a_card_played_as_itself_is_not_played_as_itself():
    """seed l.165 "当受到【杀】的攻击时，可以使用一张【闪】来抵消": "打出【闪 ♦4】", not "… 作为【闪】"."""
    r = fight(A("gawain", "杀"), B("mordred", "闪 ♦4", sheet={"strike_order": ["none"]}))
    lines = told(r)
    assert "**莫德雷德** 打出【闪 ♦4】。" in lines, lines
    assert not any("作为" in x for x in lines)


def test_p7_a_curse_on_oneself_when_dying_names_no_target():
    """seed l.178 "2）当处于濒死状态时，对自己使用，立即回复一点体力" and l.182 "不能对他人使用咒"."""
    line = tell([{"type": "rescue", "character": "a", "by": "a", "card": {"name": "咒", "suit": "hearts", "rank": 9},
                  "hp": 1}])
    assert line == ["**甲** 对自己使用【咒 ♥9】，体力回复至 1。"]


@pytest.mark.parametrize("result,card,expected", [
    (True, {"name": "闪", "suit": "hearts", "rank": 2}, "**甲** 因【枯竭庭院】判定：【闪 ♥2】，非梅花，判定成立。"),
    (False, {"name": "闪", "suit": "clubs", "rank": 2}, "**甲** 因【枯竭庭院】判定：【闪 ♣2】，是梅花，判定不成立，没有效果。"),
    (False, None, "**甲** 因【枯竭庭院】判定，但牌堆已空，判定不成立，没有效果。"),
])
def test_p7_a_judgement_says_whether_it_worked(result, card, expected):
    """seed l.199 【枯竭庭院】 "对方进行一次判定，若不为梅花，跳过摸牌阶段": the post says which way it went."""
    assert tell([{"type": "judge", "character": "a", "reason": "枯竭庭院", "pattern": "!clubs", "card": card,
                  "result": result}]) == [expected]


def test_p7_a_failed_not_judgement_says_what_the_card_is_in_english_too():
    """issue 23: a 石化魔眼 judged on a heart fails because the card *is* a heart (l.198 "若不为红桃")."""
    line = tell([{"type": "judge", "character": "a", "reason": "石化魔眼", "pattern": "!hearts",
                  "card": {"name": "杀", "suit": "hearts", "rank": 5}, "result": False}], lang="en")
    assert line == ["**甲** judges for 【石化魔眼】: 【杀 ♥5】, hearts: it fails and has no effect."]


def test_p8_a_demand_the_list_does_not_answer_is_told_to_its_owner():
    """seed l.71-75 ("2.请排列顺序出杀顺序 --不出杀 --对技能出杀 ..."), issue 23: a skill's demand for a 杀
    that the 出杀 list has no line for is not answered, and the player is told why (event ``not_set``,
    private)."""
    r = fight(A("gawain", "杀", sheet={"strike_order": ["enemy"]}),
              B("iskandar", "宝石", skills=["kings_command"], sheet={"skill": {"discard": ["宝石"]}}))
    told_ = r.of("not_set", character="gawain")
    assert len(told_) == 1 and told_[0]["to"] == ["p_gawain"]
    line = tell([{"type": "not_set", "character": "a", "need": "杀", "against": "skill"}])
    assert line == ["**甲** 未设置应对技能的【杀】（出杀/出闪顺序里没有这一项），这次不打出。"]


def test_p7_a_skill_that_cannot_be_used_says_why_in_words():
    """seed l.237 角色技能: 湖之选定 needs two hand cards; the post says so, no raw code."""
    line = tell([{"type": "skill_skipped", "character": "a", "skill": "湖之选定", "reason": "no_cards"},
                 {"type": "skill_skipped", "character": "a", "skill": "破戒之符", "reason": "no_target"}])
    assert line == ["**甲** 的技能【湖之选定】未能发动（手牌不够支付代价）。",
                    "**甲** 的技能【破戒之符】未能发动（没有可选的目标）。"]


def test_p8_a_card_held_back_for_a_higher_line_is_told():
    """seed l.129-131 (the sheet's 出杀顺序, "2.1.对敌人出杀 ... 2.2 对技能出杀"): a card kept for a line the
    sheet ranks higher is told in one sentence (event ``held_back``, emitted by the combat engine)."""
    line = tell([{"type": "held_back", "character": "a", "cards": [{"name": "杀", "suit": "spades", "rank": 9}],
                  "against": "skill", "reserved_for": "enemy"}])
    assert line == ["**甲** 保留【杀 ♠9】以应对优先级更高的对敌人出杀，这次不打出。"]


def test_p7_a_destroyed_stronghold_is_a_sentence():
    """seed l.15 (BERSERKER "可以破坏据点"): no debug text such as 〔destroyed〕."""
    line = tell([{"type": "destroyed", "stronghold": 9, "name": "新都大桥", "cell": "J7", "character": "a",
                  "side": "red", "owner": "blue"}])
    assert line == ["**甲** 摧毁了据点 9「新都大桥」（J7）。"]


def test_p7_no_debug_text_in_any_golden_post():
    """Issue 15: no 〔type〕 generic lines, no raw reason codes, no tool to run in a player's post."""
    from tests.regen_golden import GOLDEN

    for path in sorted(GOLDEN.glob("turn-*/*.bbcode")):
        text = path.read_text("utf-8")
        assert "〔" not in text and "no_cards" not in text and "no_target" not in text, path
        assert "gm template" not in text, path


# what a private post holds -----------------------------------------------------------------------
def test_p9_private_post_names_skills_and_equipment_with_their_text():
    """seed l.237 "角色牌具有体力上限和角色技能等属性", l.205 【万华杖】: the player reads what their
    character can do."""
    s0 = state0(c0={"equipment": {"weapon": "万华杖"}})
    out = posts(s0, s0, [], "zh")["alice"]["md"]
    assert "技能【湖之选定】** 技能阶段，你可以弃两张手牌" in out
    assert "武器【万华杖】** 当你使用【杀】造成伤害时" in out
    en = posts(s0, s0, [], "en")["alice"]["md"]
    assert "Skill【湖之选定】** Skill phase: you may discard two hand cards" in en


def test_p9_private_post_ends_with_the_sheet_to_send():
    """seed l.120-154 (the sample sheet): the next sheet, pre-filled, in a code block; it validates."""
    s0 = state0()
    out = posts(s0, s0, [], "zh")["alice"]["bbcode"]
    sheet = out.split("[code]")[-1].split("[/code]")[0]
    assert sheet.startswith("# 阿尔托利亚（CASTER）第 1 回合指令表")
    import yaml

    RULESET.parse_orders(s0, yaml.safe_load(sheet), "alice.yaml", "zh")


@pytest.mark.parametrize("event", [
    {"type": "take_card_seen", "character": "artoria", "target": "mordred", "reason": "赤主槛发", "to": ["alice", "ivan"],
     "card": {"id": 900, "name": "宝石", "suit": "hearts", "rank": 6}},
    {"type": "retrieve", "character": "artoria", "item": "干将莫邪", "to": ["alice"],
     "cards": [{"id": 900, "name": "宝石", "suit": "hearts", "rank": 6}]},
    {"type": "gm_give_card_detail", "character": "artoria", "to": ["alice"],
     "card": {"id": 900, "name": "宝石", "suit": "hearts", "rank": 6}},
])
def test_p9_cards_received_include_taken_retrieved_and_given_cards(event):
    """seed l.55 "战斗结束后将获得下一轮的牌，下次回帖前将作为资讯之一告诉玩家", l.186 【赤主槛发】 "获得该角色
    的...一张牌": every card that joined the hand this turn is listed as received."""
    s0 = state0()
    out = posts(s0, s0, [{**event, "seq": 0}], "zh")["alice"]["md"]
    assert "**本回合获得的牌**: 【宝石 ♥6】" in out


def test_p9_template_in_zh_uses_the_seeds_values():
    """seed l.126-150 (the sample sheet is written in Chinese): keys and values."""
    text = template(state0(), "alice", "zh")
    assert "目标优先: 血多的优先" in text and "宝石: 自用" in text and "  - {对: 对敌人出杀}" in text
    assert "咒: 否" in text and "区域优先: [手牌, 武器, 防具]" in text
    assert "# 技能【湖之选定】：技能阶段" in text


def test_p9_tunnel_cells_are_offered_as_destinations():
    """seed l.12 "海底隧道为双通道，双口均为双向出入口", ruling M16: a move may end inside a tunnel."""
    from gm_tool import app as ops

    data, source = ops.load_scenario("fuyuki")
    state = RULESET.setup(data, source, "tunnel")
    mouth = state["map"]["tunnels"][0]["mouths"][0]
    for c in state["characters"]:
        if c["player"] == state["characters"][0]["player"]:
            c["pos"] = mouth
    text = template(state, state["characters"][0]["player"], "zh")
    reach = next(line for line in text.splitlines() if line.startswith("# 可到达的格子"))
    below = state["map"]["height"] + 1
    assert any(cell[1:] == str(below) for cell in reach.split("：")[1].split()), reach
    assert "海底隧道内" in text


# maps --------------------------------------------------------------------------------------------
def test_p9_closed_cells_show_on_every_later_map():
    """seed l.228 "流局...GM有权对地图和据点进行限制": a closed area is drawn while it is closed, in the
    text map, the posts and the pictures."""
    from tests.regen_golden import pixels

    s0 = state0()
    closed = copy.deepcopy(s0)
    closed["closed_cells"] = ["E2", "E3"]
    rows = draw_map(RULESET.view(closed, None), None).splitlines()
    assert rows[2][4 + 4] == "x" and rows[3][4 + 4] == "x"
    out, before = posts(closed, closed, [], "zh"), posts(s0, s0, [], "zh")
    assert "GM 关闭的区域（不得进入）**: E2 E3" in out["public"]["md"]
    assert "GM 关闭的区域" in out["alice"]["md"]
    assert pixels(out["files"]["map-public.png"]) != pixels(before["files"]["map-public.png"])


def test_p9_the_text_map_is_ascii_so_it_aligns_in_a_cjk_font():
    """Issue 15: a CJK font draws "·" full width; every map character is ASCII."""
    s0 = state0()
    for player in ("alice", None):
        assert text_map(s0, player).isascii()


# hidden information ------------------------------------------------------------------------------
def test_p9_private_post_and_sheet_do_not_change_with_hidden_things():
    """seed l.4 "每人将获得自己的视野（不同）": another player's hand and a character out of sight change
    nothing in alice's post (its new parts, skills and the sheet, included)."""
    s0 = state0()
    base = posts(s0, s0, [], "zh")["alice"]
    changed = copy.deepcopy(s0)
    medea = next(c for c in changed["characters"] if c["id"] == "medea")
    assert not any(c["id"] == "medea" for c in RULESET.view(s0, "alice")["characters"])
    medea["hand"] = medea["hand"][:1]
    medea["hp"] = 2
    medea["skills"] = []
    assert posts(changed, changed, [], "zh")["alice"] == base


def test_p1_the_public_post_groups_no_deaths_by_fight():
    """seed l.4 "每回合结束后每人将获得自己的视野（不同）想要增加视野就只能通过私下的情报交换了" (ruling P1, issue
    23): two fights, a death in each, and two deaths in a third. The public post tells the deaths
    in its list of the fallen only: no section per fight, so nobody reads who fought together."""
    events = []
    for cell, dead in (("B2", ["a"]), ("D4", ["b"]), ("F6", ["c", "d"])):
        events.append({"type": "fight", "cell": cell, "fighters": dead, "to": [], "actors": ["pa"]})
        for who in dead:
            events += [{"type": "killed", "character": who, "by": None, "cards": [], "gear": [], "to": ["pa"]},
                       {"type": "death", "character": who, "to": "all"}]
    for i, e in enumerate(events):
        e["seq"] = i
    teller = Teller(dict(NAMES, d="丁"), "zh", MARKUPS["md"])
    assert story(events, teller, None, public=True) == []
    assert [s["kind"] for s in story(events, teller, "pa")] == ["fight", "fight", "fight"]


def test_p2_a_dead_character_has_no_hand_limit():
    """seed l.263 "你的手牌上限等于你当前的体力值+2" is for the living (issue 23): the post of a player whose
    character died shows its empty hand without a limit (the golden campaign's 莫德雷德, killed on
    turn 1: ivan's post of turn 2); a living one shows it (阿尔托利亚, 体力 1 + 2 = 3)."""
    camp = load_campaign()
    assert [c["alive"] for c in camp["states"][2]["characters"] if c["id"] == "mordred"] == [False]
    out = posts(camp["states"][1], camp["states"][2], camp["logs"][1], "zh")
    dead = out["ivan"]["md"].split("### 本回合经过")[0]
    assert "- 状态: 阵亡" in dead and "- 手牌 (0): 无" in dead and "手牌上限" not in dead
    assert "- 手牌 (3 / 手牌上限 3)" in out["alice"]["md"].split("### 本回合经过")[0]
