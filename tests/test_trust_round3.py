"""Trust, third round (issue 24): `gm verify` proves the whole folder, no GM input can wedge a
campaign, bad input gets a clear error. One section per item of the issue; each test failed on
the code before its fix (the commit that fixes it names the test)."""

from __future__ import annotations

import json
import os
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


@pytest.mark.parametrize("ruleset, change, words", [
    ("hunlu", ("team", "Κ2"), "players.alice.team.Κ2: id 'Κ2' may use only Latin letters"),
    ("hunlu", ("team", "bob-1"), "players.alice.team.bob-1: id 'bob-1' starts with player bob's prefix bob-"),
    ("hunlu", ("team", "DM"), "players.alice.team.DM: id 'DM' differs from the existing 'dm' only by case"),
    ("grail_war", ("character", "Medea"), "characters[4].id: id 'Medea' differs from the existing 'medea' only by case"),
    ("guangying", ("squad", "S1"), "squads[1].id: id 'S1' differs from the existing 's1' only by case"),
])
def test_look_alike_ids_are_refused_in_every_rulesets_scenario(ruleset, change, words):
    """Only 神将录 refused them: a 魂陆 team could hold a Greek Κ2 or alice's bob-1, a grail war
    Medea beside medea, 光与影 squads S1 beside s1 (posts then told two units apart by case)."""
    import copy

    from gm_tool import app
    from tests.test_fuzz_scenarios import FULL

    doc = copy.deepcopy(FULL[ruleset]() if ruleset != "grail_war" else safeyaml.load_mapping(app.BUNDLED / "skirmish.yaml"))
    kind, uid = change
    if kind == "team":  # a second unit of alice's beside her dm
        doc["players"]["alice"]["team"][uid] = {**doc["players"]["alice"]["team"]["dm"], "pos": "A1"}
    elif kind == "character":  # the skirmish has artoria, gawain, medea and mordred
        doc["characters"].append({**doc["characters"][0], "id": uid})
    else:
        doc["squads"][1]["id"] = uid
    with pytest.raises(GmError) as caught:
        app.check_scenario(doc, "s.yaml", "look-alike-0123456789abcdef")
    assert words in caught.value.render("en"), caught.value.render("en")


def test_a_guangying_piece_named_like_another_by_case_is_refused():
    """A summon's new id W1 beside the piece w1 passed (ids are matched exactly)."""
    from tests.guangying.kit import board, refusals, sq

    s = board(sq("alice", "C4", "w1:战士"))
    assert refusals(s, {"summon": "战士", "at": "C3", "id": "W1"}) == [("actions[0].id", "id.lookalike")]
    assert refusals(s, {"summon": "战士", "at": "C3", "id": "w2"}) == []


# gm verify proves the whole folder --------------------------------------------------------------------
def _campaign(tmp_path: Path, scenario: str = "skirmish", turns: int = 2, name: str = "c") -> Path:
    from gm_tool import app

    d = tmp_path / name
    app.new_campaign(d, scenario, f"whole-folder-{scenario}-0123456789abcdef")
    for _ in range(turns):
        app.resolve(d)
    return d


def _verify_problems(d: Path, *args) -> list[tuple[str, str]]:
    """``[(file, code)]`` of every problem `gm verify` names (empty when it passes)."""
    from gm_tool import app

    try:
        app.verify(d, *args)
    except GmError as exc:
        return [(p.file, p.code) for p in exc.problems]
    return []


def test_files_the_replay_does_not_produce_are_each_named(gm, tmp_path):
    """An extra file anywhere under state/, log/ or reports/ (turn 0 included) passed unseen, and
    only the first problem was ever named. Each is now named, all of them."""
    d = _campaign(tmp_path)
    assert _verify_problems(d) == []
    for rel, text in (("reports/turn-000/forged.md", "I won"), ("state/notes.txt", "x"),
                      ("log/turn-001.jsonl.bak", "{}\n"), ("reports/turn-001/extra/x.md", "y"),
                      ("reports/index.md", "z")):
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        write(d / rel, text)
    assert sorted(_verify_problems(d)) == [
        ("log/turn-001.jsonl.bak", "verify.extra"), ("reports/index.md", "verify.extra"),
        ("reports/turn-000/forged.md", "verify.extra"), ("reports/turn-001/extra", "verify.extra_dir"),
        ("state/notes.txt", "verify.extra")]
    r = gm("verify", d, "--lang", "en", code=1)
    assert "reports/turn-000/forged.md: a file the replay does not produce" in r.output, r.output
    assert len(r.output.strip().splitlines()) == 5


