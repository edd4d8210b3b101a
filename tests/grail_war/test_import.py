"""`gm import`: the seed's 战术选项 SAMPLE (seed l.120-154), pasted as a player's private message,
becomes a valid sheet, and each line says what it was understood as (issues 14 and 23). The
corpus of other messages is tests/grail_war/test_import_corpus.py."""

from __future__ import annotations

from pathlib import Path

import yaml

from gm_tool import app as ops
from tests.conftest import write
from tests.grail_war.test_sample_fight import ARTORIA, FIGHT, scenario

SAMPLE = Path(__file__).parent / "messages" / "seed_sample.txt"


def campaign(tmp_path: Path) -> Path:
    """The SAMPLE's fight (tests/grail_war/test_sample_fight.py): 阿尔托利亚 with the seed's sample
    hand and equipment (l.121-124) on stronghold 3 (F10), stronghold 4 at C11 (l.154)."""
    path = write(tmp_path / "sample.yaml", yaml.safe_dump(scenario(FIGHT), allow_unicode=True))
    d = tmp_path / "c"
    ops.new_campaign(d, str(path), "import-seed-0123456789abcdef")
    return d


def test_the_seeds_sample_verbatim_is_a_valid_sheet_for_artoria(tmp_path, gm):
    """seed l.120 "SAMPLE" ... l.154 "从据点3到据点4，到达地图坐标（C,11）": every line placed, through the last."""
    d = campaign(tmp_path)
    out = tmp_path / "alice.yaml"
    r = gm("import", d, SAMPLE, "-o", out)
    sheet = yaml.safe_load(out.read_text("utf-8"))
    assert sheet["玩家"] == "alice" and sheet["回合"] == 1  # from "角色:阿尔托利亚"
    assert sheet["保留"] == ["闪", "万法破尽", "杀", "宝石"]
    assert sheet["技能"] == {"使用": "是", "丢弃": ["万法破尽", "王之财宝"]}
    assert sheet["目标优先"] == "血多的优先"
    assert sheet["出杀顺序"] == [{"对": "对敌人出杀"}, {"对": "对魔术牌出杀"}, "不出杀"]
    assert sheet["出闪顺序"] == [{"对": "对杀出闪"}, {"对": "对魔术牌出闪", "转换": "正式外典"}, "不出闪"]
    assert (sheet["咒"], sheet["宝石"], sheet["魔术牌"]) == ("不使用", "对队友优先", {"使用": "不使用"})
    assert sheet["装备"] == {"万华杖": {"发动": "是", "区域": ["装备区", "手牌"]}}
    assert sheet["移动"] == {"特殊": "是", "目的地": "C11"}
    assert "→ 出闪顺序第 2 项：对魔术牌出闪（以【正式外典】转换）" in r.output
    assert "又一个区域顺序（手牌、装备区）" in r.output  # the sample's second order is told, not dropped
    assert "→ 规则的说明文字，不是指令" in r.output.split("魔术师")[1].split("\n")[1]  # l.153
    assert "→ 从据点 3（F10）出发；移动到 C11" in r.output  # l.154
    assert "未使用" not in r.output
    gm("submit", d, out)
    gm("resolve", d)


def test_the_printed_sheet_names_each_line_and_passes_check(tmp_path, gm):
    d = campaign(tmp_path)
    text = gm("import", d, SAMPLE).output
    assert "# 17: 不使用咒\n#   → 咒：不使用" in text
    gm("check", d, write(tmp_path / "printed.yaml", text))


def test_a_line_that_names_orders_but_cannot_be_placed_is_an_error_and_the_reading_is_still_printed(tmp_path, gm):
    """Nothing is dropped silently: a line holding an order's words that no reading places is an
    error naming its line, an unanswered question too, and the failed import prints what it made
    of every line."""
    d = campaign(tmp_path)
    message = "角色:阿尔托利亚\n0.保留【闪】\n出杀还是出闪再说\n4.是否使用咒\n"
    r = gm("import", d, write(tmp_path / "bad.txt", message), "--lang", "en", code=1)
    assert "bad.txt:3: cannot place this line: '出杀还是出闪再说'" in r.output
    assert "bad.txt:4: the question '咒' has no answer" in r.output
    assert "  2  0.保留【闪】\n     → heading: cards to keep; keep: 闪" in r.output
    assert "  3  出杀还是出闪再说\n     → not understood" in r.output


def test_a_character_line_that_disagrees_with_player_is_an_error(tmp_path, gm):
    """seed l.121 "角色:阿尔托利亚 …" names whose message it is; a --player saying another player is
    not overridden: the GM is asked which is right."""
    d = campaign(tmp_path)
    r = gm("import", d, SAMPLE, "--player", "bob", code=1)
    assert "角色:阿尔托利亚」是玩家 alice 的角色，而 --player 是 bob" in r.output
    assert gm("import", d, SAMPLE, "--player", "alice").output.count("玩家: alice") == 1


def test_without_a_character_line_the_player_must_be_named(tmp_path, gm):
    d = campaign(tmp_path)
    path = write(tmp_path / "anon.txt", "0.保留【闪】\n")
    r = gm("import", d, path, "--lang", "en", code=1)
    assert "whose orders are these?" in r.output and "阿尔托利亚（alice）" in r.output
    assert "玩家: alice" in gm("import", d, path, "--player", "alice").output


