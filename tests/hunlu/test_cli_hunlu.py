"""魂陆 through the CLI, as the contract writes it: new, template, check, submit, dice, resolve,
report, show, status, amend, verify, rollback, demo."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import write


def test_night_through_the_cli(tmp_path, gm):
    """seed l.85: "第一人回合：在此时只有第一魂将可以行动" (one sheet is one general's turn)"""
    d = tmp_path / "c"
    gm("new", d, "--scenario", "hunlu_duel", "--seed", "hunlu-cli-seed-0123456789abcdef")
    state = json.loads(gm("show", d, "--json").stdout)
    nxt = state["next"]
    assert state["turn"] == 0 and state["round"] == 1 and nxt["player"] in ("alice", "bob")
    assert "第1回合，第1步" in gm("status", d).stdout  # seed l.81: 回合 is the big round
    sheet = write(tmp_path / "s.yaml", f"turn: 1\nplayer: {nxt['player']}\nactions:\n  - move: Z1\n")
    out = gm("check", d, sheet, code=1)
    assert "actions.0.move" in out.output
    write(sheet, f"turn: 1\nplayer: {nxt['player']}\nactions: []\n")
    gm("check", d, sheet)
    gm("submit", d, sheet)
    assert gm("dice", d, "9", code=None).exit_code != 0
    gm("dice", d, "4", "2", "--note", "帖子 #3")
    gm("resolve", d)
    assert (d / "reports" / "turn-001" / "public.md").exists()
    assert "论坛骰" in gm("report", d, "--format", "markdown").stdout
    after = json.loads(gm("show", d, "--json").stdout)
    assert after["turn"] == 1
    gm("amend", d, "set-shen", nxt["unit"], "5", "--reason", "测试")
    gm("resolve", d)
    assert json.loads(gm("show", d, "--json").stdout)["turn"] == 2
    gm("verify", d)
    gm("rollback", d, "--to", "1")
    assert json.loads(gm("show", d, "--json").stdout)["turn"] == 1


def test_other_player_view_hides_standing(tmp_path, gm):
    """seed l.120: "选择一张卡牌扣在自己面前" (gm show --player hides others' standing orders)"""
    d = tmp_path / "c"
    gm("new", d, "--scenario", "hunlu_duel", "--seed", "hunlu-cli-seed-0123456789abcdef")
    state = json.loads(gm("show", d, "--json").stdout)
    due = state["next"]["player"]
    other = "alice" if due == "bob" else "bob"
    unit = next(u["id"] for u in state["units"] if u["player"] == due)
    write(tmp_path / "o.yaml", f"turn: 1\nplayer: {due}\nstanding:\n  心战: {{{unit}: A}}\n")
    gm("submit", d, tmp_path / "o.yaml")
    gm("resolve", d)
    assert due not in json.loads(gm("show", d, "--json", "--player", other).stdout)["standing"]
    assert json.loads(gm("show", d, "--json", "--player", due).stdout)["standing"][due]["heart_card"] == {unit: "A"}


ACTING = ("turn_start", "move", "attack", "skill", "joint_attack", "dash", "status", "strike", "heal", "regen")


@pytest.mark.parametrize("scenario", ["hunzhan", "hunlu_duel"])
def test_demo_plays_to_the_end_in_words(tmp_path, gm, scenario):
    """seed l.6: "当其中一方的魂将全部死亡时，即宣告游戏结束。" (both bundled demos end; no post says
    None or a code, no dead general acts, nothing follows the winner)"""
    d = tmp_path / "demo"
    gm("demo", d, "--scenario", scenario)
    state = json.loads(gm("show", d, "--json").stdout)
    assert state["winner"] in ("red", "blue", "draw")
    known = {u["id"] for u in state["units"]} | set(state["players"]) | {state["name"], "gm", "template"}
    known |= {"DONE", "NOW", "NEXT", "map", "public", "png", "sha"}  # the picture's own words, its file
    for path in sorted((d / "reports").glob("turn-*/*.md")):
        text = re.sub(r"```.*?```", "", path.read_text("utf-8"), flags=re.S)  # the sheets are code
        text = re.sub(r"sha256: [0-9a-f]{64}", "", text)  # the seed's commitment
        words = set(re.findall(r"[A-Za-z_]{3,}", text.replace("\\_", "_"))) - known
        assert "None" not in text and not words, (path, words)
    dead: set[str] = set()
    for path in sorted((d / "log").glob("turn-*.jsonl")):
        over = False
        for e in map(json.loads, path.read_text("utf-8").splitlines()):
            assert not over or e["type"] in ("turn_end", "next"), (path, e)
            assert not (e["type"] in ACTING and e.get("unit") in dead), (path, e)
            if e["type"] == "death":
                dead.add(e["unit"])
            over = over or e["type"] == "victory"


def test_hostile_dice_file_refused(tmp_path, gm):
    """seed l.47: "扔一次骰子，上面显示的数值即为判定结果" (a hand-written _dice.yaml with a bad face: exit 1)"""
    d = tmp_path / "c"
    gm("new", d, "--scenario", "hunlu_duel", "--seed", "hunlu-cli-seed-0123456789abcdef")
    (d / "orders" / "turn-001").mkdir(parents=True, exist_ok=True)
    for bad, field in (("dice: [3, 7]\n", "dice.1"), ("dice: [2.5]\n", "dice.0"), ("dice: [true]\n", "dice.0")):
        write(d / "orders" / "turn-001" / "_dice.yaml", bad)
        out = gm("resolve", d, code=1).output
        assert "_dice.yaml" in out and field in out
    assert json.loads(gm("show", d, "--json").stdout)["turn"] == 0


def test_standing_sheet_of_a_player_not_due(tmp_path, gm):
    """seed l.64: "在自己回合外...自己可以选择" (a player not due sends standing orders; they apply at once)"""
    d = tmp_path / "c"
    gm("new", d, "--scenario", "hunlu_duel", "--seed", "hunlu-cli-seed-0123456789abcdef")
    state = json.loads(gm("show", d, "--json").stdout)
    other = "alice" if state["next"]["player"] == "bob" else "bob"
    unit = next(u["id"] for u in state["units"] if u["player"] == other)
    write(tmp_path / "o.yaml", f"turn: 1\nplayer: {other}\nstanding:\n  心战: {{{unit}: A}}\n")
    gm("submit", d, tmp_path / "o.yaml")
    gm("resolve", d)
    assert json.loads(gm("show", d, "--json", "--player", other).stdout)["standing"][other]["heart_card"] == {unit: "A"}
    gm("verify", d)