def test_an_opening_folder_for_a_ruleset_without_opening_posts_is_named(tmp_path, monkeypatch):
    """A reports/turn-000/ where the ruleset writes no opening posts (today every bundled ruleset
    has some: the replay is made to offer none) is named, and so is a folder for a turn never
    played."""
    from gm_tool import app

    d = _campaign(tmp_path, "shenjianglu", 1)
    (d / "reports/turn-009").mkdir()
    assert _verify_problems(d) == [("reports/turn-009", "verify.extra_dir")]
    (d / "reports/turn-009").rmdir()
    monkeypatch.setattr(app, "opening_files", lambda *args: {})
    assert _verify_problems(d) == [("reports/turn-000", "verify.extra_dir")]


def test_a_removed_state_with_forged_posts_and_log_is_named(gm, tmp_path):
    """`rm state/turn-011.json` plus a forged post and log still said 校验通过: the turn was
    simply not looked at. Posts and a log without their state pass only when they are what
    replaying the turn gives (a gm resolve killed before its commit point leaves that)."""
    d = _campaign(tmp_path)
    (d / "state/turn-002.json").unlink()
    r = gm("verify", d, "--lang", "en")  # as a killed resolve leaves it: true posts, no state
    assert "turn 2's posts and log were left by a gm resolve that did not finish" in r.output, r.output
    post = d / "reports/turn-002/public.md"
    post.write_text(post.read_text("utf-8").replace("2", "3"), "utf-8")
    log = d / "log/turn-002.jsonl"
    log.write_text(log.read_text("utf-8") + '{"seq": 99, "to": "all", "type": "forged"}\n', "utf-8")
    assert sorted(_verify_problems(d)) == [("log/turn-002.jsonl", "verify.uncommitted"),
                                           ("reports/turn-002/public.md", "verify.uncommitted")]
    r = gm("verify", d, "--lang", "en", code=1)
    assert "reports/turn-002/public.md: turn 2 has no state file (never committed) and this file is not what" in r.output


def test_a_state_missing_between_turns_is_named(tmp_path):
    d = _campaign(tmp_path)
    (d / "state/turn-001.json").unlink()
    assert _verify_problems(d) == [("state/turn-001.json", "verify.mismatch")]


def test_an_edited_sheet_is_named_not_the_log_it_changes(tmp_path):
    """An order sheet edited after its turn was reported as a log mismatch; log/turn-NNN.inputs.json
    records what each turn read, so the sheet itself is named, and nothing after it."""
    from gm_tool import app

    d = tmp_path / "c"
    app.new_campaign(d, "skirmish", "edited-sheet-0123456789abcdef")
    app.submit(d, write(tmp_path / "a.yaml", "turn: 1\nplayer: alice\nmove: {to: A2}\n"), "en")
    app.resolve(d)
    app.resolve(d)
    record = json.loads((d / "log/turn-001.inputs.json").read_text("utf-8"))
    assert list(record) == ["orders/turn-001/alice.yaml"]
    sheet = d / "orders/turn-001/alice.yaml"
    sheet.write_text("turn: 1\nplayer: alice\nmove: {to: B3}\n", "utf-8")
    assert _verify_problems(d) == [("orders/turn-001/alice.yaml", "verify.input_changed")]
    sheet.write_text("turn: 1\nplayer: alice\nmove: {to: Z99}\n", "utf-8")  # no longer even valid
    assert _verify_problems(d) == [("orders/turn-001/alice.yaml", "verify.input_changed")]
    sheet.unlink()
    assert _verify_problems(d) == [("orders/turn-001/alice.yaml", "verify.input_removed")]
    write(sheet, "turn: 1\nplayer: alice\nmove: {to: A2}\n")
    assert _verify_problems(d) == []
    (d / "orders/turn-002").mkdir(parents=True)
    write(d / "orders/turn-002/bob.yaml", "turn: 2\nplayer: bob\n")
    problems = _verify_problems(d)
    assert problems == [("orders/turn-002/bob.yaml", "verify.input_added")], problems


