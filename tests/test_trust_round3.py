"""Trust, third round (issue 24): `gm verify` proves the whole folder, no GM input can wedge a
campaign, bad input gets a clear error. One section per item of the issue; each test failed on
the code before its fix (the commit that fixes it names the test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm_tool.core import safeyaml
from gm_tool.errors import GmError
from tests.conftest import tree, write


# keys spelled differently that mean the same -------------------------------------------------
def test_seat_keys_1_and_0x1_are_refused_like_duplicates(gm, tmp_path):
    """`1` and `0x1` are both the integer 1: YAML kept the last seat and alice vanished from a
    神将录 game without a word. Refused like a key written twice, naming both spellings."""
    f = write(tmp_path / "s.yaml", "ruleset: shenjianglu\nname: dup\nboard: duel\nseats:\n"
                                   "  1: {player: alice, faction: 周}\n  0x1: {player: bob, faction: 商}\n"
                                   "  2: {player: carol, faction: 商}\n")
    r = gm("new", tmp_path / "c", "--scenario", f, "--lang", "en", code=1)
    assert "s.yaml:6: seats.0x1: key '0x1' is the same key as '1' on line 5" in r.output, r.output
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize("text, first, second", [("a: {true: 1, yes: 2}\n", "true", "yes"),
                                                 ("a: {1: x, 1.0: y}\n", "1", "1.0"),
                                                 ("a: {~: x, null: y}\n", "~", "null"),
                                                 ("a: {010: x, 8: y}\n", "010", "8")])
def test_keys_that_read_as_one_value_are_refused(text, first, second):
    with pytest.raises(GmError) as caught:
        safeyaml.loads(text, "x.yaml")
    assert caught.value.problems[0].code == "yaml.same_key"
    assert f"key {second!r} is the same key as {first!r}" in caught.value.render("en")


def test_quoted_and_plain_keys_stay_apart():
    """'1' (text) and 1 (a number) are two keys in YAML and in the mapping built from it."""
    assert safeyaml.loads("a: {'1': x, 1: y}\n", "x.yaml") == {"a": {"1": "x", 1: "y"}}


def test_a_merge_key_in_a_sheet_is_refused(gm, skirmish, tmp_path):
    """`<<: *base` copied keys silently, and a key written beside it replaced the copied one: a
    sheet could say two things at once. Merge keys are refused, with the line."""
    f = write(tmp_path / "alice.yaml", "turn: 1\nplayer: alice\nx: &base {to: A2}\nmove:\n  <<: *base\n  to: B3\n")
    before = tree(skirmish)
    for command in ("check", "submit"):
        r = gm(command, skirmish, f, "--lang", "en", code=1)
        assert "alice.yaml:5: move.<<: YAML merge keys (<<, line 5) are not allowed" in r.output, r.output
    assert tree(skirmish) == before


def test_a_merge_key_in_a_scenario_is_refused(gm, tmp_path):
    from gm_tool.app import BUNDLED

    text = (BUNDLED / "guangying.yaml").read_text("utf-8").replace("sides: {alice: south, bob: north}",
                                                                      "base: &b {alice: south}\nsides: {<<: *b, bob: north}")
    f = write(tmp_path / "s.yaml", text)
    r = gm("new", tmp_path / "c", "--scenario", f, "--lang", "en", code=1)
    assert "sides.<<: YAML merge keys" in r.output, r.output


# encodings ---------------------------------------------------------------------------------------
def _gbk_that_is_utf8() -> bytes:
    """A GBK sheet whose bytes happen to be valid UTF-8 too: each of these hanzi is two GBK bytes
    that pair up as one two-byte UTF-8 character (一些伟位 read as UTF-8 is һЩΰλ)."""
    data = "turn: 1\nplayer: alice\n# 一些伟位住使值偏停\n".encode("gbk")
    data.decode("utf-8")  # valid UTF-8: the check below is what catches it
    return data


ENCODINGS = {
    "utf16le_chinese": ("回合: 1\n玩家: alice\n保留: [杀, 闪]\n出杀顺序: [血多的优先]\n".encode("utf-16-le"),
                        "UTF-16 (LE, without a byte-order mark)"),
    "utf16be_chinese": ("回合: 1\n玩家: alice\n# 阿尔托利亚\n".encode("utf-16-be"), "UTF-16 (BE, without a byte-order mark)"),
    "utf32le": ("回合: 1\n玩家: alice\n".encode("utf-32-le"), "UTF-32 (LE, without a byte-order mark)"),
    "gbk_valid_utf8": (_gbk_that_is_utf8(), "GBK/GB18030"),
}


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_encodings_are_named_when_the_bytes_are_ambiguous(gm, skirmish, tmp_path, name):
    """A mostly-Chinese UTF-16 sheet without BOM was "binary data"; a GBK sheet whose bytes are
    valid UTF-8 was read as Cyrillic-Hebrew nonsense and refused key by key."""
    data, words = ENCODINGS[name]
    f = tmp_path / f"{name}.yaml"
    f.write_bytes(data)
    r = gm("check", skirmish, f, "--lang", "en", code=1)
    assert f"the file is {words} text; save it as UTF-8" in r.output, r.output


@pytest.mark.parametrize("text", ["# привет мир\n", "# Ελληνικά\n", "# café naïve façade\n", "# שלום עולם\n",
                                  "# e\u0301te\u0301\n"])
def test_utf8_in_other_scripts_still_reads(text):
    """The plausibility check refuses only letters of several scripts in one word."""
    assert safeyaml.decode(("turn: 1\n" + text).encode("utf-8"), "x") == "turn: 1\n" + text


def test_a_stray_nul_in_utf8_is_still_binary():
    with pytest.raises(GmError) as caught:
        safeyaml.decode(b"turn: 1\nplayer: alice\x00\n", "x")
    assert caught.value.problems[0].code == "file.binary"


# exact types in sheets ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def four(tmp_path_factory) -> dict[str, Path]:
    """A fresh campaign of each ruleset."""
    from gm_tool import app

    out = {}
    for name, scenario in (("grail_war", "skirmish"), ("hunlu", "hunlu_duel"), ("guangying", "guangying"),
                           ("shenjianglu", "shenjianglu")):
        out[name] = tmp_path_factory.mktemp("four") / name
        app.new_campaign(out[name], scenario, f"exact-types-{name}-0123456789abcdef")
    return out


def _due_sheet(folder: Path, **changes) -> str:
    """The due player's template sheet with ``changes`` (None: the key removed), as YAML."""
    import yaml

    from gm_tool import app

    player = app.status(folder, "en")["due"][0]
    sheet = yaml.safe_load(app.template(folder, player, "en"))
    for key, value in changes.items():
        path = key.split(".")
        node = sheet
        for step in path[:-1]:
            node = node.setdefault(step, {})
        node[path[-1]] = value
    return yaml.safe_dump(sheet, allow_unicode=True)


