"""The seed's 战术选项 SAMPLE (seed l.120-150), pasted verbatim as 阿尔托利亚's private message,
imported with `gm import`, submitted and resolved with the CLI: she fights, and each line of
the SAMPLE does in the fight what the seed says it does (issue 14 "Done when").

The fight (``FIGHT``, one cell B2 of a 3x3 plain): 阿尔托利亚 as the sample's l.121-124 (CASTER,
4 HP, 万华杖, 正式外典, hand 杀 闪 杀 万法破尽 王之财宝 宝石) with her ally 高文 (2 HP, no cards),
against 莫德雷德 (4 HP, a 杀 and a 宝石 in hand, 天之服 worn, uses his 杀 at enemies) and 美狄亚 (3
HP, a 王之财宝 and a 咒 in hand, plays her magic cards). Nobody but 阿尔托利亚 has a skill, so what
happens comes from the cards and the sheets. Variants change one thing (an enemy's cards, her
hand before the hand limit, one line of the message) to show the line that did nothing in the
main fight acting, or acting otherwise when written otherwise.

Line numbers are the seed file's (grep -n /work/shared/seeds/002_*.txt).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import Gm, write

SAMPLE = Path(__file__).parent / "messages" / "seed_sample.txt"
TEXT = SAMPLE.read_text("utf-8")
SEED = "sample-fight-0123456789abcdef"

ARTORIA = {"id": "artoria", "name": "阿尔托利亚", "class": "CASTER", "side": "red", "player": "alice", "pos": "F10",
           "hp": 4, "max_hp": 4, "hand": ["杀", "闪", "杀", "万法破尽", "王之财宝", "宝石"],
           "equipment": {"weapon": "万华杖", "armor": "正式外典"}}
GAWAIN = {"id": "gawain", "name": "高文", "class": "SABER", "side": "red", "player": "bob", "pos": "C11",
          "hp": 2, "max_hp": 4, "hand": [], "skills": []}
MORDRED = {"id": "mordred", "name": "莫德雷德", "class": "SABER", "side": "blue", "player": "ivan", "pos": "C11",
           "hp": 4, "max_hp": 4, "hand": ["杀", "宝石"], "equipment": {"armor": "天之服"}, "skills": []}
MEDEA = {"id": "medea", "name": "美狄亚", "class": "CASTER", "side": "blue", "player": "heidi", "pos": "C11",
         "hp": 3, "max_hp": 4, "hand": ["王之财宝", "咒"], "skills": []}
FIGHT = [ARTORIA, GAWAIN, MORDRED, MEDEA]

# the others' sheets: 莫德雷德 uses his 杀 at enemies and never answers with one; 美狄亚 plays her
# magic cards; neither eats a 宝石; 高文 keeps the defaults (he holds nothing)
SHEETS = {"ivan": "strike_order: [{against: enemy}]\ndodge_order: [none]\ngem: never\n",
          "heidi": "strike_order: [none]\ndodge_order: [none]\nmagic: {use: true}\ngem: never\n",
          "bob": ""}


@dataclass
class Played:
    sheet: dict[str, Any]          # what `gm import` made of the message
    state: dict[str, Any]          # the state after the turn
    events: list[dict[str, Any]]   # the turn's event log

    def char(self, cid: str) -> dict[str, Any]:
        return next(c for c in self.state["characters"] if c["id"] == cid)

    def hp(self, cid: str) -> int:
        return self.char(cid)["hp"]

    def of(self, kind: str, **match: Any) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind and all(e.get(k) == v for k, v in match.items())]

    def hand_before_draw(self, cid: str) -> list[str]:
        """Her hand as the fight left it, before the two cards drawn after it (l.58)."""
        hand = [c["name"] for c in self.char(cid)["hand"]]
        for e in self.of("draw", character=cid, reason="fight"):
            for card in e["cards"]:
                hand.remove(card["name"])
        return sorted(hand)

    def plays(self) -> list[tuple]:
        """The fight as (type, who, what) without chance draws: to compare two fights."""
        skip = {"chance", "draw"}
        return [tuple(sorted((k, json.dumps(v, ensure_ascii=False)) for k, v in e.items() if k != "seq"))
                for e in self.events if e["type"] not in skip]


def scenario(chars: list[dict[str, Any]]) -> dict[str, Any]:
    """A 6x11 plain holding the two strongholds of the SAMPLE's teleport (l.154 "从据点3到据点4，到达
    地图坐标（C,11）"), both red's: 3 at F10, where 阿尔托利亚 stands, and 4 at C11, where the others wait
    (the cells of the bundled map, ruling M9). Two copies of the deck (ruling C33): the sample's
    hand holds the one 王之财宝 of a copy."""
    rows = ["......"] * 11
    strongholds = [{"id": 3, "name": "商店街", "pos": "F10", "kind": "hand", "territory": ["F10"], "owner": "red"},
                   {"id": 4, "name": "深山町十字路口", "pos": "C11", "kind": "teleport", "territory": ["C11"],
                    "owner": "red"}]
    return {"ruleset": "grail_war", "name": "sample-fight", "sides": ["red", "blue"],
            "map": {"width": 6, "height": 11, "rows": rows, "strongholds": strongholds, "tunnels": []},
            "rules": {"decks": 2}, "characters": copy.deepcopy(chars)}


def play(tmp: Path, gm: Gm, chars: list[dict[str, Any]] = FIGHT, message: str = TEXT,
         sheets: dict[str, str] = SHEETS) -> Played:
    """New campaign, `gm import` of alice's message, `gm submit` of every sheet, `gm resolve`."""
    tmp.mkdir(parents=True, exist_ok=True)
    d = tmp / "c"
    gm("new", d, "--scenario", write(tmp / "s.yaml", yaml.safe_dump(scenario(chars), allow_unicode=True)),
       "--seed", SEED)
    msg = write(tmp / "alice.txt", message)
    out = tmp / "alice.yaml"
    gm("import", d, msg, "-o", out)
    gm("submit", d, out)
    players = {c["player"] for c in chars}
    for player, body in sheets.items():
        if player in players:
            gm("submit", d, write(tmp / f"{player}.yaml", f"turn: 1\nplayer: {player}\n{body}"))
    gm("resolve", d)
    state = json.loads((d / "state" / "turn-001.json").read_text("utf-8"))
    events = [json.loads(line) for line in (d / "log" / "turn-001.jsonl").read_text("utf-8").splitlines() if line]
    return Played(yaml.safe_load(out.read_text("utf-8")), state, events)