def _hunlu_with_dice(tmp_path: Path, name: str, turns: int) -> Path:
    """A 魂陆 duel whose first turn read forum dice stored by gm dice, ``turns`` turns resolved."""
    from gm_tool import app

    d = tmp_path / "c"
    app.new_campaign(d, "hunlu_duel", f"{name}-0123456789abcdef")
    app.store_dice(d, ["1", "2", "3", "4", "5", "6"] * 3)
    for _ in range(turns):
        app.resolve(d)
    return d


def test_an_edited_dice_file_is_named(gm, tmp_path):
    """魂陆 reads forum dice stored by gm dice: an edited _dice.yaml read as a log mismatch."""
    d = _hunlu_with_dice(tmp_path, "edited-dice", 2)
    dice = d / "orders/turn-001/_dice.yaml"
    assert "orders/turn-001/_dice.yaml" in json.loads((d / "log/turn-001.inputs.json").read_text("utf-8"))
    dice.write_text(dice.read_text("utf-8").replace("- 1\n", "- 6\n", 1), "utf-8")
    r = gm("verify", d, "--lang", "en", code=1)
    assert r.output.strip() == ("orders/turn-001/_dice.yaml: changed since turn 1 was resolved "
                                "(log/turn-001.inputs.json records what the turn read)"), r.output


def test_a_copied_final_state_is_named_as_a_turn_after_the_end(gm, tmp_path):
    """A state copied past the end read as "游戏已结束" (the campaign is over), naming nothing."""
    import shutil

    import yaml

    from gm_tool.app import BUNDLED

    scen = yaml.safe_load((BUNDLED / "skirmish.yaml").read_text("utf-8"))
    scen["rules"] = {"territory_after": 1}
    d = tmp_path / "over"
    gm("new", d, "--scenario", write(tmp_path / "short.yaml", yaml.safe_dump(scen, allow_unicode=True)),
       "--seed", "copied-final-state-0123456789")
    gm("resolve", d)
    assert json.loads(gm("status", d, "--json").output)["winner"]
    shutil.copy(d / "state/turn-001.json", d / "state/turn-002.json")
    shutil.copy(d / "log/turn-001.jsonl", d / "log/turn-002.jsonl")
    assert sorted(_verify_problems(d)) == [("log/turn-002.jsonl", "verify.after_end"), ("state/turn-002.json", "verify.after_end")]
    r = gm("verify", d, "--lang", "en", code=1)
    assert "state/turn-002.json: the game ended at turn 1; the replay has no turn 2" in r.output, r.output


def test_every_tampering_is_listed_each_naming_its_own_file(tmp_path):
    d = _campaign(tmp_path, turns=3)
    state = d / "state/turn-001.json"
    state.write_text(state.read_text("utf-8").replace('"hp": 4', '"hp": 3', 1), "utf-8")
    post = d / "reports/turn-003/alice.md"
    post.write_text(post.read_text("utf-8") + "edited\n", "utf-8")
    (d / "orders/turn-002").mkdir(parents=True)
    write(d / "orders/turn-002/heidi.yaml", "turn: 2\nplayer: heidi\n")
    (d / "reports/turn-000/public.bbcode").unlink()
    assert sorted(_verify_problems(d)) == [("orders/turn-002/heidi.yaml", "verify.input_added"),
                                           ("reports/turn-000/public.bbcode", "verify.mismatch"),
                                           ("reports/turn-003/alice.md", "verify.mismatch"),
                                           ("state/turn-001.json", "verify.mismatch")]


def test_a_scenario_that_no_longer_sets_up_is_named_with_every_other_tampering(tmp_path):
    """A scenario.yaml edited so that it no longer sets a game up stopped verify at its first
    problem: nothing else was looked at. It is named as changed since gm new, and the turns are
    proven from the stored turn 0, so an edited post is listed too."""
    d = _campaign(tmp_path)
    scenario = d / "scenario.yaml"
    scenario.write_text(scenario.read_text("utf-8") + "bogus_key: 1\n", "utf-8")
    post = d / "reports/turn-002/public.md"
    post.write_text(post.read_text("utf-8") + "edited\n", "utf-8")
    assert _verify_problems(d) == [("scenario.yaml", "verify.input_changed"),
                                   ("reports/turn-002/public.md", "verify.mismatch")]


