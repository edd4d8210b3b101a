"""Posts that say what happened (issue 22): a move line names where the squad really stopped and
why, a skipped action its 1-based number and real reason once, the legend an active 唱诗 and the
priest keeping each 岩, an attack line its bonuses, 奉献 the paladin's own loss; squad labels and
automatic ids are never given twice; a 40-turn bot game's move lines agree with the board."""

import re

import pytest

from gm_tool import app
from gm_tool.core.chance import Chance
from gm_tool.core.render import Forum, use_forum
from gm_tool.rulesets.guangying import RULESET
from tests.guangying.kit import board, force, of, sq, squad, turn


def public(before, after, events, lang="zh"):
    return RULESET.posts(before, after, events, lang).texts["public"]["md"]


def test_move_line_names_a_pincer_stop():
    """seed l.56: "致命夹击：如果能被两个队伍同时措手不及，则会被强制停留在原地。" (the line says E7 and why, not the
    written destination)"""
    s = board(sq("alice", "E5", "w1:战士"), sq("bob", "D7", "w8:战士"), sq("bob", "F7", "w9:战士"))
    after, events = turn(s, {"move": "w1", "path": ["E6", "E7", "E8"]})
    text = public(s, after, events)
    assert "从 E5 出发（路径 E6→E7），在 E7 被致命夹击截停（原定 E8）" in text
    assert squad(after, "w1")["pos"] == "E7"


def test_move_line_names_where_a_mage_died():
    """seed l.41: "生命：每个棋子的生命力，归零的话，棋子死亡无法复活。" (a mage killed on the way: where, not the plan)"""
    s = board(sq("alice", "G4", "m1:法师:4"), sq("bob", "H5", "g9:游荡者"))
    after, events = turn(s, {"move": "m1", "path": ["G5", "G6", "G7"]})
    text = public(s, after, events, "en")
    assert "sets out from G4 (path G5) and is wiped out at G5 (planned G7)" in text