def names(cards: list[dict[str, Any]]) -> list[str]:
    return [c["name"] for c in cards]


@pytest.fixture(scope="module")
def fight(tmp_path_factory) -> Played:
    """The SAMPLE verbatim, in the main fight (played once for the tests that read it)."""
    return play(tmp_path_factory.mktemp("sample"), Gm())


def test_the_sample_verbatim_is_imported_whole_and_fights_in_c11(fight):
    """seed l.120-154, the SAMPLE as written through its last line (its 万法尽破 spelling included):
    every option line is placed, and the turn holds one fight of the four in C11, where she
    teleported (test_l151_*)."""
    assert fight.sheet["技能"] == {"使用": "是", "丢弃": ["万法破尽", "王之财宝"]}
    assert len(fight.of("fight")) == 1
    assert sorted(fight.of("fight", cell="C11")[0]["fighters"]) == ["artoria", "gawain", "medea", "mordred"]
    assert all(c["alive"] for c in fight.state["characters"])


def test_l151_she_teleports_from_stronghold_3_to_stronghold_4_as_the_sample_says(fight):
    """seed l.151-154 "8.本回合移动，是否发动介职特效 / 是 / 魔术师“CASTER”可进行瞬间转移，目的地只能是自己方的据点，
    距离最长为5格，中间有敌人也不会遭遇战斗。/ 从据点3到据点4，到达地图坐标（C,11）": 是 asks for the class
    movement, which for a CASTER going to an own stronghold within 5 is the teleport (rulings G7,
    M15); l.153 is the seed's explanation of it; she leaves stronghold 3 (F10) and arrives in C11
    in the move's first step, meeting the enemies there (R4)."""
    assert fight.sheet["移动"] == {"特殊": "是", "目的地": "C11"}
    tele = fight.of("teleport", character="artoria")
    assert len(tele) == 1 and (tele[0]["start"], tele[0]["end"]) == ("F10", "C11")
    assert fight.of("step", character="artoria") == []
    assert fight.char("artoria")["pos"] == "C11"
    assert min(e["seq"] for e in fight.of("fight")) > tele[0]["seq"]