def test_a_gm_edit_added_after_its_turn_is_named_as_added(tmp_path):
    """A GM edit that was never valid, added after the turn it opens was resolved, was refused by
    its own words only; the record shows the turn never read it."""
    d = _campaign(tmp_path)
    (d / "amendments/after-001").mkdir(parents=True)
    write(d / "amendments/after-001/001.yaml", "action: set_hp\nargs: [medea, 99]\nreason: x\n")
    post = d / "reports/turn-001/public.md"
    post.write_text(post.read_text("utf-8") + "edited\n", "utf-8")
    assert sorted(_verify_problems(d)) == [("amendments/after-001/001.yaml", "verify.input_added"),
                                           ("reports/turn-001/public.md", "verify.mismatch")]


def test_a_read_only_copy_with_a_half_finished_rollback_verifies(gm, tmp_path, monkeypatch):
    """A copy on a read-only disk (EROFS) of a folder whose rollback was killed half-way: verify
    could not finish the rollback and failed with the OS error (only EACCES was handled). It now
    reads the copy as it is: the turns the rollback goes back to are proven, those it sets aside
    are named in a note."""
    import errno

    from gm_tool import app
    from gm_tool.core import store
    from tests.test_crash import _fork_all

    d = _campaign(tmp_path, turns=2)
    # steps: the journal (2), state 2, state 1, then logs and posts: killed once both states moved
    assert _fork_all({4: lambda: app.rollback(d, 0)}) == {4: -9}
    assert store.Campaign(d).pending_rollback() == 0 and (d / "reports/turn-001").is_dir()
    before = tree(d)

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(args[0]) if args else None)

    monkeypatch.setattr(store, "move", read_only)
    monkeypatch.setattr(store.tempfile, "mkstemp", read_only)
    result = app.verify(d)
    assert result["turns"] == 0 and [n["kind"] for n in result["notes"]] == ["pending_rollback"]
    assert tree(d) == before
    r = gm("verify", d, "--lang", "en")
    assert "a gm rollback to turn 0 was left half done and this copy cannot be written to finish it" in r.output, r.output
    monkeypatch.undo()
    app.verify(d)  # writable again: the rollback is finished first
    assert store.Campaign(d).pending_rollback() is None and not (d / "reports/turn-001").exists()


def test_a_seed_is_compared_in_one_normal_form(gm, tmp_path):
    """gm new --seed é (composed) and gm verify --seed é (decomposed, as macOS pastes it) gave two
    commitments; the seed is stored in NFC and verify tries the forms."""
    import unicodedata

    composed = "caf\u00e9-seed-0123456789abcdefghij"
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed
    d = tmp_path / "c"
    gm("new", d, "--scenario", "skirmish", "--seed", decomposed)
    assert (d / "secret/seed").read_text("utf-8") == composed + "\n"
    gm("resolve", d)
    gm("verify", d, "--seed", composed)
    gm("verify", d, "--seed", decomposed)


# disk full ------------------------------------------------------------------------------------------
def _full_disk_after(monkeypatch, module, k: int) -> None:
    """Writes through ``module.open`` fail with ENOSPC (naming no file, as a write does) from the
    ``k``-th file on."""
    import builtins
    import errno

    opened = [0]

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    def fake_open(path, mode="r", *args, **kwargs):
        fh = builtins.open(path, mode, *args, **kwargs)
        if "w" in mode:
            opened[0] += 1
            if opened[0] >= k:
                return Full(fh)
        return fh

    monkeypatch.setattr(module, "open", fake_open, raising=False)


def test_a_full_disk_names_the_file_and_removes_the_stage_at_once(gm, tmp_path, monkeypatch):
    """Writing a turn's posts on a full disk said "?: the disk is full", and left the staging
    folder (which holds what fitted) until the next command swept it."""
    from gm_tool.core import store

    d = _campaign(tmp_path, turns=1)
    before = tree(d)
    _full_disk_after(monkeypatch, store, 3)
    r = gm("resolve", d, "--lang", "en", code=1)
    monkeypatch.undo()
    assert "/reports/turn-002/" in r.output and "the disk is full" in r.output and "?:" not in r.output, r.output
    assert not [p for p in (d / "reports").iterdir() if p.name.endswith(".stage")]
    assert tree(d) == before
    gm("resolve", d)
    gm("verify", d)


