"""The core, tested without the grail war: the toy sequential ruleset (tests/toy) is driven
through every command of the CLI. A missing sheet in a pass game is a pass, and the core says
so; forum dice come first; GM edits come from the ruleset's own specs; verify replays it all."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from gm_tool.core import ruleset as registry
from tests.conftest import write

RACE = Path(__file__).parent / "toy" / "race.yaml"


@pytest.fixture
def race(tmp_path: Path, gm) -> Path:
    d = tmp_path / "race"
    gm("new", d, "--scenario", RACE, "--seed", "toy-seed-0123456789abcdef")
    return d


def state(d: Path, n: int) -> dict:
    return json.loads((d / "state" / f"turn-{n:03d}.json").read_text("utf-8"))


def test_the_toy_is_sequential_and_passes_on_a_missing_sheet():
    rs = registry.get("toy")
    assert (rs.turn_kind, rs.missing_sheet, rs.uses_dice_file) == (registry.SEQUENTIAL, registry.PASS, True)


def test_status_names_the_one_player_due_and_says_a_missing_sheet_passes(race, gm):
    s = json.loads(gm("status", race, "--json", "--lang", "en").output)
    assert s["turn_kind"] == "sequential" and s["due"] == ["ann"] and s["missing"] == ["ann"]
    assert s["passes"] == ["ann"] and s["defaults"] == {"ann": "passes (no sheet is a pass)"}
    out = gm("status", race, "--lang", "en").output
    assert "Due: ann" in out and "ann: passes (no sheet is a pass)" in out


def test_resolve_without_a_sheet_is_a_pass_told_in_the_posts(race, gm):
    out = gm("resolve", race, "--lang", "en").output
    assert "Sent no sheet and passed: ann" in out
    after = state(race, 1)
    assert [r["pos"] for r in after["runners"]] == [0, 0] and after["next"] == "ben"
    assert "**ann** 本回合放弃。" in (race / "reports/turn-001/public.md").read_text("utf-8")


def test_a_sheet_moves_by_step_plus_the_forum_die_then_the_seeded_one(race, gm, tmp_path):
    sheet = write(tmp_path / "ann.yaml", "turn: 1\nplayer: ann\nstep: 2\n")
    gm("submit", race, sheet)
    gm("dice", race, "4", "--note", "forum post #12")
    assert yaml.safe_load((race / "orders/turn-001/_dice.yaml").read_text("utf-8")) == {"dice": [4], "note": "forum post #12"}
    assert json.loads(gm("status", race, "--json").output)["dice"] == [4]
    gm("resolve", race)
    assert state(race, 1)["runners"][0]["pos"] == 6  # 2 + the forum's 4
    log = [json.loads(x) for x in (race / "log/turn-001.jsonl").read_text("utf-8").splitlines()]
    assert [e["die"] for e in log if e["type"] == "run"] == [4]
    assert not any(e["type"] == "chance" for e in log)  # no seeded die was needed
    gm("submit", race, write(tmp_path / "ben.yaml", "turn: 2\nplayer: ben\nstep: 1\n"))
    gm("resolve", race)
    log = [json.loads(x) for x in (race / "log/turn-002.jsonl").read_text("utf-8").splitlines()]
    rolled = [e["result"] for e in log if e["type"] == "chance"]
    assert len(rolled) == 1 and state(race, 2)["runners"][1]["pos"] == 1 + rolled[0]


def test_bad_forum_dice_are_refused_and_nothing_is_written(race, gm):
    for bad in ("7", "0", "x", "3.5", "７"):  # a full-width ３ reads as 3 (issue 20), a ７ is still 7
        r = gm("dice", race, "2", bad, "--lang", "en", code=1)
        assert "dice.1" in r.output and "allowed: integers 1-6" in r.output
    assert not (race / "orders/turn-001/_dice.yaml").exists()


def test_a_hand_written_dice_file_out_of_range_names_file_and_field(race, gm):
    (race / "orders/turn-001").mkdir(parents=True)
    write(race / "orders/turn-001/_dice.yaml", "dice: [3, 9]\n")
    r = gm("resolve", race, "--lang", "en", code=1)
    assert "_dice.yaml" in r.output and "dice.1" in r.output and "9" in r.output


def test_a_sheet_from_the_player_not_due_is_refused(race, gm, tmp_path):
    r = gm("check", race, write(tmp_path / "b.yaml", "turn: 1\nplayer: ben\nstep: 1\n"), "--lang", "en", code=1)
    assert "player: it is ann's turn" in r.output


def test_template_validates_and_show_hides_the_other_runners_token(race, gm, tmp_path):
    text = gm("template", race, "ann").output
    gm("check", race, write(tmp_path / "t.yaml", text))
    mine = json.loads(gm("show", race, "--player", "ann", "--json").output)
    tokens = {r["id"]: r["token"] for r in mine["runners"]}
    assert isinstance(tokens["ann"], int) and tokens["ben"] is None
    full = json.loads(gm("show", race, "--json").output)
    assert all(isinstance(r["token"], int) for r in full["runners"])


def test_private_posts_hold_only_the_readers_secret(race, gm):
    gm("resolve", race)
    s = state(race, 1)
    tokens = {r["id"]: r["token"] for r in s["runners"]}
    ann = (race / "reports/turn-001/ann.bbcode").read_text("utf-8")
    public = (race / "reports/turn-001/public.md").read_text("utf-8")
    assert f"[b]你的秘密数字[/b] {tokens['ann']}" in ann and "秘密" not in public
    assert str(tokens["ben"]) not in ann.split("[b]你的秘密数字[/b]")[1]
    assert (race / "reports/turn-001/map-public.png").read_bytes()[:4] == b"\x89PNG"
    assert gm("report", race, "--player", "ben", "--lang", "en").output.count("秘密") == 1


def test_amend_uses_the_rulesets_specs_and_is_replayed(race, gm):
    r = gm("amend", race, "set-pos", "ann", "--reason", "x", "--lang", "en", code=1)
    assert "set_pos takes: RUNNER CELL (got 1)" in r.output
    r = gm("amend", race, "set-pos", "ann", "two", "--reason", "x", "--lang", "en", code=1)
    assert "argument cell must be an integer" in r.output
    r = gm("amend", race, "set-hp", "ann", "1", "--reason", "x", "--lang", "en", code=1)
    assert "unknown GM edit 'set_hp'; allowed: set_pos" in r.output
    gm("amend", race, "set-pos", "ben", "5", "--reason", "lost a turn to a bug")
    gm("resolve", race)
    assert state(race, 1)["runners"][1]["pos"] == 5
    assert "GM 把 **ben** 移到 F1。理由：lost a turn to a bug" in (race / "reports/turn-001/public.md").read_text("utf-8")
    assert "toy: set-pos RUNNER CELL" in gm("amend", "--help").output


def test_play_to_the_end_rollback_and_verify(race, gm, tmp_path):
    for n in range(1, 40):
        s = json.loads(gm("status", race, "--json").output)
        if s["winner"]:
            break
        who = s["due"][0]
        gm("submit", race, write(tmp_path / f"{n}.yaml", f"turn: {n}\nplayer: {who}\nstep: 3\n"))
        gm("resolve", race)
    final = json.loads(gm("status", race, "--json").output)
    assert final["winner"] in ("ann", "ben") and final["due"] == []
    last = final["turn"]
    r = gm("verify", race, "--lang", "en")
    assert f"Verified: {last} turns" in r.output
    gm("submit", race, write(tmp_path / "late.yaml", f"turn: {last + 1}\nplayer: ann\nstep: 1\n"), code=1)
    gm("rollback", race, "--to", "1")
    assert json.loads(gm("status", race, "--json").output)["turn"] == 1
    gm("verify", race)


def test_simulate_and_demo_play_the_toy(gm, tmp_path):
    report = json.loads(gm("simulate", RACE, "--games", "6", "--bots", "greedy", "--json").output)
    assert report["ruleset"] == "toy" and report["games"] == 6
    assert sum(report["outcomes"].values()) == 6 and report["outcomes"]["timeout"] == 0
    assert report["labels"]["score_label"] == {"zh": "位置", "en": "position"}
    text = gm("simulate", RACE, "--games", "4", "--lang", "en").output
    assert "Mean position" in text and "Class" in text
    out = gm("demo", tmp_path / "d", "--scenario", RACE, "--lang", "en").output
    winner = json.loads((tmp_path / "d" / "state" / sorted(os.listdir(tmp_path / "d" / "state"))[-1]).read_text())["winner"]
    assert f"The game is over; the winner: {winner}" in out


def test_a_finished_game_says_who_won_and_offers_no_next_turn(gm, tmp_path):
    gm("demo", tmp_path / "d", "--scenario", RACE)
    d = tmp_path / "d"
    gm("forum", d, "--name", "ann=安 娜", "--name", "ben=Ben 本")
    winner = {"ann": "安 娜", "ben": "Ben 本"}[json.loads(gm("show", d, "--json").output)["winner"]]
    status = gm("status", d).output
    assert f"游戏已结束，胜者：{winner}" in status and "待结算" not in status
    assert json.loads(gm("status", d, "--json").output)["next"] is None
    assert f"游戏已结束，胜者：{winner}；没有下一回合" in gm("template", d, "ann", code=1).stderr
    sheet = tmp_path / "s.yaml"
    sheet.write_text("turn: 99\nplayer: ann\nstep: 1\n", encoding="utf-8")
    assert f"胜者：{winner}" in gm("check", d, sheet, code=1).stderr
    assert gm("show", d).output.startswith(f"游戏已结束，胜者：{winner}")
    assert "The game is over; the winner" in gm("status", d, "--lang", "en").output