EXACT = [
    ("grail_war", {"turn": True}, "turn: wrong type: expected integer, got boolean"),
    ("grail_war", {"use_curse": 0}, "use_curse: value 0 is not allowed"),
    ("grail_war", {"skill.use": 0}, "skill.use: value 0 is not allowed"),
    ("grail_war", {"move": True}, "move: wrong type: expected mapping, got boolean"),
    ("hunlu", {"turn": True}, "turn: wrong type: expected integer, got boolean"),
    ("hunlu", {"turn": 1.0}, "turn: wrong type: expected integer, got number"),
    ("hunlu", {"actions": 0}, "actions: wrong type: expected list, got integer"),
    ("hunlu", {"actions": False}, "actions: wrong type: expected list, got boolean"),
    ("hunlu", {"actions": ""}, "actions: wrong type: expected list, got string"),
    ("hunlu", {"standing.reserve_order": 0}, "standing.reserve_order: wrong type: expected list, got integer"),
    ("guangying", {"turn": 1.0}, "turn: wrong type: expected integer, got number"),
    ("guangying", {"turn": True}, "turn: wrong type: expected integer, got boolean"),
    ("shenjianglu", {"turn": 1.0}, "turn: wrong type: expected integer, got number"),
]


@pytest.mark.parametrize("ruleset, changes, words", EXACT, ids=[f"{r}-{'-'.join(map(str, c.items()))}" for r, c, _ in EXACT])
def test_sheet_values_of_the_wrong_type_are_refused(gm, four, tmp_path, ruleset, changes, words):
    """`turn: true` and `turn: 1.0` equal 1 in Python and passed; `咒: 0` found False in the
    table of answers; `actions: 0 | false | ''` and `reserve_order: 0` read as nothing sent;
    `移动: true` moved with the class special. Each is refused, naming the field."""
    f = write(tmp_path / "s.yaml", _due_sheet(four[ruleset], **changes))
    r = gm("check", four[ruleset], f, "--lang", "en", code=1)
    assert words in r.output, r.output


@pytest.mark.parametrize("line, words", [("咒: 0", ": value 0 is not allowed"),
                                         ("技能: {使用: 0}", ": value 0 is not allowed"),
                                         ("移动: true", ": wrong type: expected mapping, got boolean")])