def test_a_full_disk_on_a_single_file_names_it(gm, tmp_path, monkeypatch):
    import errno

    from gm_tool.core import store

    d = _campaign(tmp_path, turns=1)
    h = _campaign(tmp_path, "hunlu_duel", 0, "h")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store.os, "fsync", full)
    r = gm("dice", h, "3", "--lang", "en", code=1)
    assert "orders/turn-001/_dice.yaml: the disk is full" in r.output, r.output
    r = gm("amend", d, "set-hp", "medea", "3", "--reason", "x", "--lang", "en", code=1)
    assert "amendments/after-001/001.yaml: the disk is full" in r.output, r.output
    assert not list(d.rglob("*.tmp"))


@pytest.mark.parametrize("in_place", [False, True], ids=["new-folder", "empty-folder"])
def test_a_full_disk_at_new_names_the_file_in_the_campaign(gm, tmp_path, monkeypatch, in_place):
    """gm new on a full disk named its staging copy (.c.k2x9.stage/secret/seed), a path the GM
    never sees; it names the file where it was to be, and leaves nothing."""
    import errno

    from gm_tool.core import store

    d = tmp_path / "c"
    if in_place:
        d.mkdir()

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store.os, "fsync", full)
    r = gm("new", d, "--scenario", "skirmish", "--lang", "en", code=1)
    monkeypatch.undo()
    assert f"{d}{os.sep}secret{os.sep}seed: the disk is full" in r.output and ".stage" not in r.output, r.output
    assert r.output.strip().endswith("run gm new again; nothing was created"), r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == (["c"] if in_place else [])
    assert not in_place or not list(d.iterdir())


# one budget for a whole verify of a foreign campaign's templates ---------------------------------------
def test_campaign_templates_share_one_time_budget_for_a_whole_verify(gm, tmp_path, monkeypatch):
    """A template just under the per-post 60 s made an 11-turn verify take 22 minutes: the limit
    was per post. All the campaign's templates now share one budget for the whole command."""
    from gm_tool.core import render

    d = _campaign(tmp_path, turns=2)
    monkeypatch.setattr(render, "MAX_RUN_SECONDS", 1.0, raising=False)
    render.environment.cache_clear()
    (d / "templates").mkdir()
    loop = "{% for a in range(100000) %}{% for b in range(20) %}{% endfor %}{% endfor %}"
    write(d / "templates/public.j2", loop + "\n")
    write(d / "templates/private.j2", loop + "\n")
    r = gm("verify", d, "--seed", "whole-folder-skirmish-0123456789abcdef", "--lang", "en", code=1)
    render.environment.cache_clear()
    assert "templates/p" in r.output and "used up this command's time (1 s for all posts together)" in r.output, r.output


def test_a_planted_forum_journal_renders_within_the_same_budget(gm, tmp_path, monkeypatch):
    """A stranger's folder holding a gm forum journal (.rerender-pending.json) made verify render
    every post again before its budget began, each post with its own limit only, as in the
    22-minute verify. What a killed command left is now finished within the command's budget."""
    from gm_tool.core import render, store

    d = _campaign(tmp_path, turns=2)
    (d / "templates").mkdir()
    write(d / "templates/public.j2", "{{ turn }} {{ 'x' * 3 }}\n")
    write(d / store.RERENDER, json.dumps({"forum": {}, "before": {}}))
    budgets = []
    limits = render._limits

    def spy():
        budgets.append(render._BUDGET.get() is not None)
        return limits()

    monkeypatch.setattr(render, "_limits", spy)
    render.environment.cache_clear()
    gm("verify", d)  # the journal is finished first: the posts are rendered with the new template
    render.environment.cache_clear()
    assert budgets and all(budgets), budgets
    assert (d / "reports/turn-002/public.md").read_text("utf-8") == "2 xxx\n"


