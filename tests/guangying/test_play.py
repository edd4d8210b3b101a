"""Whole games: nothing is hidden (every view is the GM's), replays are byte-identical, bots play
to the end, scenarios are checked, posts tell every reaction, and the CLI drives a campaign."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gm_tool import app
from gm_tool.core.chance import Chance
from gm_tool.errors import GmError
from gm_tool.rulesets.guangying import RULESET
from tests.guangying.kit import board, sq, turn


def _game(kinds=("random", "random"), seed="g", limit=400):
    data, source = app.load_scenario("standard")
    state = RULESET.setup(data, source, seed)
    states = [state]
    events = []
    n = 0
    while RULESET.due(state) and n < limit:
        n += 1
        p = RULESET.due(state)[0]
        kind = kinds[RULESET.players(state).index(p)]
        sheet = RULESET.bot_sheet(state, p, kind, Chance(seed, f"bot-{n}"))
        orders = RULESET.parse_orders(state, sheet, "bot.yaml", "en")
        res = RULESET.resolve(state, {p: orders}, seed)
        state = res.state
        states.append(state)
        events.append(res.events)
    return states, events


@pytest.mark.parametrize("kinds", [("random", "random"), ("greedy", "random"), ("greedy", "greedy")])
def test_bots_play_to_the_end(kinds):
    """seed l.24: "注：三种胜利方式，达成任何一种均算作胜利。" (every bot game ends)"""
    states, _ = _game(kinds)
    assert states[-1]["winner"] is not None
    assert RULESET.due(states[-1]) == []


def test_replay_is_byte_identical():
    """seed l.19: "所有涉及小数点的地方，都向下取整。" (no chance: same sheets, same game)"""
    a, ea = _game(seed="r")
    b, eb = _game(seed="r")
    assert [json.dumps(s, ensure_ascii=False, sort_keys=True) for s in a] == \
        [json.dumps(s, ensure_ascii=False, sort_keys=True) for s in b]
    assert ea == eb


def test_every_view_equals_the_gms():
    """seed l.2: "一.开局" (a board game in the open: nothing is hidden; property over a whole game);
    contract spec/guangying.md §1 l.13: "Nothing is hidden: every view equals the GM's." """
    states, _ = _game(("greedy", "random"), seed="v")
    for s in states[::3]:
        gm = RULESET.view(s, None)
        assert gm == s
        for p in RULESET.players(s):
            assert RULESET.view(s, p) == gm


def test_private_posts_do_not_depend_on_who_reads_beyond_their_own_table():
    """seed l.2: "一.开局" (nothing hidden: a change anywhere shows in everyone's post alike)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "w9:战士"))
    after, events = turn(s, {"attack": "w1", "target": "w9"})
    posts = RULESET.posts(s, after, events, "zh").texts
    for who in ("alice", "bob"):
        assert "w9" in posts[who]["md"] and "24" in posts[who]["md"]


def test_posts_tell_reactions_with_their_cause():
    """seed l.55: "借机攻击：暴露在敌方的直接攻击范围内的人，选择移动出攻击范围的话，会被强制半额攻击一次" """
    s = board(sq("alice", "C5", "w1:战士"), sq("bob", "C6", "g9:游荡者"))
    after, events = turn(s, {"move": "w1", "path": ["B5"]})
    posts = RULESET.posts(s, after, events, "zh")
    assert "借机攻击" in posts.texts["public"]["md"] and "g9" in posts.texts["public"]["md"]
    assert "借机攻击" in RULESET.posts(s, after, events, "en").texts["public"]["bbcode"]
    assert posts.files["map-public.png"].startswith(b"\x89PNG")


def test_your_turn_post_holds_the_sheet():
    """seed l.5: "双方选出一位先攻，由其开始进行召唤。" (the player due gets a pre-filled sheet)"""
    s = board()
    after, events = turn(s, {"summon": "战士", "at": "C3"})
    posts = RULESET.posts(s, after, events, "zh").texts
    assert "玩家: bob" in posts["bob"]["md"] and "玩家: bob" not in posts["alice"]["md"]


def test_skipped_action_is_shown():
    """seed l.41: "归零的话，棋子死亡无法复活。" (the post says why an action was skipped)"""
    from tests.guangying.kit import force

    s = board(sq("alice", "C5", "w1:战士"), sq("alice", "B6", "w2:战士"), sq("bob", "C6", "r9:巡林客:4"))
    after, events = force(s, {"attack": "w1", "target": "r9"}, {"attack": "w2", "target": "r9"})
    text = RULESET.posts(s, after, events, "en").texts["public"]["md"]
    assert "Action 2 (attack) skipped: r9 is dead." in text and text.count("skipped") == 1


def test_gm_edits():
    """seed l.49: "要塞：生命力为100的要塞" (GM edits: set-hp, move, set-fortress, kill, remove-marker)"""
    s = board(sq("alice", "C5", "w1:战士", id="s1"), sq("alice", "A1", "p1:牧师"),
              markers=[{"id": "k1", "kind": "岩", "owner": "alice", "cells": ["B1"], "by": "p1"}])
    s, ev = RULESET.amend(s, {"action": "set_hp", "args": ["w1", 5], "reason": "r"}, "x")
    assert s["pieces"][0]["hp"] == 5 and ev[0]["type"] == "amend"
    s, _ = RULESET.amend(s, {"action": "move", "args": ["s1", "D7"], "reason": "r"}, "x")
    assert s["squads"][0]["pos"] == "D7"
    s, _ = RULESET.amend(s, {"action": "set_fortress", "args": ["bob", 50], "reason": "r"}, "x")
    assert s["players"][1]["fortress_hp"] == 50
    s, _ = RULESET.amend(s, {"action": "remove_marker", "args": ["k1"], "reason": "r"}, "x")
    assert s["markers"] == [] and s["players"][0]["pool"]["岩"] == 4
    s, _ = RULESET.amend(s, {"action": "kill", "args": ["w1"], "reason": "r"}, "x")
    assert "w1" in s["players"][0]["dead"]
    with pytest.raises(GmError):
        RULESET.amend(s, {"action": "move", "args": ["s1", "E1"], "reason": "r"}, "x")


def test_campaign_through_the_app(tmp_path):
    """seed l.5: "双方选出一位先攻，由其开始进行召唤。" (new, submit, resolve, verify, rollback)"""
    root = tmp_path / "c"
    app.new_campaign(root, "standard", seed="a-long-enough-test-seed-0123456789")
    assert app.status(root)["due"] == ["alice"]
    sheet = tmp_path / "alice.yaml"
    sheet.write_text("turn: 1\nplayer: alice\nactions:\n  - {召唤: 战士, 位置: C3, 编号: w1}\n", "utf-8")
    app.submit(root, sheet, "zh")
    app.resolve(root)
    assert app.status(root)["due"] == ["bob"]
    app.resolve(root)  # bob passes
    state = json.loads((root / "state" / "turn-002.json").read_text("utf-8"))
    assert state["next"] == "alice" and state["players"][1]["professional_missing_turns"] == 1
    assert app.verify(root, "a-long-enough-test-seed-0123456789")
    app.rollback(root, 1)
    assert app.status(root)["due"] == ["bob"]


def test_demo_plays_to_the_end(tmp_path):
    """seed l.24: "注：三种胜利方式，达成任何一种均算作胜利。" (`gm demo --ruleset guangying`)"""
    gm = Path(sys.executable).parent / "gm"
    out = subprocess.run([str(gm), "demo", str(tmp_path / "d"), "--ruleset", "guangying"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    last = sorted((tmp_path / "d" / "state").glob("turn-*.json"))[-1]
    assert json.loads(last.read_text("utf-8"))["winner"] is not None


def test_bot_orders_equal_parsed_bot_sheets():
    """seed l.40: "每个小队每回合开始获得2个行动机会" (the fast bot path gives what the sheet would)"""
    states, _ = _game(("random", "greedy"), seed="o")
    for s in states[:-1:4]:
        p = RULESET.due(s)[0]
        for kind in ("random", "greedy"):
            fast = RULESET.bot_orders(s, {p: kind}, Chance("o", str(s["turn"])))[p]
            slow = RULESET.parse_orders(s, RULESET.bot_sheet(s, p, kind, Chance("o", str(s["turn"]))), "b", "en")
            assert RULESET.resolve(s, {p: fast}, "o").state == RULESET.resolve(s, {p: slow}, "o").state


def test_every_event_is_public():
    """seed l.2: "一.开局" (nothing is hidden: every event of a whole game is told to all)"""
    _, events = _game(("greedy", "random"), seed="e")
    assert {e["to"] for turn_events in events for e in turn_events} == {"all"}


def test_gm_check_through_the_cli(tmp_path):
    """seed l.12: "永远也无法在敌方本阵中，召唤自己的棋子。" (`gm check`: exit 1, one line per problem with file, line, field)"""
    gm = Path(sys.executable).parent / "gm"
    root = tmp_path / "c"
    subprocess.run([str(gm), "new", str(root), "--scenario", "standard", "--seed", "a-long-enough-test-seed-0123456789"],
                   capture_output=True, text=True, check=True, timeout=60)
    sheet = tmp_path / "alice.yaml"
    sheet.write_text("turn: 1\nplayer: alice\nactions:\n  - {summon: 战士, at: C11}\n  - {move: nobody, path: [C4]}\n",
                     "utf-8")
    out = subprocess.run([str(gm), "check", str(root), str(sheet), "--lang", "en"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 1
    lines = (out.stdout + out.stderr).strip().splitlines()
    assert lines[0].startswith(f"{sheet}:4: actions[0].at: 战士 cannot be summoned at C11; allowed cells: A1")
    assert lines[1].startswith(f"{sheet}:5: actions[1].move: 'nobody' is not one of your squads")


def test_a_pass_is_told():
    """seed l.40: "每个小队每回合开始获得2个行动机会" (a player who sends nothing passes, and the post says so)"""
    s = board()
    after, events = turn(s)
    assert [e["type"] for e in events] == ["turn_start", "pass"]
    assert "passes" in RULESET.posts(s, after, events, "en").texts["public"]["md"]


def test_bundled_scenarios_agree():
    """seed l.2: "一.开局" (the empty start is bundled as standard and as guangying: the same start)"""
    a, _ = app.load_scenario("standard")
    b, _ = app.load_scenario("guangying")
    assert a == b and RULESET.default_scenario == "standard"