def test_the_seeds_words_are_typed_exactly_too(gm, four, tmp_path, line, words):
    f = write(tmp_path / "s.yaml", f"回合: 1\n玩家: alice\n{line}\n")
    r = gm("check", four["grail_war"], f, "--lang", "en", code=1)
    assert "s.yaml:3: " in r.output and words in r.output, r.output


@pytest.mark.parametrize("ruleset", ["grail_war", "hunlu", "guangying", "shenjianglu"])
def test_a_quoted_turn_is_told_to_drop_the_quotes(gm, four, tmp_path, ruleset):
    """`turn: '1'` was refused with "turn 1 is wrong; the turn being played is 1"."""
    f = write(tmp_path / "s.yaml", _due_sheet(four[ruleset], turn="1"))
    r = gm("check", four[ruleset], f, "--lang", "en", code=1)
    assert "turn: write the turn as a number without quotes, 1 ('1' in quotes is text)" in r.output, r.output
    assert "is wrong" not in r.output
    f = write(tmp_path / "s.yaml", _due_sheet(four[ruleset]))
    gm("check", four[ruleset], f)  # the template itself passes: the fixture is sound


# gm amend numbers ----------------------------------------------------------------------------------
AMEND_NUMBERS = [  # (ruleset, action, args before the number, number, accepted)
    ("grail_war", "set-hp", ["medea"], "²", False),  # "²".isdigit(), but int("²") failed: internal error
    ("grail_war", "set-hp", ["medea"], "1_0", False),
    ("grail_war", "set-hp", ["medea"], "٣", False),
    ("grail_war", "set-hp", ["medea"], "３", True),
    ("hunlu", "set-jing", [None], "1_0", False),  # float("1_0") is 10.0
    ("hunlu", "set-jing", [None], "٣", False),  # float("٣") is 3.0
    ("hunlu", "set-jing", [None], "1e0", False),
    ("hunlu", "set-jing", [None], "２．５", True),
    ("hunlu", "add-status", [None, "眩晕"], "100000000000000000000000", False),
    ("guangying", "set-fortress", ["alice"], "100000000000000000000000", False),
    ("guangying", "set-fortress", ["alice"], "١٠", False),
    ("guangying", "set-fortress", ["alice"], "+5", False),
    ("guangying", "set-fortress", ["alice"], "５０", True),
    ("shenjianglu", "set-damage", ["K1"], "100000000000000000000000", False),
    ("shenjianglu", "set-damage", ["K1"], "1_0", False),
]


@pytest.mark.parametrize("ruleset, action, before, number, accepted", AMEND_NUMBERS)
def test_amend_numbers_are_ascii_or_full_width_digits_within_bounds(gm, tmp_path, ruleset, action, before, number,
                                                                  accepted):
    """Python's int() and float() read "1_0", Arabic-Indic digits and "1e0"; gm amend stored
    a fortress of 10^23 HP and a status of 10^23 rounds. Only ASCII and full-width digits are
    numbers, and every value is within the game's bounds (at most MAX_AMEND_INT)."""
    import shutil

    from gm_tool import app

    scenario = {"grail_war": "skirmish", "hunlu": "hunlu_duel", "guangying": "guangying",
                "shenjianglu": "shenjianglu"}[ruleset]
    d = tmp_path / "c"
    app.new_campaign(d, scenario, f"amend-numbers-{ruleset}-0123456789abcdef")
    if None in before:  # the hunlu unit due first
        before = [app.status(d, "en")["due"] and app.show(d, None)["next"]["unit"] if b is None else b for b in before]
    before_files = tree(d)
    r = gm("amend", d, action, *before, number, "--reason", "test", "--lang", "en", code=0 if accepted else 1)
    if not accepted:
        assert tree(d) == before_files
        assert "internal error" not in r.output and ("args" in r.output), r.output
    shutil.rmtree(d)


# GM-supplied text bounded at write time -----------------------------------------------------------------
def test_a_long_dice_note_is_refused_before_it_wedges_the_campaign(gm, tmp_path):
    """`gm dice --note` of 120,000 characters nine times wrote a 1 MB _dice.yaml that every later
    command refused. A note is bounded when it is written, and so are all of a turn's notes."""
    from gm_tool import app

    d = tmp_path / "c"
    app.new_campaign(d, "hunlu_duel", "dice-note-0123456789abcdef")
    before = tree(d)
    r = gm("dice", d, "3", "--note", "x" * 120_000, "--lang", "en", code=2)
    assert "--note: the text is too long: 120000 characters, the limit is 500" in r.output, r.output
    assert tree(d) == before
    for _ in range(10):
        gm("dice", d, "3", "--note", "y" * 499)  # 10 x 499 + 9 line breaks: 4,999
    r = gm("dice", d, "3", "--note", "zz", "--lang", "en", code=1)
    assert "the notes of this turn's dice file are full (5000 characters)" in r.output, r.output
    gm("dice", d, "4")  # more dice without a note still go in
    gm("status", d)
    gm("resolve", d)
    gm("verify", d)