def test_campaign_templates_share_one_memory_budget(tmp_path):
    """Templates keeping what they built (a compile folds constants: each template may keep up to
    the per-render limit) reached 1.26 GB in one verify; what they keep now adds up to one
    budget. Run in a fresh process: a long-lived one may reuse freed memory and not grow."""
    import subprocess
    import sys

    d = _campaign(tmp_path, turns=1)
    (d / "templates").mkdir()
    for name in ("opening_public.j2", "opening.j2", "public.j2", "private.j2"):  # each keeps ~20-40 MB
        write(d / "templates" / name, '{% set big = "x" | center(20000000) %}{{ big[:3] }}\n')
    code = ("import sys; from gm_tool.core import render; render.MAX_RUN_MEMORY = 100 << 20; "
            "from gm_tool.cli import app; app(sys.argv[1:])")
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, "-c", code, "verify", str(d), "--lang", "en"], capture_output=True, text=True,
                       cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, timeout=300)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "templates/" in r.stderr and ("used up this command's" in r.stderr or "builds too much text" in r.stderr), r.stderr


def test_removed_opening_posts_are_named(tmp_path):
    """A campaign gm new made whole (it records its inputs) has opening posts: removing them all
    passed, as for a campaign of a version before them."""
    import shutil

    d = _campaign(tmp_path, turns=1)
    names = sorted(p.name for p in (d / "reports/turn-000").iterdir())
    shutil.rmtree(d / "reports/turn-000")
    assert _verify_problems(d) == [(f"reports/turn-000/{name}", "verify.mismatch") for name in names]


def test_a_folder_moved_aside_by_a_killed_swap_is_put_back(tmp_path):
    """atomic_dir moves the old folder aside (.NAME.old) before putting the new one in its place;
    a kill in between left NAME missing, and the sweep then deleted .NAME.old, its only copy (gm
    forum lost the opening posts that way). The sweep puts it back."""
    from gm_tool.core.store import Campaign

    d = _campaign(tmp_path, turns=1)
    before = tree(d)
    (d / "reports/turn-000").rename(d / "reports/.turn-000.old")
    assert Campaign(d).needs_recovery()
    Campaign(d).sweep()
    assert tree(d) == before


# what a turn read, and its record ----------------------------------------------------------------
def test_a_removed_record_of_inputs_is_named(gm, tmp_path):
    """Removing log/turn-002.inputs.json passed, and removing turn 1's before editing its forum
    dice turned the edit back into a log mismatch (the turn was taken for one resolved before
    records were kept). Once a turn has its record, every later turn must have one."""
    d = _hunlu_with_dice(tmp_path, "removed-record", 3)
    (d / "log/turn-002.inputs.json").unlink()
    assert _verify_problems(d) == [("log/turn-002.inputs.json", "verify.record_missing")]
    (d / "log/turn-001.inputs.json").unlink()
    dice = d / "orders/turn-001/_dice.yaml"
    dice.write_text(dice.read_text("utf-8").replace("- 1\n", "- 6\n", 1), "utf-8")
    problems = _verify_problems(d)
    assert {("log/turn-001.inputs.json", "verify.record_missing"),
            ("log/turn-002.inputs.json", "verify.record_missing")} <= set(problems), problems
    r = gm("verify", d, "--lang", "en", code=1)
    assert "log/turn-001.inputs.json: turn 1's record of its inputs is missing" in r.output, r.output


def test_an_edited_record_is_not_blamed_on_the_file_it_lists(gm, tmp_path):
    """A record of inputs edited while the file it lists was not said that file "changed since
    turn 1 was resolved": the turn replays the same from the file as it is, so the record may be
    the one changed, and both are named."""
    d = _hunlu_with_dice(tmp_path, "edited-record", 2)
    record = d / "log/turn-001.inputs.json"
    record.write_text(json.dumps({"orders/turn-001/_dice.yaml": "0" * 64}), "utf-8")
    assert _verify_problems(d) == [("orders/turn-001/_dice.yaml", "verify.input_or_record")]
    r = gm("verify", d, "--lang", "en", code=1)
    assert r.output.strip() == ("orders/turn-001/_dice.yaml: not what log/turn-001.inputs.json records, yet turn 1 "
                                "replays the same from it as it is now: this file or that record was changed since "
                                "the turn was resolved"), r.output
    dice = d / "orders/turn-001/_dice.yaml"  # the file changed as well: the outcome differs, the file is named
    dice.write_text(dice.read_text("utf-8").replace("- 1\n", "- 6\n", 1), "utf-8")
    assert _verify_problems(d) == [("orders/turn-001/_dice.yaml", "verify.input_changed")]