def test_l125_the_keep_line_cuts_nothing_from_a_hand_at_its_limit(fight):
    """seed l.125 "0.上回合弃牌保留【闪】【万法尽破】【杀】【宝石】" with l.263 "你的手牌上限等于你当前的体力值+2":
    the keep line says which cards survive the hand limit at the start of the turn (ruling C23);
    six cards at 4 HP are at the limit, so nothing is discarded and the fight starts with all six."""
    assert fight.sheet["保留"] == ["闪", "万法破尽", "杀", "宝石"]
    assert fight.of("discard", character="artoria", reason="hand_limit") == []
    assert names(fight.of("pay", character="artoria")[0]["cards"]) == ["万法破尽", "王之财宝"]  # still held


def test_l125_the_keep_line_decides_what_stays_of_a_hand_over_its_limit(tmp_path, gm):
    """seed l.125 "0.上回合弃牌保留【闪】【万法尽破】【杀】【宝石】", l.58 "我们给所有参加战斗的玩家发2张新的手牌"
    and l.64 "玩家选择自己留下来的手牌": the same message when the last fight left her two more cards
    (咒, 扭曲螺旋: eight at 4 HP). The limit keeps 闪 万法破尽 杀 宝石 first, in the line's order,
    then the default order (闪 宝石 杀 咒, ruling C23): the second 杀 and the 咒; 王之财宝 and 扭曲螺旋
    go. Her skill named 王之财宝 as a discard, so it is skipped and she is told why (ruling C24)."""
    artoria = dict(ARTORIA, hand=ARTORIA["hand"] + ["咒", "扭曲螺旋"])
    r = play(tmp_path, gm, [artoria, dict(MORDRED, hand=[], equipment={})])
    cut = r.of("discard", character="artoria", reason="hand_limit")
    assert len(cut) == 1 and names(cut[0]["cards"]) == ["王之财宝", "扭曲螺旋"] and cut[0]["limit"] == 6
    assert cut[0]["to"] == ["alice"]
    assert r.of("skill_skipped", character="artoria", reason="card_gone", card="王之财宝")
    assert r.of("skill", character="artoria") == []


def test_l126_the_skill_is_used_paying_wanfa_and_the_kings_treasure(fight):
    """seed l.126-127 "1.1是否使用角色技能 / 是 丢弃 万法破尽 王之财宝": 湖之选定 (discard two hand cards:
    every enemy plays a 闪 or takes 1 damage, ruling C20) is used in the skill phase, before any
    card (l.67 "默认先进行技能的使用"), paid with exactly the two cards named; neither enemy has a
    闪, so each takes 1 damage from her."""
    skill = fight.of("skill", character="artoria")
    assert len(skill) == 1 and skill[0]["skill"] == "湖之选定"
    pay = fight.of("pay", character="artoria", reason="湖之选定")
    assert names(pay[0]["cards"]) == ["万法破尽", "王之财宝"]
    assert sorted((e["target"], e["hp"]) for e in fight.of("damage", cause="湖之选定")) == [("medea", 2), ("mordred", 3)]
    first_card = min(e["seq"] for e in fight.events if e["type"] in ("magic", "strike", "respond"))
    assert pay[0]["seq"] < first_card


def test_l128_more_hp_first_leaves_her_skill_on_every_enemy(tmp_path, fight, gm):
    """seed l.128 "1.2血多的优先" with l.87 "如果出现时某些技能先针对血多的角色还是牌多的角色": the choice picks
    the one enemy of a one-target skill (ruling C22). 湖之选定 aims at every enemy (ruling C20), so
    莫德雷德 (4 HP) and 美狄亚 (3 HP) are both asked, and the same message with 牌多的优先 plays the
    very same fight (ruling C34)."""
    assert fight.sheet["目标优先"] == "血多的优先"
    assert sorted(fight.of("skill", character="artoria")[0]["targets"]) == ["medea", "mordred"]
    other = play(tmp_path, gm, message=TEXT.replace("1.2血多的优先", "1.2牌多的优先"))
    assert other.sheet["目标优先"] == "牌多的优先"
    assert other.plays() == fight.plays()


