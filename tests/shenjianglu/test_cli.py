"""The whole game through the CLI, as the contract writes it (gm new/template/check/submit/status/
resolve/show/report/verify/rollback/amend/demo)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import write


def new(gm, tmp_path: Path, scenario: str = "shenjianglu") -> Path:
    d = tmp_path / "c"
    gm("new", d, "--scenario", scenario, "--seed", "cli-seed-for-shenjianglu")
    return d


def state(d: Path) -> dict:
    last = sorted((d / "state").glob("turn-*.json"))[-1]
    return json.loads(last.read_text("utf-8"))


def test_a_turn_through_the_cli(gm, tmp_path):
    """seed l.113: "行動階段：以下3種行為可自行決定順序" — a sheet summons, is checked, submitted and resolved."""
    d = new(gm, tmp_path)
    s = state(d)
    assert s["next"] == "alice" and s["turn"] == 0
    gm("template", d, "alice", "-o", tmp_path / "t.yaml")
    gm("check", d, tmp_path / "t.yaml")
    hand = s["seats"][0]["hand"]
    troop = next(c for c in hand if c in ("步卒", "周弓兵", "盾卫", "民兵", "斥候", "弓手", "医者"))
    sheet = write(tmp_path / "a.yaml", f"回合: 1\n玩家: alice\n行动:\n  - {{召唤: {troop}, 位置: C7, 编号: a1}}\n")
    gm("check", d, sheet)
    gm("submit", d, sheet)
    out = gm("status", d).output
    assert "alice" in out
    gm("resolve", d)
    s = state(d)
    assert s["turn"] == 1 and s["next"] == "bob"
    assert any(u["id"] == "a1" and u["pos"] == "C7" for u in s["units"])
    pub = gm("report", d, "--format", "markdown").output
    assert f"| 1·a1 | {troop} | alice | C7 |" in pub  # its label, and the id the sheet gave it
    private = gm("report", d, "--player", "bob", "--format", "markdown").output
    assert "turn: 2" in private and "player: bob" in private  # bob's pre-filled sheet
    view = json.loads(gm("show", d, "--player", "alice", "--json").output)
    assert all("deck" not in x for x in view["seats"])
    assert [("hand" in x) for x in view["seats"]] == [True, False]
    gm("verify", d)


def test_check_refuses_naming_action_field_and_allowed(gm, tmp_path):
    """seed l.63: "若出兵點上有人，則此點不能出兵。" — `gm check` exits 1 naming actions.1.at and the free points."""
    d = new(gm, tmp_path)
    sheet = write(tmp_path / "a.yaml", "turn: 1\nplayer: alice\nactions:\n  - {summon: 周骑, at: D7}\n")
    gm("amend", d, "give-card", "alice", "周骑", "--reason", "test")  # from her deck, whatever the shuffle
    r = gm("check", d, sheet, "--lang", "en", code=1)
    text = r.output + (r.stderr if r.stderr_bytes else "")
    assert "actions.1.at" in text and "free ones: C7, E7, D6" in text


def test_bob_cannot_send_on_alices_turn(gm, tmp_path):
    """seed l.99: "然後按順序依次行動。" """
    d = new(gm, tmp_path)
    sheet = write(tmp_path / "b.yaml", "turn: 1\nplayer: bob\nactions: []\n")
    r = gm("check", d, sheet, "--lang", "en", code=1)
    assert "player" in r.output + (r.stderr if r.stderr_bytes else "")


def test_rollback_and_amend(gm, tmp_path):
    """seed l.209: "強制減少2點王的體力" — the GM sets a king's lost 体力 by hand; rollback undoes a turn."""
    d = new(gm, tmp_path)
    gm("resolve", d)
    gm("resolve", d)
    assert state(d)["turn"] == 2
    gm("rollback", d, "--to", "1")
    assert state(d)["turn"] == 1
    gm("amend", d, "set-damage", "K2", "3", "--reason", "penalty missed")
    gm("resolve", d)
    s = state(d)
    assert next(u for u in s["units"] if u["id"] == "K2")["damage"] == 3
    assert "penalty missed" in gm("report", d, "--format", "markdown").output
    gm("verify", d)


def test_demo_plays_to_the_end(gm, tmp_path):
    """seed l.219: "某一隊的王被全滅則遊戲結束。" — `gm demo --ruleset shenjianglu` plays the bundled game out."""
    d = tmp_path / "demo"
    gm("demo", d, "--ruleset", "shenjianglu")
    s = state(d)
    assert s["winner"] in ("red", "green", "draw") and s["next"] is None
    gm("verify", d)


def test_four_seat_game_resolves(gm, tmp_path):
    """seed l.215: "用8張順序牌來分配隊伍和順序" — bigger tables play the same way."""
    d = new(gm, tmp_path, "shenjianglu-4")
    for _ in range(4):
        gm("resolve", d)
    assert state(d)["next"] == "alice" and state(d)["turn"] == 4


def test_check_names_the_line_of_each_action(gm, tmp_path):
    """seed l.117: "指揮上一回合上場的我方全部人物陸續行動一次。" — the second command of K1 is refused at its own line."""
    d = new(gm, tmp_path)
    sheet = write(tmp_path / "a.yaml", "turn: 1\nplayer: alice\nactions:\n  - command: K1\n    to: D6\n"
                                      "  - command: K1\n    to: D7\n")
    r = gm("check", d, sheet, "--lang", "en", code=1)
    assert "a.yaml:6: actions.2.command" in r.output + (r.stderr if r.stderr_bytes else "")


def test_setup_shuffles_are_logged_and_verified(gm, tmp_path):
    """spec §4: decks are shuffled at `gm new`, "each shuffle a GM-only event": log/turn-000.jsonl
    holds them, in the order of the deck they left, and `gm verify` refuses an edited one."""
    d = new(gm, tmp_path)
    events = [json.loads(line) for line in (d / "log/turn-000.jsonl").read_text("utf-8").splitlines()]
    assert [e["why"] for e in events] == ["neutrals", "deck seat 1", "deck seat 2"]  # one neutral pool (ruling 13)
    assert all(e["to"] == [] and e["op"] == "shuffle" for e in events)
    s = state(d)
    deck_1 = events[1]["result"]
    assert deck_1[:len(s["seats"][0]["hand"])] == s["seats"][0]["hand"]  # the hand is the shuffled top
    gm("verify", d)
    forged = dict(events[1], result=list(reversed(deck_1)))
    lines = [json.dumps(e if e is not events[1] else forged, ensure_ascii=False, sort_keys=True) for e in events]
    (d / "log/turn-000.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    out = gm("verify", d, code=1).output
    assert "log/turn-000.jsonl" in out


def test_check_warns_of_a_sheet_that_kills_its_own_king(gm, tmp_path):
    """seed l.187: "王被殺死的玩家將退出遊戲" — `gm check` accepts the sheet and says, on its line, that the
    player's own king dies in it."""
    scenario = write(tmp_path / "s.yaml", "ruleset: shenjianglu\nboard: duel\nseats:\n  1: {player: alice, faction: 周}\n"
                                          "  2: {player: bob, faction: 商}\nunits:\n  - {id: K1, pos: D4, damage: 11}\n"
                                          "  - {id: b1, card: 商兵, owner: bob, pos: D3}\n")
    d = new(gm, tmp_path, str(scenario))
    sheet = write(tmp_path / "a.yaml", "回合: 1\n玩家: alice\n行动:\n  - {指挥: K1, 攻击: b1}\n")
    out = gm("check", d, sheet).output
    assert "有效" in out and "a.yaml:4: actions.1" in out and "你的王会在这条行动中阵亡" in out