def _read_only_mount(src: Path, dst: Path) -> list[str] | None:
    """A command prefix running under a private mount namespace where ``dst`` is ``src`` bind-
    mounted read-only (writes there fail with EROFS, even for root); None where that is not
    allowed (no unshare, no CAP_SYS_ADMIN)."""
    import shutil
    import subprocess

    if shutil.which("unshare") is None:
        return None
    dst.mkdir()
    script = 'mount --bind "$1" "$2" && mount -o remount,ro,bind "$2" && shift 2 && exec "$@"'
    prefix = ["unshare", "-m", "sh", "-c", script, "sh", str(src), str(dst)]
    probe = subprocess.run([*prefix, "sh", "-c", f'! touch "{dst}/.probe" 2>/dev/null'], capture_output=True)
    return prefix if probe.returncode == 0 and not (src / ".probe").exists() else None


def test_a_read_only_mount_of_a_half_done_rollback_or_forum_verifies(tmp_path):
    """The same on a real read-only file system (EROFS from the kernel, not a patched call): a
    copy of a folder whose gm rollback was killed half-way, and one whose gm forum was killed
    after one turn's posts folder was moved aside and before its successor took its place."""
    import shutil
    import subprocess
    import sys

    from gm_tool import app
    from gm_tool.core import store
    from tests.test_crash import _fork_all, _steps

    rolled = _campaign(tmp_path, turns=2, name="rolled")
    assert _fork_all({4: lambda: app.rollback(rolled, 0)}) == {4: -9}
    forum = _campaign(tmp_path, turns=2, name="forum")
    probe = tmp_path / "probe"
    shutil.copytree(forum, probe)
    total = _steps(lambda: app.set_forum(probe, dialect="phpbb"))
    for k in range(total, 0, -1):  # the last turn's folder moved aside by atomic_dir, the new not in yet
        shutil.rmtree(probe)
        shutil.copytree(forum, probe)
        assert _fork_all({k: lambda: app.set_forum(probe, dialect="phpbb")}) == {k: -9}
        if store.Campaign(probe).half_swapped():
            break
    assert store.Campaign(probe).half_swapped() and (probe / store.RERENDER).exists()
    forum = probe
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    words = {"rolled": "a gm rollback to turn 0 was left half done and this copy cannot be written to finish it",
             "forum": "a gm forum was left half done and this copy cannot be written to finish it"}
    for name, d in (("rolled", rolled), ("forum", forum)):
        prefix = _read_only_mount(d, tmp_path / f"ro-{name}")
        if prefix is None:
            pytest.skip("no read-only mount here (unshare -m and mount need CAP_SYS_ADMIN)")
        before = tree(d)
        r = subprocess.run([*prefix, sys.executable, "-m", "gm_tool", "verify", str(tmp_path / f"ro-{name}"), "--lang", "en"],
                           capture_output=True, text=True, env=env, cwd=root, timeout=300)
        assert r.returncode == 0 and words[name] in r.stdout, (name, r.stdout, r.stderr)
        assert tree(d) == before


@pytest.mark.parametrize("edit", ["lang: en", "forum: {dialect: phpbb}"])
def test_a_hand_edit_of_campaign_settings_is_named_as_campaign_yaml(gm, tmp_path, edit):
    """campaign.yaml's lang or forum settings edited by hand after the posts were written made
    every post of every turn differ, and verify named each post (dozens of lines) and never the
    file that changed. The states and logs replay exactly, so it is one problem on campaign.yaml."""
    from gm_tool.core import safeyaml as sy

    d = _campaign(tmp_path)
    meta = d / "campaign.yaml"
    data = sy.load_mapping(meta)
    key, _, value = edit.partition(": ")
    data[key] = sy.loads(f"v: {value}\n", "x.yaml")["v"]
    import yaml

    meta.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    assert _verify_problems(d) == [("campaign.yaml", "verify.settings")]
    r = gm("verify", d, "--lang", "en", code=1)
    assert "campaign.yaml: every turn's posts differ from the replay" in r.output, r.output
    assert "over 3 turns" in r.output and "reports/turn-000/" in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_one_edited_post_is_still_named_by_its_own_file(gm, tmp_path):
    """A post edited by hand is that post's problem, not campaign.yaml's."""
    d = _campaign(tmp_path)
    post = next((d / "reports" / "turn-001").glob("*.md"))
    write(post, post.read_text("utf-8") + "edited\n")
    assert _verify_problems(d) == [(str(post.relative_to(d)), "verify.mismatch")]