def test_l129_her_strike_goes_at_the_enemies_and_the_flower_staff_takes_instead_of_hurting(fight):
    """seed l.129 "2.1.对敌人出杀 发动万华杖", l.147-149 "是 / 弃掉该角色牌的种类和优先度排序 / 装备区，手牌"
    and l.205 "【万华杖】…你可以防止此伤害，改为你选择并获得该角色的一张牌": her 杀 is used in the basic phase
    at both enemies (l.165 "一张杀是默认针对2个目标的"); neither dodges, and 万华杖 prevents each
    damage and takes a card instead: 莫德雷德's 天之服 (the equipment zone first, though he holds a
    宝石), 美狄亚's one hand card, the 咒. A taken equipment card is worn at once and replaces hers
    (ruling C3): 天之服 is her armour, 正式外典 under the equipment pile. The card is gained, not
    discarded: l.205 rules over the sample's paraphrase l.144 "弃掉…两张牌" (ruling C34)."""
    strike = fight.of("strike", character="artoria")
    assert len(strike) == 1 and sorted(strike[0]["targets"]) == ["medea", "mordred"] and not strike[0]["via"]
    assert sorted(e["target"] for e in fight.of("prevent", character="artoria", item="万华杖")) == ["medea", "mordred"]
    assert fight.of("damage", source="artoria", cause="杀") == []
    taken = fight.of("take_card", character="artoria", target="mordred", reason="万华杖")
    assert taken[0]["zone"] == "armor" and taken[0]["card"]["name"] == "天之服"
    seen = fight.of("take_card_seen", character="artoria", target="medea", reason="万华杖")
    assert seen[0]["card"]["name"] == "咒" and seen[0]["to"] == ["alice", "heidi"]
    assert fight.char("artoria")["equipment"] == {"weapon": "万华杖", "armor": "天之服"}
    assert fight.state["equipment_pile"][0]["name"] == "正式外典"
    assert (fight.hp("mordred"), fight.hp("medea")) == (2, 2)  # 湖之选定 and 王之财宝 only, no 杀
    assert [c["name"] for c in fight.char("mordred")["hand"]][:1] == ["宝石"]
    assert fight.hand_before_draw("artoria") == ["咒"]


def test_l130_a_strike_for_a_magic_card_only_when_one_stays_for_the_enemy(tmp_path, gm):
    """seed l.129-131 "2.1.对敌人出杀 / 2.对魔术牌出杀 / 3.不出杀" with l.77 "GM自动根据这回合遭遇的出杀事件优先度出
    定量的杀": 美狄亚 holds two 王之军势 (l.194 "目标角色打出一张【杀】，否则受到…1点伤害"). The first is
    answered with one of her two 杀, the other one staying for the enemy line ranked above; the
    second is not answered (held back for that line, ruling C6) and costs her 1 HP; the last 杀
    then goes at the enemies. 莫德雷德, whose list has no magic line, takes both."""
    medea = dict(MEDEA, hand=["王之军势", "王之军势"])
    r = play(tmp_path, gm, [ARTORIA, MORDRED, medea])
    answers = r.of("respond", character="artoria", need="杀", against="magic")
    assert len(answers) == 1 and names(answers[0]["cards"]) == ["杀"] and not answers[0]["via"]
    held = r.of("held_back", character="artoria", need="杀", against="magic")
    assert held and held[0]["reserved_for"] == "enemy" and held[0]["to"] == ["alice"]
    assert sorted(e["target"] for e in r.of("damage", cause="王之军势")) == ["artoria", "mordred", "mordred"]
    strike = r.of("strike", character="artoria")
    assert len(strike) == 1 and names(strike[0]["cards"]) == ["杀"]
    assert r.of("curse", character="artoria") == []