@pytest.mark.parametrize("args, words", [
    (("amend", "set-hp", "medea", "3", "--reason", "r" * 501), "--reason: the text is too long"),
    (("amend", "set-hp", "medea", "3", "--reason", "bad\u202eeliver"), "--reason: the text holds a control or direction character (U+202E)"),
    (("amend", "set-hp", "medea\x1b", "3", "--reason", "x"), "args.0: the text holds a control"),
    (("amend", "close-area", *["A1"] * 101, "--reason", "x"), "args: close_area takes"),
    (("forum", "--name", "alice=A\x07"), "--name.alice: the text holds a control"),
    (("forum", "--image-url", "https://x/" + "y" * 600 + "/{file}"), "--image-url: the text is too long"),
])
def test_gm_texts_are_bounded_when_written(gm, skirmish, args, words):
    before = tree(skirmish)
    r = gm(args[0], skirmish, *args[1:], "--lang", "en", code=None)
    assert r.exit_code in (1, 2) and words in r.output, r.output
    assert tree(skirmish) == before


def test_a_scenario_that_would_not_read_back_is_refused_at_new(gm, tmp_path):
    """A 100 KB scenario whose description nests a long flow list 30 levels deep is written out
    in block style, each item on a line indented 60 spaces: 2 MB of scenario.yaml that every
    later command (gm verify reads it) refused as too large."""
    from gm_tool.app import BUNDLED

    nested = "{k: " * 30 + "[" + ", ".join(["1"] * 30_000) + "]" + "}" * 30
    f = write(tmp_path / "s.yaml", (BUNDLED / "guangying.yaml").read_text("utf-8") + f"description: {nested}\n")
    assert f.stat().st_size < 100_000
    r = gm("new", tmp_path / "c", "--scenario", f, "--lang", "en", code=1)
    assert "c/scenario.yaml: what gm would write here is" in r.output and "nothing was written" in r.output, r.output
    assert not (tmp_path / "c").exists()


# look-alike ids ------------------------------------------------------------------------------------
@pytest.mark.parametrize("uid, words", [("Κ2", "id 'Κ2' may use only Latin letters"),  # a Greek capital kappa
                                        ("k1", "id 'k1' differs from the existing 'K1' only by case"),
                                        ("bob-1", "id 'bob-1' starts with player bob's prefix bob-"),
                                        ("BOB-2", "id 'BOB-2' starts with player bob's prefix bob-")])
def test_a_summon_named_like_another_unit_is_refused(gm, four, tmp_path, uid, words):
    """A unit id of another script (Greek Κ2 beside the king K2) or with another player's prefix
    (bob-1 for alice's unit, where bob's summons are named bob-N) passed: a post then told
    players of a 'K2' or a 'bob-1' that was not the one they knew."""
    import yaml

    from gm_tool import app

    d = four["shenjianglu"]
    player = app.status(d, "en")["due"][0]
    sheet = yaml.safe_load(app.template(d, player, "en"))
    spawn = app.show(d, None)["board"]["spawns"]["1" if player == "alice" else "2"][0]
    hand = next(u for u in app.show(d, None)["seats"] if u["player"] == player)["hand"]
    card = next(c for c in hand if c in ("周弓兵", "周骑", "商弓兵", "商骑", "姜尚"))
    sheet["actions"] = [{"summon": card, "at": spawn, "id": uid}]
    f = write(tmp_path / "s.yaml", yaml.safe_dump(sheet, allow_unicode=True))
    r = gm("check", d, f, "--lang", "en", code=1)
    assert "actions.1.id: " + words in r.output, r.output
    sheet["actions"][0]["id"] = f"{player}-x1"
    gm("check", d, write(tmp_path / "s.yaml", yaml.safe_dump(sheet, allow_unicode=True)))  # one's own prefix is fine


def test_a_scenario_unit_named_like_a_king_is_refused(gm, tmp_path):
    text = ("ruleset: shenjianglu\nname: x\nboard: duel\nseats:\n  1: {player: alice, faction: 周}\n"
            "  2: {player: bob, faction: 商}\nunits:\n  - {id: Κ2, card: 周弓兵, owner: alice, pos: C5}\n")
    r = gm("new", tmp_path / "c", "--scenario", write(tmp_path / "s.yaml", text), "--lang", "en", code=1)
    assert "units.1.id: id 'Κ2' may use only Latin letters" in r.output, r.output
