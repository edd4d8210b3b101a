"""Trust, third round (issue 24): `gm verify` proves the whole folder, no GM input can wedge a
campaign, bad input gets a clear error. One section per item of the issue; each test failed on
the code before its fix (the commit that fixes it names the test)."""

from __future__ import annotations

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