def test_l131_no_strike_for_a_skill(tmp_path, gm):
    """seed l.129-131 "2.1.对敌人出杀 / 2.对魔术牌出杀 / 3.不出杀": her 出杀 list has no 对技能出杀 line before
    "3.不出杀", so a skill's demand for a 杀 (l.74 "对技能出杀") is not answered though she holds two
    (ruling C6): 莫德雷德 with 王之号令 (given him here: an enemy plays a 杀 or takes 1 damage) costs
    her 1 HP, and her 杀 still goes at him in the basic phase."""
    mordred = dict(MORDRED, skills=["kings_command"])
    sheets = dict(SHEETS, ivan=SHEETS["ivan"] + "skill: {use: true, discard: [宝石]}\n")
    r = play(tmp_path, gm, [ARTORIA, mordred], sheets=sheets)
    assert r.of("skill", character="mordred", skill="王之号令")
    assert [e["cause"] for e in r.of("damage", target="artoria")] == ["王之号令"]
    assert r.of("respond", character="artoria", against="skill") == []
    assert len(r.of("strike", character="artoria")) == 1
    told, = r.of("not_set", character="artoria", need="杀", against="skill")  # issue 23: said to her player only
    assert told["to"] == ["alice"]


def test_l132_dodges_the_strike_with_her_real_dodge_and_the_magic_card_with_a_converted_strike(fight):
    """seed l.132-134 "3.1.对杀出闪 / 2.发动外典 将杀转换成闪 对魔术牌出闪 / 3.不出闪" and l.222 "【正式外典】
    …将你手牌的【杀】当【闪】…使用（或打出）": 美狄亚's 王之财宝 (l.196 "目标角色打出一张【闪】，否则受到…1点伤害")
    comes in the magic phase, before 莫德雷德's 杀. Her 万法破尽 went to her skill, so nothing cancels
    it. She answers it with a 杀 turned into a 闪 by 正式外典, keeping her real 闪 for the 杀 the
    line above answers (ruling C28), and dodges 莫德雷德's 杀 with that 闪. She loses no HP."""
    assert fight.of("nullify") == []
    dodges = [(e["against"], names(e["cards"]), e["via"]) for e in fight.of("respond", character="artoria",
                                                                          need="闪")]
    assert dodges == [("magic", ["杀"], "正式外典"), ("strike", ["闪"], None)]
    assert fight.of("damage", target="artoria") == [] and fight.hp("artoria") == 4


def test_l134_no_dodge_for_a_skill(tmp_path, gm):
    """seed l.132-134: her 出闪 list has no 对技能出闪 line before "3.不出闪", so a skill's demand for a
    闪 (l.84 "对技能出闪") is not answered though she holds one (ruling C6): 莫德雷德 with 湖之选定
    (given him here) costs her 1 HP, and her 闪 is still there for his 杀."""
    mordred = dict(MORDRED, skills=["lake_selection"], hand=["杀", "宝石", "闪", "闪"])
    sheets = dict(SHEETS, ivan=SHEETS["ivan"] + "skill: {use: true, discard: [宝石, 闪]}\n")
    r = play(tmp_path, gm, [ARTORIA, mordred], sheets=sheets)
    assert r.of("skill", character="mordred")
    assert [e["cause"] for e in r.of("damage", target="artoria")] == ["湖之选定"]
    assert r.of("respond", character="artoria", against="skill") == []
    assert [names(e["cards"]) for e in r.of("respond", character="artoria", against="strike")] == [["闪"]]


def test_l135_no_curse_on_her_strike(tmp_path, gm):
    """seed l.135-136 "4.是否使用咒 / 不使用咒" with l.178 "令下一张【杀】所造成的伤害+1": with a 咒 in hand
    (the hand of the keep-line case: the sample's six and a 咒 drawn) her 杀 at 莫德雷德, who has no
    card for 万华杖 to take (so it deals damage, ruling C14), deals 1 and the 咒 stays; the same
    message saying 使用咒 uses it on that 杀 (ruling C10) and deals 2."""
    artoria = dict(ARTORIA, hand=ARTORIA["hand"] + ["咒", "扭曲螺旋"])
    bare = dict(MORDRED, hand=[], equipment={})
    r = play(tmp_path / "no", gm, [artoria, bare])
    assert r.sheet["咒"] == "不使用"
    assert r.of("curse") == [] and [(e["amount"], e["cause"]) for e in r.of("damage", target="mordred")] == [(1, "杀")]
    assert "咒" in r.hand_before_draw("artoria")
    used = play(tmp_path / "yes", gm, [artoria, bare], message=TEXT.replace("不使用咒", "使用咒"))
    assert used.sheet["咒"] == "使用"
    assert used.of("curse", character="artoria")
    assert [e["amount"] for e in used.of("damage", target="mordred")] == [2]