def test_skipped_action_told_once_with_its_number_and_real_reason():
    """seed l.41: "归零的话，棋子死亡无法复活。" (第 2 条行动 and "已阵亡", not the sheet check's message)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("alice", "B6", "w2:战士"), sq("bob", "C6", "r9:巡林客:4"))
    after, events = force(s, {"attack": "w1", "target": "r9"}, {"attack": "w2", "target": "r9"})
    text = public(s, after, events)
    assert "第 2 条行动（攻击）跳过：r9 已阵亡。" in text and text.count("跳过") == 1


def test_game_decided_is_told_once():
    """seed l.24: "注：三种胜利方式，达成任何一种均算作胜利。" ("胜负已分" once for the rest of the sheet)"""
    s = board(sq("alice", "D11", "w1:战士"), sq("alice", "C5", "w2:战士"), first="bob", fortress_hp={"bob": 4})
    s, _ = turn(s)
    after, events = turn(s, {"attack": "w1", "target": "fortress"}, {"move": "w2", "path": ["C6"]},
                         {"move": "w2", "path": ["C7"]})
    text = public(s, after, events)
    assert text.count("胜负已分") == 1 and "胜负已分，第 2-3 条行动跳过。" in text
    assert "draw" not in text and "fortress" not in text and "胜者：alice" in text


def test_attack_line_explains_its_bonuses():
    """seed l.26: "唱诗：覆盖周围两个身位格的范围内的队长，增加战力+3" and l.52 "战阵" ("+3 唱诗", "+3 战阵", "×2")"""
    s = board(sq("alice", "C5", "r1:巡林客", "r2:巡林客"), sq("alice", "C3", "d1:诗人"), sq("bob", "C6", "pa9:圣武士"))
    after, events = turn(s, {"ability": "唱诗", "by": "d1"}, {"full_attack": "r1", "target": "pa9"})
    text = public(s, after, events)
    assert "18 点（战力 3，+3 唱诗，+3 战阵，×2 全力攻击）" in text


def test_devotion_tells_the_paladins_own_loss():
    """seed l.30: "奉献：用自己的生命力，恢复同队的生命力" (the line states what the 圣武士 lost)"""
    s = board(sq("alice", "C5", "pa1:圣武士", "r1:巡林客:10"))
    after, events = turn(s, {"ability": "奉献", "by": "pa1", "target": "r1", "amount": 6})
    assert "给 r1 6 点生命，自身失去 6 点（余 30）" in public(s, after, events).replace("**", "")


def test_legend_shows_the_song_and_the_priest_keeping_a_rock():
    """seed l.27: "造岩：在面前，创造一面‘岩’（维持岩的时候，无法发动能力1）" and l.26 唱诗 (the legend says who keeps the
    rock and that the song is on)"""
    s = board(sq("alice", "C5", "p1:牧师"), sq("alice", "E5", "d1:诗人"))
    after, events = turn(s, {"ability": "造岩", "by": "p1", "at": "C6", "id": "k1"}, {"ability": "唱诗", "by": "d1"})
    text = public(s, after, events).replace("\\", "")
    assert "^^ k1（alice）：岩 C6，由 p1 维持" in text
    assert "d1 唱诗中：2 格内己方队长战力 +3" in text


def test_automatic_squad_ids_and_labels_are_never_reused():
    """seed l.10: "最多成为5个队伍" (a squad that is gone leaves its id and label unused for the rest of the game)"""
    s = board(sq("alice", "C2", "w1:战士"))
    s, _ = turn(s, {"summon": "巡林客", "at": "D2"})
    first = squad(s, "alice-ranger1")
    assert first["id"] == "alice-s2"  # alice-s1 is w1's
    s, _ = turn(s)
    s, _ = turn(s, {"return": ["alice-ranger1"]})
    s, _ = turn(s)
    s, _ = turn(s, {"summon": "巡林客", "at": "D2"})
    again = squad(s, "alice-ranger2")
    assert again["id"] == "alice-s3"  # alice-s2 has gone, and stays unused
    assert s["squad_labels"][again["id"]] != s["squad_labels"][first["id"]]
    assert first["id"] in s["retired"]


def test_labels_stable_across_turns():
    """seed l.51: "身处最上方的棋子，被当做队长" (a squad keeps its board label whatever else comes and goes)"""
    s = board(sq("alice", "C2", "w1:战士", id="x"), sq("alice", "H2", "w2:战士", id="y"))
    label = s["squad_labels"]["y"]
    s, _ = turn(s, {"return": ["w1"]})
    s, _ = turn(s)
    s, _ = turn(s, {"summon": "战士", "at": "A2"})
    assert s["squad_labels"]["y"] == label == "a#2"
    assert sorted(s["squad_labels"][q["id"]] for q in s["squads"]) == ["a#2", "a#3"]


def test_display_names_and_no_raw_codes_in_zh_posts():
    """seed l.22: "要塞破坏：摧毁对方的要塞，则赢得比赛。" (display names everywhere; no raw code in a Chinese post)"""
    s = board(sq("alice", "D11", "w1:战士"), first="bob", fortress_hp={"bob": 4})
    s, _ = turn(s)
    after, events = turn(s, {"attack": "w1", "target": "fortress"})
    forum = Forum(names={"alice": "爱丽丝 A", "bob": "Bob Li"})
    with use_forum(forum):
        texts = RULESET.posts(s, after, events, "zh").texts
    for who, out in texts.items():
        for fmt, text in out.items():
            body = text.split("```")[0] if fmt == "md" else text
            assert "alice" not in body.replace("alice-", ""), (who, fmt)
            for raw in ("draw", "fortress", "None", "set_hp", "first"):
                assert raw not in body, (who, fmt, raw)
    assert "胜者：爱丽丝 A" in texts["public"]["md"]


def _moves_agree(events, after):
    """Every move event's stop agrees with where the squad was next seen (its next move or push,
    else the board after the turn)."""
    for i, e in enumerate(events):
        if e["type"] != "move":
            continue
        sid = e.get("joined") or e["squad"]
        later = [x for x in events[i + 1:] if x["type"] in ("move", "push") and x["squad"] == sid]
        if later:
            assert later[0]["frm"] == e["dest"], (e, later[0])
            continue
        q = next((q for q in after["squads"] if q["id"] == sid), None)
        if e["stop"] in ("lost", "fled"):
            assert q is None, e
        elif q is not None:
            assert q["pos"] == e["dest"], (e, q)
        else:  # the squad was wiped out later in the turn
            assert any(x["type"] in ("death", "flee", "join", "return", "standing_return", "suicide")
                       for x in events[i + 1:]), e


@pytest.mark.parametrize("seed", ["demo-1", "demo-2", "demo-3"])
def test_forty_turn_demo_move_lines_agree_with_the_board(seed):
    """seed l.45: "身位格：上下左右一个格子，算作一个身位格，每次移动一个格子，算作消耗一点移动力。" (issue 22: a 40-turn
    game's posts have no move line that disagrees with the next state)"""
    data, source = app.load_scenario("standard")
    state = RULESET.setup(data, source, seed)
    moves = 0
    for n in range(1, 41):
        if not RULESET.due(state):
            break
        p = RULESET.due(state)[0]
        sheet = RULESET.bot_sheet(state, p, "greedy" if n % 2 else "random", Chance(seed, f"bot-{n}"))
        res = RULESET.resolve(state, {p: RULESET.parse_orders(state, sheet, "bot.yaml", "en")}, seed)
        _moves_agree(res.events, res.state)
        text = RULESET.posts(state, res.state, res.events, "zh").texts["public"]["md"]
        for e in of(res.events, "move"):
            moves += 1
            assert f"从 {e['frm']} 出发" in text and e["dest"] in text
        state = res.state
    assert moves > 20


def test_skipped_attack_on_a_pushed_target_says_what_is_in_reach():
    """seed l.57: "会将对方震退1个身位格" (a target pushed away: the reason names it and what is in reach now)"""
    s = board(sq("alice", "C5", "w1:战士"), sq("alice", "D6", "w2:战士"), sq("bob", "C6", "pa9:圣武士"))
    after, events = force(s, {"full_attack": "w1", "target": "pa9"}, {"attack": "w2", "target": "pa9"})
    assert squad(after, "pa9")["pos"] == "C7"
    text = public(s, after, events, "en")
    assert "Action 2 (attack) skipped: 'pa9' is not within 1 cell of squad a#2; in reach: -." in text.replace("\\", "")
    assert "for 8 (power 4, ×2 full attack)." in text


def test_markers_laid_without_an_id_are_named_by_seat():
    """seed l.27: "造岩：在面前，创造一面‘岩’" and l.28 风墙 (a rock or wall laid without an id is named
    ``a-rock1``/``a-wall1`` in every post, never by its owner's name, and a sheet may name it so)"""
    s = board(sq("alice", "C5", "p1:牧师"), sq("alice", "F5", "u1:德鲁伊"))
    after, events = turn(s, {"ability": "造岩", "by": "p1", "at": "C6"}, {"ability": "风墙", "by": "u1", "at": "F6"})
    assert [m["id"] for m in after["markers"]] == ["alice-rock1", "alice-wall1"]
    assert RULESET.unit_labels(after, "zh")["alice-rock1"] == "a-rock1"
    forum = Forum(names={"alice": "爱丽丝 A", "bob": "Bob Li"})
    with use_forum(forum):
        texts = RULESET.posts(s, after, events, "zh").texts
    for who, out in texts.items():
        body = re.sub(r"map-[\w-]+\.png", "", out["md"].split("```")[0])  # the core names the pictures
        assert "alice" not in body, who
        assert "a-rock1" in body and "a-wall1" in body, who
    after2, events2 = turn(after)
    s3, _ = turn(after2, {"suicide": "p1"})  # the rock goes with its priest (R3), its label stays known
    assert "alice-rock1" in s3["retired"] and RULESET.unit_labels(s3, "zh")["alice-rock1"] == "a-rock1"