def test_a_ruleset_without_a_message_form_says_so(tmp_path, gm):
    from tests.test_toy_seam import RACE

    d = tmp_path / "race"
    gm("new", d, "--scenario", RACE)
    r = gm("import", d, write(tmp_path / "m.txt", "anything\n"), "--lang", "en", code=1)
    assert "ruleset toy has no written-message form to import" in r.output


def test_the_teleport_must_leave_from_where_she_stands(tmp_path, gm):
    """l.154 "从据点3到据点4": a message naming a start the character is not on, or a cell that is not
    the named stronghold's, is an error, not a guess."""
    d = campaign(tmp_path)
    text = SAMPLE.read_text("utf-8").replace("从据点3到据点4", "从据点4到据点3")
    r = gm("import", d, write(tmp_path / "m.txt", text), code=1)
    assert "角色在 F10，不在据点 4（C11）" in r.output
    assert "据点 3 在 F10，不在 C11" in r.output


def test_cells_in_full_width_brackets_as_the_seed_writes_them(tmp_path, gm):
    """seed l.154 "到达地图坐标（C,11）": a destination written （F,9） or 【F9】 is F9."""
    d = campaign(tmp_path)
    for spelling in ("（F,9）", "（F，9）", "【F9】", "Ｆ９"):
        sheet = write(tmp_path / "m.yaml", f"回合: 1\n玩家: alice\n移动:\n  目的地: {spelling}\n")
        gm("check", d, sheet)


def test_check_of_several_files_reports_every_file(tmp_path, gm):
    d = campaign(tmp_path)
    good = write(tmp_path / "good.yaml", "turn: 1\nplayer: alice\n")
    bad = write(tmp_path / "bad.yaml", "turn: 1\nplayer: bob\nkeep: [圣杯]\n")
    also = write(tmp_path / "also.yaml", "turn: 1\nplayer: heidi\n")
    r = gm("check", d, good, bad, also, "--lang", "en", code=1)
    assert f"{good}: valid (alice)" in r.output and f"{also}: valid (heidi)" in r.output
    assert "bad.yaml" in r.output and "圣杯" in r.output


def test_status_lists_every_problem_of_a_stored_sheet_an_edit_made_invalid(tmp_path, gm):
    d = campaign(tmp_path)
    sheet = write(tmp_path / "a.yaml", "turn: 1\nplayer: alice\nskill: {use: true, discard: [万法破尽, 王之财宝]}\n"
                                        "dodge_order: [{against: magic, via: 正式外典}]\n")
    gm("submit", d, sheet)
    gm("amend", d, "take-card", "artoria", "王之财宝", "--reason", "x")
    gm("amend", d, "take-card", "artoria", "正式外典", "--reason", "y")
    r = gm("status", d, "--lang", "en")
    assert "alice's stored sheet no longer validates" in r.output
    assert "skill.discard[1]" in r.output and "dodge_order[0].via" in r.output


def test_a_full_width_colon_a_tab_or_an_empty_file_gets_a_hint(tmp_path, gm):
    d = campaign(tmp_path)
    cases = {"回合：1\n玩家：alice\n": "full-width colons '：'", "turn: 1\nplayer：alice\nkeep: [闪]\n": "line 2",
             "turn: 1\n\tplayer: alice\n": "indent with spaces", "": "the file is empty", "# only a comment\n": "the file is empty"}
    for k, (text, expected) in enumerate(cases.items()):
        r = gm("check", d, write(tmp_path / f"h{k}.yaml", text), "--lang", "en", code=1)
        assert expected in r.output, (text, r.output)
    r = gm("check", d, write(tmp_path / "zh.yaml", "回合：1\n"), code=1)
    assert "请改用半角冒号加一个空格" in r.output


def test_the_seeds_sample_imports_the_same_in_english(tmp_path, gm):
    """--lang en changes the reading's words, not the sheet."""
    d = campaign(tmp_path)
    zh, en = (yaml.safe_load(gm("import", d, SAMPLE, "--lang", lang).output) for lang in ("zh", "en"))
    assert zh == en
    assert ARTORIA["player"] == zh["玩家"]


def test_counts_in_chinese_numerals_read_as_numbers():
    """A message writes counts as a player says them (三张, 两张, 十二张); what is no count of 1-99
    reads as 0, which every count refuses, and the ordinal 第二张 is no count at all."""
    from gm_tool.rulesets.grail_war.cards import number
    from gm_tool.rulesets.grail_war.importer import _COUNT

    assert [number(t) for t in ("3", "12", "一", "两", "二", "九", "十", "十二", "二十", "九十九")] == \
        [3, 12, 1, 2, 2, 9, 10, 12, 20, 99]
    assert [number(t) for t in ("十十", "一二", "一十", "两十", "十两", "零")] == [0, 0, 0, 0, 0, 0]
    assert _COUNT.match("三张").group(2) == "三" and _COUNT.match("（3张）".replace("（", "(").replace("）", ")"))
    assert _COUNT.match("第二张") is None and _COUNT.match("三次") is None