def test_l137_her_gem_saves_her_ally(fight):
    """seed l.137-138 "5.是否用宝石?对谁? / 用 对队友优先" with l.172 "当有角色处于濒死状态时，可以对该角色使用【宝石】":
    高文 (2 HP) takes 王之财宝 and 莫德雷德's 杀 and is dying; her 宝石 brings him back (ruling C11)."""
    assert fight.sheet["宝石"] == "对队友优先"
    assert [e["hp"] for e in fight.of("damage", target="gawain")] == [1, 0]
    rescue = fight.of("rescue", character="gawain")
    assert len(rescue) == 1 and rescue[0]["by"] == "artoria" and rescue[0]["card"]["name"] == "宝石"
    assert fight.char("gawain")["alive"] and fight.hp("gawain") == 1


def test_l138_written_for_herself_the_gem_stays_while_an_enemy_stands(tmp_path, fight, gm):
    """seed l.138 with l.86 "5.是否将宝石自用，亦或是救队友优先": the same fight with 用 自用 keeps her one 宝石
    for herself while enemies stand (ruling C31), and 高文 dies."""
    r = play(tmp_path, gm, message=TEXT.replace("用 对队友优先", "用 自用"))
    assert r.sheet["宝石"] == "自用"
    assert r.of("rescue") == [] and not r.char("gawain")["alive"]
    assert "宝石" in r.hand_before_draw("artoria")


def test_l139_her_magic_cards_stay_in_hand(tmp_path, gm):
    """seed l.139-140 "6.是否使用魔术牌 / 不使用魔术牌。" with l.107 "选项选择后一旦抽到魔术牌后将会根据选项使用": in
    the main fight her only magic cards went to her skill; with the skill line answered 否 she
    keeps 王之财宝 through the magic phase and does not play it, while her 万法破尽 (never played,
    ruling C16) cancels 美狄亚's 王之财宝 for her. The same message saying 使用魔术牌 plays it."""
    no_skill = TEXT.replace("是 丢弃 万法破尽 王之财宝", "否")
    r = play(tmp_path / "off", gm, message=no_skill)
    assert r.sheet["技能"] == {"使用": "否"} and r.sheet["魔术牌"] == {"使用": "不使用"}
    assert r.of("magic", character="artoria") == []
    assert r.of("nullify", character="artoria", against="王之财宝")
    assert "王之财宝" in r.hand_before_draw("artoria")
    on = play(tmp_path / "on", gm, message=no_skill.replace("不使用魔术牌。", "使用魔术牌。"))
    assert on.sheet["魔术牌"] == {"使用": "使用"}
    assert [e["name"] for e in on.of("magic", character="artoria")] == ["王之财宝"]


def test_the_fight_ends_as_the_seed_says(fight):
    """The whole SAMPLE fight, state after the turn: she is untouched (l.132-134), 高文 saved
    (l.138), each enemy down 2 (湖之选定 l.127 and 王之财宝) and stripped by 万华杖 (l.147-149); everyone
    alive draws two (l.58 "我们给所有参加战斗的玩家发2张新的手牌")."""
    assert {c["id"]: c["hp"] for c in fight.state["characters"]} == {"artoria": 4, "gawain": 1, "mordred": 2,
                                                                      "medea": 2}
    assert fight.char("mordred")["equipment"] == {"weapon": None, "armor": None}
    assert fight.hand_before_draw("medea") == []
    assert sorted(e["character"] for e in fight.of("draw", reason="fight")) == ["artoria", "gawain", "medea",
                                                                                 "mordred"]
    assert all(len(e["cards"]) == 2 for e in fight.of("draw", reason="fight"))
