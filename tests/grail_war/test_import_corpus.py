"""`gm import` on a corpus of private messages in the seed's styles (issue 23): numbered lines,
the option headings of seed l.71, 78, 85-87, a question and its answer on one line, colons,
brackets, counts (l.77 "可注明出杀的张数"), class moves (l.151-154), destinations on their own line
and chat. Every message becomes a sheet that passes `gm check`, holding what the message says,
and every word the importer did not use is reported with its line (nothing dropped silently)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from gm_tool import app as ops
from gm_tool.rulesets.grail_war import data
from gm_tool.rulesets.grail_war.importer import read_message
from tests.conftest import write

HERE = Path(__file__).parent / "messages"
CORPUS = yaml.safe_load((HERE / "corpus.yaml").read_text("utf-8"))
HAND = ["杀", "闪", "宝石", "咒", "杀", "闪"]


def corpus_scenario() -> dict[str, Any]:
    """The bundled fuyuki map with strongholds 3 (F10) and 4 (C11) red's, and servants placed for
    the corpus's moves (a RIDER by the river, a LANCER under the high ground, a BERSERKER by
    stronghold 5), each with a hand its messages name."""
    board = copy.deepcopy(data.load("maps/fuyuki"))
    for s in board["strongholds"]:
        if s["id"] in (3, 4):
            s["owner"] = "red"
    c = lambda cid, name, cls, side, player, pos, hand=HAND, **kw: {  # noqa: E731
        "id": cid, "name": name, "class": cls, "side": side, "player": player, "pos": pos, "hand": list(hand), **kw}
    return {"ruleset": "grail_war", "name": "corpus", "sides": ["red", "blue"], "map": board, "rules": {"decks": 2},
            "characters": [
                c("artoria", "阿尔托利亚", "CASTER", "red", "alice", "F10", ["杀", "闪", "杀", "万法破尽", "王之财宝", "宝石"],
                  equipment={"weapon": "万华杖", "armor": "正式外典"}),
                c("gawain", "高文", "SABER", "red", "bob", "D11"),
                c("emiya", "卫宫", "ARCHER", "red", "carol", "E7"),
                c("cu_chulainn", "库丘林", "LANCER", "red", "dave", "A5", ["杀", "杀", "闪", "宝石", "咒", "王之军势"]),
                c("medusa", "美杜莎", "RIDER", "red", "erin", "I5"),
                c("heracles", "赫拉克勒斯", "BERSERKER", "red", "grace", "C7"),
                c("iskandar", "伊斯坎达尔", "RIDER", "blue", "niaj", "K7"),
                c("medea", "美狄亚", "CASTER", "blue", "heidi", "T11"),
                c("mordred", "莫德雷德", "SABER", "blue", "ivan", "Q11")]}


@pytest.fixture(scope="module")
def corpus_campaign(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("corpus")
    path = write(tmp / "corpus.yaml", yaml.safe_dump(corpus_scenario(), allow_unicode=True))
    ops.new_campaign(tmp / "c", str(path), "corpus-seed-0123456789abcdef")
    return tmp / "c"


def _text(entry: dict[str, Any]) -> str:
    return (HERE / entry["file"]).read_text("utf-8") if "file" in entry else entry["message"]


def test_the_corpus_holds_thirty_messages_or_more():
    assert len(CORPUS) >= 30


@pytest.mark.parametrize("entry", CORPUS, ids=[e["name"] for e in CORPUS])
def test_each_message_becomes_the_sheet_it_asks_for_with_every_unused_word_reported(entry, corpus_campaign, tmp_path):
    text = _text(entry)
    state = ops.open_campaign(corpus_campaign).state()
    got = read_message(state, text, "pm.txt", "zh", entry.get("player"))
    for key, value in entry["sheet"].items():
        assert got.sheet.get(key) == value, (key, got.lines)
    assert set(got.sheet) - {"回合", "玩家"} == set(entry["sheet"]), got.lines
    unused = {n: words for n, words in got.unused.items() if words}
    assert unused == (entry.get("unused") or {}), got.lines
    for n, _, said in got.lines:  # each unused word is on its line of the reading
        for word in unused.get(n, []):
            assert f"「{word}」" in said
    message = write(tmp_path / "pm.txt", text)
    result = ops.import_message(corpus_campaign, message, entry.get("player"), "zh")  # checked like gm check
    (_, orders), = ops.check_files(ops.open_campaign(corpus_campaign),
                                   [write(tmp_path / "pm.yaml", result["yaml"])], "zh").values()
    assert orders.player == result["player"]
