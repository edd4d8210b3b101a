"""Sheets in the seed's own words (issue 14): the Chinese errors list the seed's Chinese words,
keys may carry the seed's numbering, a card's suit names that very card, and a dead character
takes no orders. Each case quotes the seed line it reads (seed 002)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gm_tool import app as ops
from gm_tool.core.events import EventLog
from gm_tool.errors import GmError
from gm_tool.rulesets.grail_war import hands, orders
from tests.conftest import write

from .combat_kit import A, B, build, fight


def parse(hand, sheet, cid="artoria", lang="zh", **kw):
    game, _ = build(A(cid, *hand, **kw), B("mordred"))
    c = game.character(cid)
    return orders.parse(game, {"turn": 1, "player": c.player, **sheet}, "s.yaml", lang)


def problems(hand, sheet, **kw) -> GmError:
    with pytest.raises(GmError) as e:
        parse(hand, sheet, **kw)
    return e.value


# 1. the Chinese errors list the seed's Chinese words ------------------------------------------
@pytest.mark.parametrize("sheet, field, words", [
    ({"宝石": "有时"}, "宝石", ["自用", "救队友优先", "不用"]),
    ({"咒": "也许"}, "咒", ["是", "否", "不使用咒"]),
    ({"目标优先": "都行"}, "目标优先", ["血多的优先", "牌多的优先"]),
    ({"出杀顺序": ["乱出"]}, "出杀顺序[0]", ["对敌人出杀", "对技能出杀", "对魔术牌出杀", "不出杀"]),
    ({"出闪顺序": [{"对": "乱闪"}]}, "出闪顺序[0].对", ["对杀出闪", "对技能出闪", "对魔术牌出闪", "不出闪"]),
    ({"魔术牌": {"区域优先": ["口袋"]}}, "魔术牌.区域优先[0]", ["武器", "防具", "手牌"]),
    ({"魔术牌": {"手牌数": "中等"}}, "魔术牌.手牌数", ["手牌多", "手牌少"]),
    ({"魔术牌": "也许"}, "魔术牌.use", ["使用魔术牌", "不使用魔术牌"]),
    ({"技能": {"使用": "也许"}}, "技能.使用", ["是", "否"]),
    ({"移动": {"目的地": "A3", "特殊": "飞行"}}, "移动.特殊", ["瞬移", "攀登", "跳跃", "渡河", "破坏"]),
])
def test_a_bad_value_lists_the_seeds_words_in_chinese_and_the_codes_in_english(sheet, field, words):
    """seed l.69-87 (战术选项 1.1-6, the options in the seed's words: "--对敌人出杀", "是否将宝石自用，亦或是
    救队友优先", "先针对武器，防具，还是手牌"): an option outside them is refused naming the field, and
    the Chinese message lists the Chinese words accepted; the English one the English codes."""
    err = problems(["杀"], sheet)
    p = next(p for p in err.problems if p.field == field)
    assert p.code == "grail_war.sheet.choice"
    zh, en = p.render("zh"), p.render("en")
    assert all(w in zh for w in words), zh
    assert "可写" in zh and "allowed:" in en and not any(w in en.split("allowed:")[1] for w in words if len(w) > 1)


def test_an_unknown_key_lists_the_seeds_keys_in_chinese():
    """seed l.69 "1.1本回合是否使用角色技能" ... l.87 "6.魔术牌大类选择": a key none of them names is
    refused, and the Chinese message lists the keys in the seed's words (是否使用角色技能, 出杀顺序...)."""
    err = problems(["杀"], {"出牌顺序": ["对敌人出杀"]})
    p = err.problems[0]
    assert (p.code, p.field) == ("grail_war.sheet.unknown_key", "出牌顺序")
    zh = p.render("zh")
    for word in ("保留", "是否使用角色技能", "目标优先", "出杀顺序", "出闪顺序", "是否使用咒", "宝石", "魔术牌", "装备", "移动"):
        assert word in zh, word
    assert "strike_order" in p.render("en") and "出杀顺序" not in p.render("en")


def test_a_line_carrying_an_equipment_effect_says_where_that_goes():
    """seed l.130 "2.1.对敌人出杀 发动万华杖 (手牌 装备 武器)": written as one line of the YAML list, the
    万华杖 part cannot be placed; the message says a line is one of the seed's options and that an
    equipment's effect goes under 装备."""
    err = problems(["杀"], {"出杀顺序": ["对敌人出杀 发动万华杖 (手牌 装备 武器)"]}, weapon="万华杖")
    p = err.problems[0]
    assert (p.code, p.field) == ("grail_war.sheet.entry_text", "出杀顺序[0]")
    assert "对敌人出杀" in p.render("zh") and "装备" in p.render("zh")


@pytest.mark.parametrize("sheet, attr, value", [
    ({"本回合是否使用角色技能": "否"}, "skill_use", False),                                 # l.69
    ({"技能": "是 丢弃 杀 闪"}, "skill_discard", ["杀", "闪"]),                               # l.129
    ({"目标优先": "血多的角色"}, "target_priority", "more_hp"),                               # l.70
    ({"目标优先": "牌多的角色"}, "target_priority", "more_cards"),                            # l.70
    ({"请排列顺序出杀顺序": ["对技能出杀", "不出杀"]}, "strike_order", ["skill"]),              # l.71-76
    ({"请排列顺序出闪顺序": ["对魔术牌出闪", "不出闪"]}, "dodge_order", ["magic"]),            # l.78-83
    ({"出杀顺序": [{"对": "对敌人出杀", "出杀的张数": 2}]}, "strike_order", ["enemy"]),        # l.77
    ({"本回合是否用咒": "是"}, "use_curse", True),                                           # l.85
    ({"是否使用咒": "不使用咒"}, "use_curse", False),                                        # l.138-139
    ({"是否将宝石自用，亦或是救队友优先": "救队友优先"}, "gem", "ally_first"),                  # l.86
    ({"是否用宝石?对谁?": "用 对队友优先"}, "gem", "ally_first"),                              # l.140-141
    ({"宝石": "宝石自用"}, "gem", "self_first"),                                            # l.86
    ({"是否使用魔术牌": "不使用魔术牌。"}, "magic_use", False),                                 # l.142-143
    ({"魔术牌大类选择": {"区域优先": "武器，防具，手牌"}}, "zone_priority", ["weapon", "armor", "hand"]),  # l.87
    ({"魔术牌": {"手牌数": "手牌少的"}}, "hand_size", "fewer"),                                # l.87
    ({"本回合移动": "A1"}, "move_to", (0, 0)),                                              # l.147
])
def test_every_wording_of_the_seeds_options_is_accepted(sheet, attr, value):
    """seed l.69-87 and the SAMPLE l.127-154: the headings and answers as the seed writes them
    ("1.1本回合是否使用角色技能", "是 丢弃 万法破尽 王之财宝", "先针对血多的角色还是牌多的角色", "不使用咒",
    "是否将宝石自用，亦或是救队友优先", "用 对队友优先", "不使用魔术牌。", "武器，防具，还是手牌", "手牌多的还是
    手牌少的", "本回合移动") read as the option they name."""
    o = parse(["杀", "闪"], sheet, skills=None)
    got = getattr(o, attr)
    if attr in ("strike_order", "dodge_order"):
        got = [e.against for e in got]
    assert got == value


def test_the_equipment_choice_in_the_seeds_words():
    """seed l.144-146 "是否发动【万华杖】的效果 ... 是 / 弃掉该角色牌的种类和优先度排序 / 装备区，手牌": the card
    in 【】, 是否发动, and the zones as one text."""
    o = parse(["杀"], {"装备牌选择": {"【万华杖】": {"是否发动": "是", "弃掉该角色牌的种类和优先度排序": "装备区，手牌"}}},
              weapon="万华杖")
    assert o.equipment["万华杖"].use and o.equipment["万华杖"].zones == ["equipment", "hand"]


def test_the_converting_equipment_by_the_seeds_short_name():
    """seed l.133 "2.发动外典 将杀转换成闪 对魔术牌出闪": a list line naming 外典 converts through 正式外典."""
    o = parse(["杀"], {"出闪顺序": ["3.1.对杀出闪", "2.发动外典 将杀转换成闪 对魔术牌出闪", "3.不出闪"]}, armor="正式外典")
    assert [(e.against, e.via) for e in o.dodge_order] == [("strike", None), ("magic", "正式外典")]


# 2. keys carrying the seed's numbering --------------------------------------------------------
SAMPLE_AS_KEYS = """回合: 1
玩家: alice
0.上回合弃牌保留: 【杀】【闪】
1.1是否使用角色技能: 否
1.2血多的优先:
2.1.对敌人出杀:
2.对魔术牌出杀: 2
3.不出杀:
3.1.对杀出闪:
2.对魔术牌出闪:
3.不出闪:
4.是否使用咒: 不使用咒
5.是否用宝石?对谁?: 用 对队友优先
6.是否使用魔术牌: 不使用魔术牌。
8.本回合移动: A2
"""


def test_the_seeds_numbered_lines_as_yaml_keys_are_read_as_the_options_they_name(skirmish):
    """seed l.127-147 (the SAMPLE: "1.1是否使用角色技能", "1.2血多的优先", "2.1.对敌人出杀 / 2.对魔术牌出杀 /
    3.不出杀", "3.1.对杀出闪", "4.是否使用咒 / 不使用咒", "5.是否用宝石?对谁? / 用 对队友优先"): each line
    written as a YAML key is read as what it says, the lists in the order written (ruling G8)."""
    sheet = write(skirmish.parent / "a.yaml", SAMPLE_AS_KEYS)
    (_, o), = ops.check_files(ops.open_campaign(skirmish), [sheet], "zh").values()
    assert (o.keep, o.skill_use, o.target_priority) == (["杀", "闪"], False, "more_hp")
    assert [(e.against, e.count) for e in o.strike_order] == [("enemy", None), ("magic", 2)]
    assert [e.against for e in o.dodge_order] == ["strike", "magic"]
    assert (o.use_curse, o.gem, o.magic_use, o.move_to) == (False, "ally_first", False, (0, 1))


def test_a_numbered_key_that_names_nothing_is_told_at_its_own_line(skirmish, gm):
    """seed l.69 numbers its options ("1.1", "2.", "8."): a numbered key that is no option is refused
    at its own line, not line 1 (ruling G8)."""
    sheet = write(skirmish.parent / "a.yaml", "回合: 1\n玩家: alice\n2.1.对敌人出杀:\n9.我想去柳洞寺: 是\n")
    with pytest.raises(GmError) as e:
        ops.check_files(ops.open_campaign(skirmish), [sheet], "zh")
    p, = e.value.problems
    assert (p.code, p.field, p.line) == ("grail_war.sheet.unknown_key", "9.我想去柳洞寺", 4)
    out = gm("check", skirmish, sheet, code=1).output
    assert f"{sheet}:4: 9.我想去柳洞寺: 未知的键" in out and "是否使用角色技能" in out


def test_a_bad_answer_under_a_numbered_key_is_told_at_that_key(skirmish):
    """seed l.128 "1.1是否使用角色技能" answered with something else than 是/否: the error names the
    key as written and its line; the same for a list line written as a key (l.130 "2.1.对敌人出杀")
    given with the list as well."""
    text = "回合: 1\n玩家: alice\n出杀顺序: [对魔术牌出杀]\n1.1是否使用角色技能: 也许\n2.1.对敌人出杀:\n"
    sheet = write(skirmish.parent / "a.yaml", text)
    with pytest.raises(GmError) as e:
        ops.check_files(ops.open_campaign(skirmish), [sheet], "zh")
    got = {p.field: (p.code, p.line) for p in e.value.problems}
    assert got == {"1.1是否使用角色技能.use": ("grail_war.sheet.choice", 4),
                   "2.1.对敌人出杀": ("grail_war.sheet.value_key", 5)}


def test_a_bad_list_line_written_as_a_key_is_told_at_that_key(skirmish):
    """seed l.130 "2.1.对敌人出杀 发动万华杖 (手牌 装备 武器)" copied as a key with its rest as the value:
    what cannot be placed is told at that key's line."""
    text = "回合: 1\n玩家: alice\n技能: 否\n2.1.对敌人出杀: 发动万华杖 (手牌 装备 武器)\n"
    sheet = write(skirmish.parent / "a.yaml", text)
    with pytest.raises(GmError) as e:
        ops.check_files(ops.open_campaign(skirmish), [sheet], "zh")
    p, = e.value.problems
    assert (p.code, p.field, p.line) == ("grail_war.sheet.entry_text", "2.1.对敌人出杀", 4)


# 3. a card's suit names that card -------------------------------------------------------------
@pytest.mark.parametrize("written", ["闪 ♦4", "闪♦4", "【闪】♦4", "【闪 ♦4】", "闪 方片4", "闪（♦4）", "【闪】方块4"])
def test_a_card_is_named_with_its_suit_as_the_posts_print_it(written):
    """seed l.124 "手牌:【杀】 【闪】 ..." (cards in 【】) and the posts' 【闪 ♦4】: each way of writing
    the suit and rank names that card (ruling G10)."""
    o = parse(["闪 ♥2", "闪 ♦4"], {"保留": [written]})
    assert o.keep == ["闪"] and o.keep_refs == [("闪", "diamonds", 4)]


def test_a_skill_discard_with_a_suit_spends_that_very_card():
    """seed l.129 "是 丢弃 万法破尽 王之财宝" (the skill's discards named): with two 闪 in hand, 丢弃 [闪 ♦4, 杀]
    spends 闪 ♦4 and keeps 闪 ♥2 (湖之选定 discards 2; ruling G10)."""
    r = fight(A("artoria", "闪 ♥2", "杀 ♠5", "闪 ♦4", skills=None, sheet={"技能": {"使用": "是", "丢弃": ["闪 ♦4", "杀"]}}),
              B("mordred"))
    assert [c.label for c in r["artoria"].hand] == ["闪 ♥2"]
    assert {c.label for c in r.game.deck.discard_pile} >= {"闪 ♦4", "杀 ♠5"}


def test_a_bare_name_leaves_the_suited_card_to_the_line_that_names_it():
    """ruling G10: 丢弃 [闪, 闪 ♥2] with 闪 ♥2 and 闪 ♦4 in hand spends both, the bare 闪 taking ♦4."""
    r = fight(A("artoria", "闪 ♥2", "闪 ♦4", "杀 ♠5", skills=None, sheet={"技能": {"丢弃": ["闪", "闪 ♥2"]}, "出杀顺序": ["不出杀"]}), B("mordred"))
    assert [c.label for c in r["artoria"].hand] == ["杀 ♠5"]


def test_a_keep_list_with_suits_keeps_those_cards_at_the_hand_limit():
    """seed l.61 "玩家选择自己留下来的手牌" and l.127 "0.上回合弃牌保留【闪】【万法尽破】...": at HP 1 (limit 3)
    保留 "【闪】♦4【杀】【杀】" keeps 闪 ♦4, not the first 闪 received."""
    game, _ = build(A("gawain", "闪 ♥2", "闪 ♠5", "闪 ♦4", "杀 ♣7", "杀 ♣9", hp=1), B("mordred"))
    c = game.character("gawain")
    o = orders.parse(game, {"turn": 1, "player": c.player, "保留": "【闪】♦4【杀】【杀】"}, "s.yaml", "zh")
    hands.apply_limit(game, {c.player: o}, EventLog())
    assert [x.label for x in c.hand] == ["闪 ♦4", "杀 ♣7", "杀 ♣9"]


def test_a_suited_card_not_in_hand_is_refused_listing_the_hand():
    """ruling G10: 丢弃 [闪 ♦9] when no 闪 ♦9 is held is an error naming the field and what the hand holds."""
    err = problems(["闪 ♥2", "杀 ♠5"], {"技能": {"丢弃": ["闪 ♦9", "杀"]}}, skills=None)
    p, = err.problems
    assert (p.code, p.field) == ("grail_war.card_not_in_hand", "技能.丢弃[0]")
    assert p.render("zh").endswith("手牌中没有 闪 ♦9；手牌：闪 ♥2、杀 ♠5")
    assert "the hand holds: 闪 ♥2、杀 ♠5" in p.render("en")


def test_an_imported_keep_line_keeps_the_suit():
    """seed l.127 "0.上回合弃牌保留【闪】【万法尽破】【杀】【宝石】" with the suits the posts print after each card."""
    from gm_tool.rulesets.grail_war.importer import read_message

    state = {"turn": 0, "characters": [{"id": "artoria", "name": "阿尔托利亚", "player": "alice"}]}
    got = read_message(state, "角色:阿尔托利亚\n0.保留【闪】♦4【杀 ♠5】 宝石 红桃Q\n", "m.txt", "zh", None)
    assert got.sheet["保留"] == ["闪 ♦4", "杀 ♠5", "宝石 ♥Q"]


# 4. a dead character takes no orders ----------------------------------------------------------
def _kill(campaign: Path, cid: str) -> None:
    path = campaign / "state" / "turn-000.json"
    state = json.loads(path.read_text("utf-8"))
    for c in state["characters"]:
        if c["id"] == cid:
            c.update(alive=False, hp=0, hand=[])
    path.write_text(json.dumps(state, ensure_ascii=False, indent=1), "utf-8")


def test_a_sheet_for_a_dead_character_is_refused_naming_it(skirmish, gm):
    """seed l.51 "生命值归零且无法救活的一方就算阵亡": alice's 阿尔托利亚 is dead: her sheet is refused by
    `gm check` and `gm submit` (nothing stored), naming the character; `gm status` does not count
    her as due (ruling G9)."""
    _kill(skirmish, "artoria")
    sheet = write(skirmish.parent / "a.yaml", "回合: 1\n玩家: alice\n")
    with pytest.raises(GmError) as e:
        ops.check_files(ops.open_campaign(skirmish), [sheet], "zh")
    p, = e.value.problems
    assert (p.code, p.field, p.line) == ("grail_war.orders.all_dead", "玩家", 2)  # the sheet's own word
    assert "阿尔托利亚" in p.render("zh") and "dead" in p.render("en")
    assert "阿尔托利亚" in gm("submit", skirmish, sheet, code=1).output
    assert not (skirmish / "orders" / "turn-001" / "alice.yaml").exists()
    status = ops.status(skirmish)
    assert "alice" not in status["due"] and "alice" not in status["missing"]


def test_the_template_of_a_dead_player_offers_no_moves(skirmish, gm):
    """seed l.51: a dead player's `gm template` says the character is dead and that no sheet is due
    (a commented YAML: nothing to fill in), in Chinese and in English (ruling G9)."""
    _kill(skirmish, "artoria")
    zh = gm("template", skirmish, "alice").output
    en = gm("template", skirmish, "alice", "--lang", "en").output
    assert all(line.startswith("#") for line in zh.strip().splitlines())
    assert "阿尔托利亚" in zh and "已阵亡" in zh and "移动" not in zh
    assert "dead" in en and "no sheet is due" in en


def test_a_player_with_a_living_character_left_directs_only_that_one():
    """seed l.51 with several characters for one player (ruling G6): naming the dead one is refused,
    listing the living; the template notes who is dead and fills in the living one."""
    from gm_tool.rulesets.grail_war.sheet import template

    game, _ = build(A("artoria", "杀"), A("gawain", "闪"), B("mordred"))
    dead, living = game.character("artoria"), game.character("gawain")
    living.player = dead.player
    dead.alive, dead.hp = False, 0
    game.characters = list(game.characters)  # the player index is rebuilt
    with pytest.raises(GmError) as e:
        orders.parse(game, {"turn": 1, "player": dead.player, "角色": "artoria"}, "s.yaml", "zh")
    p, = e.value.problems
    assert (p.code, p.field) == ("grail_war.orders.dead", "character") and "gawain" in p.render("zh")
    assert orders.parse(game, {"turn": 1, "player": dead.player}, "s.yaml", "zh").character == "gawain"
    text = template(game.to_state(), dead.player, "zh")
    assert "# 已阵亡（不再听指令）：阿尔托利亚（artoria）" in text and "角色: gawain" in text


def test_a_list_written_as_one_line_of_text():
    """seed l.130-132 ("2.1.对敌人出杀 / 2.对魔术牌出杀 / 3.不出杀") written on one line: the lines in order."""
    o = parse(["杀"], {"出杀顺序": "对魔术牌出杀，对敌人出杀，不出杀", "出闪顺序": "对杀出闪、不出闪"})
    assert [e.against for e in o.strike_order] == ["magic", "enemy"] and [e.against for e in o.dodge_order] == ["strike"]


# the SAMPLE's other lines --------------------------------------------------------------------
def test_the_samples_character_lines_are_told_as_information_not_orders(skirmish):
    """seed l.121-124 "角色:阿尔托利亚 CASTER 当前4血 / 武器:【万华杖】 / 装备:【正式外典】 / 手牌:【杀】 ...": the
    character line names the character; the others are information, refused one by one at their line
    with what to do, never taken for an order (装备:【正式外典】 is no choice to use 正式外典)."""
    text = "回合: 1\n玩家: alice\n角色: 阿尔托利亚 CASTER 当前4血\n武器: 【万华杖】\n装备: 【正式外典】\n手牌: 【杀】 【闪】\n"
    sheet = write(skirmish.parent / "a.yaml", text)
    with pytest.raises(GmError) as e:
        ops.check_files(ops.open_campaign(skirmish), [sheet], "zh")
    got = sorted((p.line, p.code) for p in e.value.problems)
    assert got == [(4, "grail_war.sheet.info_key"), (5, "grail_war.sheet.info_key"), (6, "grail_war.sheet.info_key")]
    assert "角色信息" in e.value.problems[0].render("zh")


def _own(campaign: Path, cell: str, cid: str) -> None:
    path = campaign / "state" / "turn-000.json"
    state = json.loads(path.read_text("utf-8"))
    side = next(c["side"] for c in state["characters"] if c["id"] == cid)
    for s in state["strongholds"]:
        if s["pos"] == cell:
            s["owner"] = side
    path.write_text(json.dumps(state, ensure_ascii=False, indent=1), "utf-8")


@pytest.mark.parametrize("owned, special", [(True, "teleport"), (False, "climb")])
def test_class_movement_answered_yes_with_the_samples_coordinates(skirmish, owned, special):
    """seed l.151-154 "8.本回合移动，是否发动介职特效 / 是 / 魔术师“CASTER”可进行瞬间转移，目的地只能是自己方的据点 /
    从据点3到据点4，到达地图坐标（C,11）": 是 asks for the class's movement (a CASTER's teleport when the
    destination is an own stronghold, else its climbing) and the cell is read from the sentence (ruling G7)."""
    if owned:
        _own(skirmish, "A1", "artoria")
    text = "回合: 1\n玩家: alice\n8.本回合移动，是否发动介职特效:\n  是否发动介职特效: 是\n  到达地图坐标: 从据点1到据点2，到达地图坐标（A,1）\n"
    sheet = write(skirmish.parent / "a.yaml", text)
    (_, o), = ops.check_files(ops.open_campaign(skirmish), [sheet], "zh").values()
    assert (o.move_to, o.move_special) == ((0, 0), special)


def test_class_movement_answered_yes_by_a_class_without_one_is_refused(skirmish):
    """seed l.7 "一般介职只能从内到外即由高到低移动": a SABER has no class movement; 是 is refused at its line."""
    sheet = write(skirmish.parent / "b.yaml", "回合: 1\n玩家: bob\n本回合移动:\n  是否发动介职特效: 是\n  地图坐标: B2\n")
    with pytest.raises(GmError) as e:
        ops.check_files(ops.open_campaign(skirmish), [sheet], "zh")
    p, = e.value.problems
    assert (p.code, p.field, p.line) == ("grail_war.move.no_class_special", "本回合移动.是否发动介职特效", 4)
    assert "瞬移" in p.render("zh")


def test_the_equipment_question_as_the_sample_asks_it():
    """seed l.149 "是否发动【万华杖】的效果（发动或不发动都默认为针对两人）" answered 不发动."""
    o = parse(["杀"], {"装备": {"万华杖": {"是否发动【万华杖】的效果（发动或不发动都默认为针对两人）": "不发动"}}}, weapon="万华杖")
    assert o.equipment["万华杖"].use is False


SAMPLE_YAML = """回合: 1
玩家: alice
角色: 阿尔托利亚 CASTER 当前4血
0.上回合弃牌保留: 【闪】【万法尽破】【杀】【宝石】
1.1是否使用角色技能: 是 丢弃 万法破尽 王之财宝
1.2血多的优先:
2.1.对敌人出杀:
2.对魔术牌出杀:
3.不出杀:
3.1.对杀出闪:
2.发动外典 将杀转换成闪 对魔术牌出闪:
3.不出闪:
4.是否使用咒: 不使用咒
5.是否用宝石?对谁?: 用 对队友优先
6.是否使用魔术牌: 不使用魔术牌。
7.装备牌选择:
  【万华杖】:
    是否发动【万华杖】的效果（发动或不发动都默认为针对两人）: 是
    弃掉该角色牌的种类和优先度排序: 装备区，手牌
8.本回合移动，是否发动介职特效:
  是否发动介职特效: 是
  到达地图坐标: （C,11）
"""


def test_the_whole_sample_copied_as_yaml_gives_the_orders_gm_import_reads(tmp_path):
    """seed l.119-154, the 战术选项总SAMPLE, copied line by line as YAML keys (a colon after each
    question): the same orders as `gm import` reads from the SAMPLE pasted as a message."""
    from tests.grail_war.test_import import SAMPLE, campaign

    d = campaign(tmp_path)
    op = ops.open_campaign(d)
    (_, copied), = ops.check_files(op, [write(tmp_path / "copied.yaml", SAMPLE_YAML)], "zh").values()
    imported = ops.import_message(d, SAMPLE, None, "zh")
    (_, read), = ops.check_files(op, [write(tmp_path / "imported.yaml", imported["yaml"])], "zh").values()
    assert copied == read
    assert copied.keep == ["闪", "万法破尽", "杀", "宝石"] and copied.skill_discard == ["万法破尽", "王之财宝"]
    assert [(e.against, e.via) for e in copied.dodge_order] == [("strike", None), ("magic", "正式外典")]


# 5. the YAML traps players fall into (issue 23) -----------------------------------------------
@pytest.mark.parametrize("sheet", [
    {"出杀顺序": ["对敌人出杀，不出杀"]},  # 出杀顺序: [对敌人出杀，不出杀]: a full-width comma is no YAML separator
    {"出杀顺序": "【对敌人出杀】【不出杀】"},
    {"出杀顺序": ["【对敌人出杀】", "【不出杀】"]},
    {"出杀顺序": "对敌人出杀、不出杀"},
])
def test_a_list_written_in_the_seeds_brackets_or_commas_is_read_line_by_line(sheet):
    """seed l.130-131 "2.对魔术牌出杀 / 3.不出杀" written as players write lists in YAML: one flow list
    item holding 「，」 (YAML splits at ASCII commas only), lines in 【】 one after another: each
    is a line of the list, in order."""
    o = parse(["杀"], sheet)
    assert [e.against for e in o.strike_order] == ["enemy"]  # 不出杀 ends the list




@pytest.mark.parametrize("line", ["对敌人出杀（2张）", "对敌人出杀 2张", "2张 对敌人出杀", "对敌人出杀×2", "2.1.对敌人出杀 x2"])
def test_a_count_written_on_a_list_line_is_that_lines_count(line):
    """seed l.77 "（可注明出杀的张数，GM自动根据这回合遭遇的出杀事件优先度出定量的杀）" and l.84 "（可注明出闪的张数…）":
    a count written on the line itself, as gm import reads it from a message (（2张）, 2张, ×2), is the
    line's count, as `{对: 对敌人出杀, 张数: 2}` is; in a flow list with a full-width comma too."""
    o = parse(["杀", "杀", "杀", "闪"], {"出杀顺序": [line, "不出杀"], "出闪顺序": ["对杀出闪（1张），不出闪"]})
    assert [(e.against, e.count) for e in o.strike_order] == [("enemy", 2)]
    assert [(e.against, e.count) for e in o.dodge_order] == [("strike", 1)]
    keyed = parse(["杀", "杀", "杀", "闪"], {"出杀顺序": [{"对": "对敌人出杀", "张数": 2}]})
    assert keyed.strike_order == o.strike_order


def test_a_count_the_line_cannot_hold_is_refused_at_the_line():
    """seed l.77 "可注明出杀的张数": a count is 1 to 99 cards; 0张 is no count (write 不出杀), nor is
    十十张, and words besides the line and its count are still refused, naming the line as written."""
    for text in ("对敌人出杀 0张", "对敌人出杀 十十张", "对敌人出杀 三张 快"):
        p, = problems(["杀"], {"出杀顺序": [text]}).problems
        assert (p.code, p.field) == ("grail_war.sheet.entry_text", "出杀顺序[0]"), text
        assert "2张" in p.render("zh")


@pytest.mark.parametrize("line, n", [("对敌人出杀 三张", 3), ("对敌人出杀（两张）", 2), ("两张 对敌人出杀", 2),
                                     ("对敌人出杀 十二张", 12)])
def test_a_count_in_chinese_numerals_on_a_list_line(line, n):
    """seed l.77 "可注明出杀的张数": a count as a player says it (三张, 两张, 十二张), read as gm import
    reads it from a message."""
    o = parse(["杀", "杀", "杀", "闪"], {"出杀顺序": [line, "不出杀"]})
    assert [(e.against, e.count) for e in o.strike_order] == [("enemy", n)]


@pytest.mark.parametrize("text, to, via", [
    ("移动: {目的地: （A,1）}\n", "A1", []),
    ("移动: {目的地: (A,1)}\n", "A1", []),
    ("移动: {目的地: A,1}\n", "A1", []),
    ("移动: {途经: [(A,2)], 目的地: (A,1)}\n", "A1", ["A2"]),
])
def test_a_cell_split_by_its_comma_inside_braces_is_read_whole(text, to, via, skirmish, tmp_path):
    """seed l.154 "到达地图坐标（C,11）" writes a cell with a comma; inside YAML's braces or brackets
    the comma splits it (移动: {目的地: （A,1）} is {目的地: "（A", "1）": null}). The parts are read as the
    cell they were, so the sheet passes `gm check` with the destination the player wrote."""
    sheet = write(tmp_path / "a.yaml", "回合: 1\n玩家: alice\n" + text)
    (_, o), = ops.check_files(ops.open_campaign(skirmish), [sheet], "zh").values()
    from gm_tool.core.grid import cell_name

    assert cell_name(o.move_to) == to and [cell_name(c) for c in o.move_via] == via


def test_a_destination_in_full_width_brackets_at_the_top_level():
    """seed l.154 "到达地图坐标（C,11）" copied as a key: 目的地: （A,1） or 到达地图坐标: （A,1） is the move's
    destination (the board of the combat kit is one cell, A1)."""
    for key in ("目的地", "到达地图坐标"):
        assert parse(["杀"], {key: "（A,1）"}).move_to == (0, 0)


def test_discards_for_a_character_whose_skills_discard_nothing_say_so():
    """seed l.127 "是 丢弃 万法破尽 王之财宝" names the cards a skill discards; a character whose skills
    discard nothing (高文's 日轮加护) is told that, not that "技能【—】需丢弃 0 张牌"."""
    err = problems(["杀", "闪"], {"技能": {"丢弃": ["杀", "闪"]}}, cid="gawain", skills=["sun_blessing"])
    p, = err.problems
    assert p.code == "grail_war.sheet.no_discard" and p.field == "技能.丢弃"
    assert "没有需要丢弃手牌的技能（其技能：日轮加护）" in p.render("zh") and "【—】" not in p.render("zh")
