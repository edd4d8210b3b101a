"""Hostile input (issue 6): sheets and scenarios from strangers are refused with one clear line,
exit code 1, bounded work, no traceback, nothing changed."""

from __future__ import annotations

import os

import pytest

from gm_tool.core import safeyaml
from gm_tool.core.store import safe_name
from gm_tool.errors import GmError
from tests.conftest import tree

BOMB = "".join(f"{c}: &{c} [" + ", ".join([f"*{p}" if p else "x"] * 10) + "]\n"
               for p, c in zip(["", "a", "b", "c", "d", "e", "f", "g"], "abcdefgh"))

CASES = {
    "huge": (b"turn: 1\nplayer: alice\n# " + b"x" * (safeyaml.MAX_BYTES + 10) + b"\n", "too large"),
    "bomb": (BOMB.encode(), "too many nodes"),
    "deep_flow": (b"turn: 1\nplayer: alice\nmove: " + b"[" * 100_000 + b"\n", "nested too deeply"),
    "deep_block": ("".join(" " * i + "- \n" for i in range(200)).encode(), "nested too deeply"),
    "recursive": (b"turn: 1\nplayer: alice\nkeep: &k [*k]\n", "refers to itself"),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    "utf16": ("turn: 1\nplayer: alice\n".encode("utf-16"), "UTF-16"),
    "gbk": ("turn: 1\nplayer: alice\ngem: 不用\n".encode("gbk"), "GBK"),
    "latin1": ("turn: 1\nplayer: alice\n# caf\xe9 \xff\xfe\xfd\n".encode("latin-1"), "not UTF-8"),
    "python_tag": (b"!!python/object/apply:os.system ['echo owned']\n", "YAML syntax error"),
    "control": (b"turn: 1\nplayer: alice\x07\n", "control characters"),
    "bigint": (b"turn: " + b"9" * 5000 + b"\nplayer: alice\n", "unreadable value"),
    "bad_date": (b"turn: 1\nplayer: alice\nkeep: 2001-13-45\n", "unreadable value"),
    "two_docs": (b"turn: 1\nplayer: alice\n---\nturn: 1\n", "more than one YAML document"),
    "not_mapping": (b"- turn: 1\n", "must be a mapping"),
    "bad_key": (b"turn: 1\nplayer: alice\n[1, 2]: x\n", "YAML syntax error"),
    "int_key": (b"turn: 1\nplayer: alice\n7: x\n", "keys must be strings"),
    "undefined_alias": (b"turn: 1\nplayer: *nobody\n", "undefined alias"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_sheet_is_refused_cleanly(gm, skirmish, tmp_path, name):
    data, words = CASES[name]
    f = tmp_path / f"{name}.yaml"
    f.write_bytes(data)
    before = tree(skirmish)
    for command in ("check", "submit"):
        r = gm(command, skirmish, f, "--lang", "en", code=1)
        assert words in r.output, r.output
        assert f"{name}.yaml" in r.output
        assert len(r.output.strip().splitlines()) == 1
        assert "internal error" not in r.output
    assert tree(skirmish) == before


def test_hostile_scenario_is_refused(gm, tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(BOMB, "utf-8")
    r = gm("new", tmp_path / "x", "--scenario", f, "--lang", "en", code=1)
    assert "too many nodes" in r.output and not (tmp_path / "x").exists()


def test_special_files_are_refused(gm, skirmish, tmp_path):
    r = gm("check", skirmish, tmp_path, "--lang", "en", code=1)
    assert "not a regular file" in r.output
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    r = gm("check", skirmish, fifo, "--lang", "en", code=1)  # would block forever if read
    assert "not a regular file" in r.output


def test_aliases_within_bounds_still_work():
    data = safeyaml.loads("a: &a {x: 1}\nb: *a\nc: [*a, {y: 2}]\n", "t")
    assert data == {"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"y": 2}]}


def test_alias_expansion_counts_toward_depth():
    nest = "a: &a " + "[" * 25 + "x" + "]" * 25 + "\nb: " + "[" * 20 + "*a" + "]" * 20 + "\n"
    with pytest.raises(GmError) as exc:
        safeyaml.loads(nest, "t")
    assert exc.value.problems[0].code == "yaml.too_deep"


@pytest.mark.parametrize("name, ok", [
    ("alice", True), ("阿尔托利亚", True), ("bob_2", True), ("x-y", True),
    ("../x", False), ("/etc", False), ("a/b", False), ("a\\b", False), ("", False), (".", False),
    ("..", False), ("a.b", False), ("a b", False), ("public", False), ("Public", False), ("files", False),
    ("CON", False), ("lpt1", False), ("x" * 65, False), ("\u212b", False), ("\uf900", False),
    ("ａｌｉｃｅ", False), ("a\x00b", False), (None, False), (7, False),
])
def test_safe_name(name, ok):
    assert safe_name(name) is ok
